// Package jsontext writes JSON string literals exactly as encoding/json
// does, for the encoders that write JSON by hand (a tool's payload, the
// canonical JSON a commit digests) and must agree with it byte for byte.
package jsontext

import "unicode/utf8"

// Escaping says which characters beyond those JSON requires are written
// as escapes.
type Escaping uint8

const (
	// Plain escapes what encoding/json always escapes: the quote, the
	// backslash, control characters, invalid UTF-8 (as \ufffd), U+2028
	// and U+2029 (an Encoder with SetEscapeHTML(false)).
	Plain Escaping = iota
	// HTML also escapes <, > and & as \u003c, \u003e and \u0026, as
	// encoding/json.Marshal does.
	HTML
)

// asIs[e][c] is whether byte c is written as it is inside a string under
// escaping e. Bytes from 0x80 up start a UTF-8 sequence, decoded apart.
var asIs = func() (t [2][256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain := c != '"' && c != '\\'
		t[Plain][c] = plain
		t[HTML][c] = plain && c != '<' && c != '>' && c != '&'
	}
	return t
}()

const hexDigits = "0123456789abcdef"

// AppendString appends s to b as a JSON string literal, escaped as
// encoding/json escapes it under e: the quote and the backslash with a
// backslash, \b \f \n \r \t by name, other control characters (and, under
// HTML, <, > and &) as \u00XX, each byte of invalid UTF-8 as \ufffd, and
// U+2028 and U+2029 (which JavaScript reads as line ends) as \u2028 and
// \u2029.
func AppendString(b []byte, s string, e Escaping) []byte {
	plain := &asIs[e]
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
