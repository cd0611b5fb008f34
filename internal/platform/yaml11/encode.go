package yaml11

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Encode writes v as a block-style YAML document in the layout PyYAML's
// safe_dump(default_flow_style=False, sort_keys=False) uses: two-space
// indentation, list items level with their key, keys in insertion order.
// Strings that a YAML 1.1 reader would read as anything but that string
// are quoted. v may hold the types Decode returns, plus int,
// map[string]any (written with sorted keys) and []string.
func Encode(v any) ([]byte, error) {
	var e encoder
	if err := e.node(v, 0, false); err != nil {
		return nil, err
	}
	if e.buf.Len() == 0 || e.buf.Bytes()[e.buf.Len()-1] != '\n' {
		e.buf.WriteByte('\n')
	}
	return e.buf.Bytes(), nil
}

type encoder struct {
	buf bytes.Buffer
}

// node writes v at the given indentation. inline means the cursor already
// sits after "- " or "key: " on the current line.
func (e *encoder) node(v any, indent int, inline bool) error {
	v = normalize(v)
	switch x := v.(type) {
	case *Map:
		if x.Len() == 0 {
			e.buf.WriteString("{}\n")
			return nil
		}
		for i, en := range x.Entries() {
			if i > 0 || !inline {
				e.pad(indent)
			}
			e.buf.WriteString(quoteIfNeeded(en.Key))
			e.buf.WriteByte(':')
			if err := e.child(normalize(en.Value), indent); err != nil {
				return fmt.Errorf("%s: %w", en.Key, err)
			}
		}
	case []any:
		if len(x) == 0 {
			e.buf.WriteString("[]\n")
			return nil
		}
		if inline {
			e.buf.WriteByte('\n')
		}
		for _, item := range x {
			e.pad(indent)
			e.buf.WriteString("- ")
			item = normalize(item)
			if isEmptyCollection(item) || !isCollection(item) {
				s, err := scalarText(item)
				if err != nil {
					return err
				}
				e.buf.WriteString(s)
				e.buf.WriteByte('\n')
				continue
			}
			if err := e.node(item, indent+2, true); err != nil {
				return err
			}
		}
	default:
		s, err := scalarText(x)
		if err != nil {
			return err
		}
		e.buf.WriteString(s)
		e.buf.WriteByte('\n')
	}
	return nil
}

// child writes the value of a mapping entry whose "key:" was just written.
func (e *encoder) child(v any, indent int) error {
	switch x := v.(type) {
	case *Map:
		if x.Len() == 0 {
			e.buf.WriteString(" {}\n")
			return nil
		}
		e.buf.WriteByte('\n')
		return e.node(x, indent+2, false)
	case []any:
		if len(x) == 0 {
			e.buf.WriteString(" []\n")
			return nil
		}
		e.buf.WriteByte('\n')
		return e.node(x, indent, false)
	}
	s, err := scalarText(v)
	if err != nil {
		return err
	}
	e.buf.WriteByte(' ')
	e.buf.WriteString(s)
	e.buf.WriteByte('\n')
	return nil
}

func (e *encoder) pad(n int) {
	for i := 0; i < n; i++ {
		e.buf.WriteByte(' ')
	}
}

func isCollection(v any) bool {
	switch v.(type) {
	case *Map, []any:
		return true
	}
	return false
}

func isEmptyCollection(v any) bool {
	switch x := v.(type) {
	case *Map:
		return x.Len() == 0
	case []any:
		return len(x) == 0
	}
	return false
}

// normalize converts the convenience types Encode accepts into the decoded
// value types.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return int64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := NewMap(len(keys))
		for _, k := range keys {
			m.Set(k, x[k])
		}
		return m
	}
	return v
}

func scalarText(v any) (string, error) {
	switch x := v.(type) {
	case nil:
		return "null", nil
	case bool:
		if x {
			return "true", nil
		}
		return "false", nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case *big.Int:
		return x.String(), nil
	case float64:
		return floatText(x), nil
	case string:
		return quoteIfNeeded(x), nil
	case Date:
		return x.String(), nil
	case Timestamp:
		return x.ISOFormat(), nil
	case *Map:
		if x.Len() == 0 {
			return "{}", nil
		}
	case []any:
		if len(x) == 0 {
			return "[]", nil
		}
	}
	return "", fmt.Errorf("cannot encode a value of type %T", v)
}

func floatText(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := FloatRepr(f)
	if !strings.Contains(s, ".") && strings.Contains(s, "e") {
		s = strings.Replace(s, "e", ".0e", 1)
	}
	return s
}

// quoteIfNeeded returns s as a plain scalar when a YAML 1.1 reader would
// read it back as this very string, single-quoted when that is enough, and
// double-quoted with escapes otherwise.
func quoteIfNeeded(s string) string {
	if plainSafe(s) {
		return s
	}
	if singleQuoteSafe(s) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return doubleQuote(s)
}

func plainSafe(s string) bool {
	if s == "" || !resolvesToString(s) {
		return false
	}
	if s != strings.TrimSpace(s) {
		return false
	}
	if strings.ContainsAny(s[:1], "-?:,[]{}#&*!|>'\"%@`") {
		// "-x", "?x" and ":x" are plain in YAML, but quoting them is
		// harmless and avoids every ambiguity with indicators.
		return false
	}
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	for _, r := range s {
		if r == '\t' || !unicode.IsPrint(r) || r == utf8.RuneError || r == '\uFEFF' {
			return false
		}
	}
	return true
}

func singleQuoteSafe(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) || r == utf8.RuneError || r == '\uFEFF' {
			return false
		}
	}
	return true
}

func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case r == utf8.RuneError:
				b.WriteString(`\uFFFD`)
			case r < 0x20 || r == 0x7f || (r >= 0x80 && !unicode.IsPrint(r)) || r == '\uFEFF':
				if r <= 0xff {
					fmt.Fprintf(&b, `\x%02X`, r)
				} else if r <= 0xffff {
					fmt.Fprintf(&b, `\u%04X`, r)
				} else {
					fmt.Fprintf(&b, `\U%08X`, r)
				}
			default:
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
