package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file edits JSON configuration files the way a careful person
// would: by inserting (or, on undo, removing) text, never by decoding and
// re-encoding the whole document. Everything the user wrote (layout,
// escapes, key order, number spellings) stays byte for byte; only the
// lines that carry bourdon's entries change, so the diff setup shows is
// exactly what it adds.

// jnode is one value of a parsed document with its byte range.
type jnode struct {
	kind       byte // '{', '[', '"' or 'v' (number, true, false, null)
	start, end int  // [start, end) in the document
	members    []jmember
	items      []*jnode
}

// jmember is one key of an object.
type jmember struct {
	key      string // decoded
	keyStart int
	val      *jnode
}

// jdoc is a parsed JSON document.
type jdoc struct {
	src  []byte
	root *jnode
}

// parseJSONDoc parses a strict JSON document whose top level is an object.
// A document of only white space is the empty object. The error says what
// is wrong and where (line and column).
func parseJSONDoc(src []byte) (*jdoc, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return &jdoc{src: []byte("{}\n"), root: &jnode{kind: '{', start: 0, end: 2}}, nil
	}
	if !utf8.Valid(src) {
		return nil, errors.New("not valid UTF-8")
	}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		return nil, errors.New("starts with a byte-order mark, which strict JSON does not allow")
	}
	var probe any
	if err := json.Unmarshal(src, &probe); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(src, int(se.Offset))
			return nil, fmt.Errorf("not valid JSON (line %d, column %d: %s)", line, col, se.Error())
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	p := &jparser{src: src}
	p.ws()
	root := p.value()
	if root.kind != '{' {
		return nil, errors.New("the top level is not a JSON object")
	}
	return &jdoc{src: src, root: root}, nil
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(src []byte, off int) (int, int) {
	off = min(max(off, 0), len(src))
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := off - (bytes.LastIndexByte(before, '\n') + 1)
	if col == 0 {
		col = 1
	}
	return line, col
}

// jparser walks a document already checked by encoding/json, recording
// where each value is.
type jparser struct {
	src []byte
	pos int
}

func (p *jparser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) value() *jnode {
	n := &jnode{start: p.pos}
	switch p.src[p.pos] {
	case '{':
		n.kind = '{'
		p.pos++
		p.ws()
		for p.src[p.pos] != '}' {
			keyStart := p.pos
			p.str()
			var key string
			_ = json.Unmarshal(p.src[keyStart:p.pos], &key)
			p.ws()
			p.pos++ // ':'
			p.ws()
			n.members = append(n.members, jmember{key: key, keyStart: keyStart, val: p.value()})
			p.ws()
			if p.src[p.pos] == ',' {
				p.pos++
				p.ws()
			}
		}
		p.pos++
	case '[':
		n.kind = '['
		p.pos++
		p.ws()
		for p.src[p.pos] != ']' {
			n.items = append(n.items, p.value())
			p.ws()
			if p.src[p.pos] == ',' {
				p.pos++
				p.ws()
			}
		}
		p.pos++
	case '"':
		n.kind = '"'
		p.str()
	default:
		n.kind = 'v'
		for p.pos < len(p.src) && strings.IndexByte("+-.0123456789eEtruefalsn", p.src[p.pos]) >= 0 {
			p.pos++
		}
	}
	n.end = p.pos
	return n
}

func (p *jparser) str() {
	p.pos++ // opening quote
	for p.src[p.pos] != '"' {
		if p.src[p.pos] == '\\' {
			p.pos++
		}
		p.pos++
	}
	p.pos++
}

// get returns the value of key in object n (the last one, as JavaScript
// reads a repeated key), or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != '{' {
		return nil
	}
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// decode returns the node's value as encoding/json decodes it.
func (d *jdoc) decode(n *jnode) any {
	var v any
	_ = json.Unmarshal(d.src[n.start:n.end], &v)
	return v
}

// str returns the string value of n, and whether it is a string.
func (d *jdoc) str(n *jnode) (string, bool) {
	if n == nil || n.kind != '"' {
		return "", false
	}
	s, _ := d.decode(n).(string)
	return s, true
}

// indentUnit is the document's indentation step: the leading white space
// of its first indented line, or two spaces.
func (d *jdoc) indentUnit() string {
	for _, line := range bytes.Split(d.src, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if len(trimmed) > 0 && len(trimmed) < len(line) {
			return string(line[:len(line)-len(trimmed)])
		}
	}
	return "  "
}

// newline is the document's line ending: "\r\n" when it uses those.
func (d *jdoc) newline() string {
	if bytes.Contains(d.src, []byte("\r\n")) {
		return "\r\n"
	}
	return "\n"
}

// lineIndent is the white space that starts the line holding offset off.
func (d *jdoc) lineIndent(off int) string {
	start := bytes.LastIndexByte(d.src[:off], '\n') + 1
	end := start
	for end < len(d.src) && (d.src[end] == ' ' || d.src[end] == '\t') {
		end++
	}
	return string(d.src[start:end])
}

