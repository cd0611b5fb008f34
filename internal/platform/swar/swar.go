// Package swar tests eight bytes at once, packed in a uint64 ("SIMD within
// a register"): the scanners of JSON strings and of white space read text
// a word at a time while no byte of it needs a closer look.
//
// The tests are exact about presence: each reports whether some byte of
// the word is one it looks for, though the byte whose high bit it sets
// may not be that one (a borrow can flag the bytes above it).
package swar

// Byte patterns: a byte repeated in each of a word's eight bytes.
const (
	EachByte = 0x0101010101010101
	HighBits = 0x8080808080808080
)

// Word returns the first eight bytes of s (len(s) >= 8) as a
// little-endian word, which the compiler reads as one load.
func Word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// ZeroByte has the high bit of some byte set when one of x's bytes is
// zero, and only then. ZeroByte(x ^ c*EachByte) finds byte c.
func ZeroByte(x uint64) uint64 { return (x - EachByte) &^ x & HighBits }

// Below has the high bit of some byte set when one of x's bytes is below
// n (n <= 0x80), and only then as long as no byte of x is 0x80 or more;
// callers that care test x&HighBits beside it.
func Below(x uint64, n byte) uint64 { return (x - uint64(n)*EachByte) &^ x & HighBits }
