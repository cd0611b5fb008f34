package pyfmt

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// JSON returns v as Python's json.dumps(v, indent=2) writes it (its
// default ensure_ascii=True), with a final newline as print adds: keys in
// the order encoding/json gives them, two-space indentation, ", " never
// at line ends, ": " after keys, "<", ">" and "&" as is, every character
// outside ASCII as a \uXXXX escape (a surrogate pair beyond U+FFFF).
func JSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return EnsureASCII(buf.Bytes()), nil
}

// EnsureASCII rewrites a JSON document so that it is pure ASCII, as
// Python's ensure_ascii does: every non-ASCII character (they can only
// sit inside strings), and DEL, becomes \uXXXX with lower-case hex
// digits, or a surrogate pair. Invalid UTF-8 becomes \ufffd. A document that is
// already ASCII comes back unchanged (the same slice).
func EnsureASCII(doc []byte) []byte {
	i := 0
	for i < len(doc) && doc[i] < 0x7f {
		i++
	}
	if i == len(doc) {
		return doc
	}
	const hex = "0123456789abcdef"
	out := make([]byte, 0, len(doc)+len(doc)/4)
	out = append(out, doc[:i]...)
	u := func(r rune) {
		out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	for i < len(doc) {
		c := doc[i]
		if c < 0x7f {
			out = append(out, c)
			i++
			continue
		}
		if c == 0x7f {
			u(0x7f)
			i++
			continue
		}
		r, size := utf8.DecodeRune(doc[i:])
		i += size
		if r > 0xffff {
			r -= 0x10000
			u(0xd800 + r>>10)
			u(0xdc00 + r&0x3ff)
			continue
		}
		u(r)
	}
	return out
}