// multiline reports whether the value n spans more than one line.
func (d *jdoc) multiline(n *jnode) bool {
	return bytes.IndexByte(d.src[n.start:n.end], '\n') >= 0
}

// splice returns the document with [from, to) replaced by text.
func (d *jdoc) splice(from, to int, text string) []byte {
	out := make([]byte, 0, len(d.src)+len(text))
	out = append(out, d.src[:from]...)
	out = append(out, text...)
	return append(out, d.src[to:]...)
}

// withMember returns the document with key: value added at the end of the
// object n (which must not hold key).
func (d *jdoc) withMember(n *jnode, key string, value any) []byte {
	unit, nl := d.indentUnit(), d.newline()
	outer := d.lineIndent(n.start)
	if len(n.members) == 0 {
		inner := outer + unit
		text := "{" + nl + inner + jsonString(key) + ": " + jsonPretty(value, inner, unit, nl) + nl + outer + "}"
		return d.splice(n.start, n.end, text)
	}
	last := n.members[len(n.members)-1]
	if !d.multiline(n) {
		return d.splice(last.val.end, last.val.end, ", "+jsonString(key)+": "+jsonCompact(value))
	}
	inner := d.lineIndent(last.keyStart)
	return d.splice(last.val.end, last.val.end, ","+nl+inner+jsonString(key)+": "+jsonPretty(value, inner, unit, nl))
}

// withItem returns the document with value appended to the array n.
func (d *jdoc) withItem(n *jnode, value any) []byte {
	unit, nl := d.indentUnit(), d.newline()
	outer := d.lineIndent(n.start)
	if len(n.items) == 0 {
		inner := outer + unit
		return d.splice(n.start, n.end, "["+nl+inner+jsonPretty(value, inner, unit, nl)+nl+outer+"]")
	}
	last := n.items[len(n.items)-1]
	if !d.multiline(n) {
		return d.splice(last.end, last.end, ", "+jsonCompact(value))
	}
	inner := d.lineIndent(last.start)
	return d.splice(last.end, last.end, ","+nl+inner+jsonPretty(value, inner, unit, nl))
}

// withoutMember returns the document with member i of object n removed.
func (d *jdoc) withoutMember(n *jnode, i int) []byte {
	switch {
	case len(n.members) == 1:
		return d.splice(n.start, n.end, "{}")
	case i > 0:
		return d.splice(n.members[i-1].val.end, n.members[i].val.end, "")
	default:
		return d.splice(n.members[0].keyStart, n.members[1].keyStart, "")
	}
}

// withoutItem returns the document with item i of array n removed.
func (d *jdoc) withoutItem(n *jnode, i int) []byte {
	switch {
	case len(n.items) == 1:
		return d.splice(n.start, n.end, "[]")
	case i > 0:
		return d.splice(n.items[i-1].end, n.items[i].end, "")
	default:
		return d.splice(n.items[0].start, n.items[1].start, "")
	}
}

// jobj is an object to write, in key order.
type jobj []jkv

type jkv struct {
	k string
	v any
}

// jsonString writes s as JavaScript's JSON.stringify does: only the
// quote, the backslash and control characters escaped.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// jsonPretty writes v indented like JSON.stringify(v, null, unit), its
// first line continuing the current one and its other lines starting with
// base; lines end with nl.
func jsonPretty(v any, base, unit, nl string) string {
	var b strings.Builder
	writeJSON(&b, v, base, unit, nl, true)
	return b.String()
}

// jsonCompact writes v on one line, with ", " and ": " separators.
func jsonCompact(v any) string {
	var b strings.Builder
	writeJSON(&b, v, "", "", "", false)
	return b.String()
}

func writeJSON(b *strings.Builder, v any, base, unit, nl string, pretty bool) {
	open := func(c byte, inner string) {
		b.WriteByte(c)
		if pretty {
			b.WriteString(nl + inner)
		}
	}
	sep := func(inner string) {
		if pretty {
			b.WriteString("," + nl + inner)
		} else {
			b.WriteString(", ")
		}
	}
	closeWith := func(c byte) {
		if pretty {
			b.WriteString(nl + base)
		}
		b.WriteByte(c)
	}
	inner := base + unit
	switch x := v.(type) {
	case string:
		b.WriteString(jsonString(x))
	case bool:
		fmt.Fprint(b, x)
	case nil:
		b.WriteString("null")
	case []string:
		items := make([]any, len(x))
		for i, s := range x {
			items[i] = s
		}
		writeJSON(b, items, base, unit, nl, pretty)
	case []any:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		open('[', inner)
		for i, item := range x {
			if i > 0 {
				sep(inner)
			}
			writeJSON(b, item, inner, unit, nl, pretty)
		}
		closeWith(']')
	case jobj:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		open('{', inner)
		for i, kv := range x {
			if i > 0 {
				sep(inner)
			}
			b.WriteString(jsonString(kv.k) + ": ")
			writeJSON(b, kv.v, inner, unit, nl, pretty)
		}
		closeWith('}')
	default:
		panic(fmt.Sprintf("setup: cannot write %T as JSON", v))
	}
}
