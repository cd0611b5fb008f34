// Package jsontext writes JSON string literals and numbers exactly as
// encoding/json does, for the encoders that write JSON by hand (a tool's
// payload, the canonical JSON a commit digests) or measure it (docs
// search's token budget) and must agree with it byte for byte.
package jsontext

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/platform/swar"
)

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

// plainRun returns how many bytes at the start of s are written as they
// are under e. It reads eight bytes at a time while none of them needs a
// look (nearly all text), then byte by byte.
func plainRun(s string, e Escaping) int {
	i := 0
	if e == HTML {
		for i+8 <= len(s) && !mayEscapeHTML(swar.Word(s[i:])) {
			i += 8
		}
	} else {
		for i+8 <= len(s) && !mayEscapePlain(swar.Word(s[i:])) {
			i += 8
		}
	}
	plain := &asIs[e]
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// mayEscapePlain reports whether any of the eight bytes packed in x is one
// asIs[Plain] does not pass: a control character, a byte of 0x80 or more,
// the quote or the backslash. It is exact (package swar).
func mayEscapePlain(x uint64) bool {
	return (x&swar.HighBits | swar.Below(x, 0x20) | swar.ZeroByte(x^'\\'*swar.EachByte) | swar.ZeroByte(x^'"'*swar.EachByte)) != 0
}

// mayEscapeHTML is mayEscapePlain for asIs[HTML], which also stops at <,
// > and &. The quote (0x22) and & (0x26) differ in bit 2 only, < (0x3c)
// and > (0x3e) in bit 1 only: with that bit set, one comparison finds
// either.
func mayEscapeHTML(x uint64) bool {
	return (x&swar.HighBits | swar.Below(x, 0x20) | swar.ZeroByte(x^'\\'*swar.EachByte) |
		swar.ZeroByte((x|0x04*swar.EachByte)^'&'*swar.EachByte) | swar.ZeroByte((x|0x02*swar.EachByte)^'>'*swar.EachByte)) != 0
}

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
			// A run of plain bytes is passed over a word at a time; a
			// non-ASCII rune is not, so text of them is read as before.
			i += plainRun(s[i:], e)
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

// maxEscape is the most bytes AppendString writes for one byte of s: six,
// for \u00XX and for \ufffd in place of a byte of invalid UTF-8.
const maxEscape = 6

// Len returns the length of the literal AppendString writes for s under
// e, len(AppendString(nil, s, e)), without allocating.
func Len(s string, e Escaping) int {
	i := plainRun(s, e)
	if i == len(s) {
		return len(s) + 2 // the quotes
	}
	// From the first byte that is not written as it is, the rest is
	// written in chunks into a buffer on the stack, each cut at a byte
	// where AppendString would start decoding a rune anyway and short
	// enough that its escapes fit.
	var buf [512]byte
	const chunk = (len(buf) - 2) / maxEscape
	n := i + 2
	for i < len(s) {
		end := chunkEnd(s, i, chunk)
		n += len(AppendString(buf[:0], s[i:end], e)) - 2
		i = end
	}
	return n
}

// chunkEnd returns where a chunk of s from start, of at most size bytes
// (size >= utf8.UTFMax), ends: at start+size, or before it at the first
// byte of a rune that would be cut there. The first byte of a rune is
// always where AppendString decodes one; so is a byte that no rune within
// utf8.UTFMax-1 bytes before it holds.
func chunkEnd(s string, start, size int) int {
	end := start + size
	if end >= len(s) {
		return len(s)
	}
	for i := end; i > end-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return end
}

// ErrNotFinite is AppendFloat's answer for NaN and the infinities, which
// encoding/json refuses to encode.
var ErrNotFinite = errors.New("jsontext: NaN or an infinity has no JSON number")

// AppendFloat appends f as encoding/json writes a float64: the shortest
// digits that read back as f, in exponent form below 1e-6 and from 1e21
// up, the exponent without leading zeros. For NaN and the infinities it
// appends nothing and returns ErrNotFinite.
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, ErrNotFinite
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1] // 1e-07 is written 1e-7
		b = b[:n-1]
	}
	return b, nil
}
