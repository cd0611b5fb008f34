package swar

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWordIsLittleEndian checks the byte order of Word.
func TestWordIsLittleEndian(t *testing.T) {
	if got := Word("\x01\x02\x03\x04\x05\x06\x07\x08tail"); got != 0x0807060504030201 {
		t.Fatalf("Word = %#x", got)
	}
}

// TestPresenceIsExact holds ZeroByte and Below against a loop over the
// bytes: words of one odd byte among others at every place, and random
// words mixing the bytes next to the edges.
func TestPresenceIsExact(t *testing.T) {
	var words []string
	for c := range 256 {
		for at := range 8 {
			w := []byte(strings.Repeat("a", 8))
			w[at] = byte(c)
			words = append(words, string(w))
		}
	}
	edges := []byte{0x00, 0x01, 0x02, 0x1f, 0x20, 0x21, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 100000 {
		w := make([]byte, 8)
		for i := range w {
			if rng.IntN(3) == 0 {
				w[i] = byte(rng.IntN(256))
			} else {
				w[i] = edges[rng.IntN(len(edges))]
			}
		}
		words = append(words, string(w))
	}
	any := func(w string, f func(byte) bool) bool {
		for i := range len(w) {
			if f(w[i]) {
				return true
			}
		}
		return false
	}
	for _, w := range words {
		x := Word(w)
		if got, want := ZeroByte(x) != 0, any(w, func(c byte) bool { return c == 0 }); got != want {
			t.Fatalf("ZeroByte(% x) flags %v, want %v", w, got, want)
		}
		if any(w, func(c byte) bool { return c >= 0x80 }) {
			continue // Below promises nothing then
		}
		for _, n := range []byte{0x01, 0x20, 0x7f, 0x80} {
			if got, want := Below(x, n) != 0, any(w, func(c byte) bool { return c < n }); got != want {
				t.Fatalf("Below(% x, %#x) flags %v, want %v", w, n, got, want)
			}
		}
	}
}
