package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// viaEncodingJSON is what encoding/json writes for s under e: the
// oracle of AppendString.
func viaEncodingJSON(t testing.TB, s string, e Escaping) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(e == HTML)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// pieces are the kinds of text AppendString treats apart.
var pieces = []string{
	"a", "Z", " ", "\"", "\\", "/", "<", ">", "&", "\b", "\f", "\n", "\r", "\t",
	"\x00", "\x1f", "\x7f", "é", "日本", "\u2028", "\u2029", "\u2027", "😀",
	"\xff", "\xc3", "\xe2\x80", "\xed\xa0\x80", "\ufffd", "\u00a0",
}

func TestAppendStringIsEncodingJSONs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []string{""}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for range 5000 {
		var s []byte
		for range rng.IntN(12) {
			s = append(s, pieces[rng.IntN(len(pieces))]...)
		}
		cases = append(cases, string(s))
	}
	for _, e := range []Escaping{Plain, HTML} {
		for _, s := range cases {
			if got, want := AppendString([]byte("prefix"), s, e), append([]byte("prefix"), viaEncodingJSON(t, s, e)...); !bytes.Equal(got, want) {
				t.Fatalf("AppendString(%q, %d) = %s, encoding/json %s", s, e, got, want)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, p := range pieces {
		f.Add(p, true)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		e := Plain
		if html {
			e = HTML
		}
		if got, want := AppendString(nil, s, e), viaEncodingJSON(t, s, e); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q, %d) = %s, encoding/json %s", s, e, got, want)
		}
	})
}

// lenCases are strings of every kind Len measures apart: the plain ones,
// every byte alone, the edges of its chunks (runes and escapes astride
// them) and random mixtures of pieces, short and long.
func lenCases() []string {
	cases := []string{"", "plain ascii text", strings.Repeat("a", 1000)}
	for c := range 256 {
		cases = append(cases, string([]byte{byte(c)}), "x"+string([]byte{byte(c)})+"y")
	}
	for k := range 200 {
		for _, p := range []string{"😀", "é", "\u2028", "\xf0\x9f\x98", "\xff\x80\x80", "<", "\x01"} {
			cases = append(cases, "\""+strings.Repeat("a", k)+p+strings.Repeat("ß", k%7)+p)
		}
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		var s []byte
		for range rng.IntN(12) + rng.IntN(2)*rng.IntN(400) {
			s = append(s, pieces[rng.IntN(len(pieces))]...)
		}
		cases = append(cases, string(s))
	}
	return cases
}

func TestLenIsAppendStrings(t *testing.T) {
	for _, e := range []Escaping{Plain, HTML} {
		for _, s := range lenCases() {
			if got, want := Len(s, e), len(AppendString(nil, s, e)); got != want {
				t.Fatalf("Len(%q, %d) = %d, AppendString writes %d bytes", s, e, got, want)
			}
		}
	}
	long := strings.Repeat("<é\u2028\xff\"", 100)
	if n := testing.AllocsPerRun(10, func() { Len(long, HTML) }); n != 0 {
		t.Errorf("Len allocates %v times", n)
	}
}

func FuzzLen(f *testing.F) {
	for _, p := range pieces {
		f.Add(p, true)
	}
	f.Add(strings.Repeat("a", 84)+"😀\n", false)
	f.Fuzz(func(t *testing.T, s string, html bool) {
		e := Plain
		if html {
			e = HTML
		}
		if got, want := Len(s, e), len(viaEncodingJSON(t, s, e)); got != want {
			t.Fatalf("Len(%q, %d) = %d, encoding/json writes %d bytes", s, e, got, want)
		}
	})
}

func TestAppendFloatIsEncodingJSONs(t *testing.T) {
	cases := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 1e20, 1e21, -1e21, 1e-6, 1e-7, -1e-7, 123456789e-15,
		1.5e300, 5e-324, math.MaxFloat64, math.SmallestNonzeroFloat64, 0.000001234, 999999999999999999999,
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 10000 {
		cases = append(cases,
			rng.Float64(), rng.NormFloat64()*1e6, math.Round(rng.Float64()*1e12)/1e6,
			math.Float64frombits(rng.Uint64()), math.Ldexp(rng.Float64(), rng.IntN(200)-100))
	}
	for _, f := range cases {
		want, err := json.Marshal(f)
		got, gerr := AppendFloat([]byte("prefix"), f)
		if err != nil {
			if !errors.Is(gerr, ErrNotFinite) || string(got) != "prefix" {
				t.Fatalf("AppendFloat(%v) = %q, %v; encoding/json refuses it", f, got, gerr)
			}
			continue
		}
		if gerr != nil || string(got) != "prefix"+string(want) {
			t.Fatalf("AppendFloat(%v) = %q, %v; encoding/json writes %s", f, got, gerr, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := AppendFloat(nil, f); !errors.Is(err, ErrNotFinite) {
			t.Errorf("AppendFloat(%v): %v, want ErrNotFinite", f, err)
		}
	}
}

// TestMayEscapeIsAsIs holds the eight-bytes-at-a-time tests against the
// byte table it stands for: on words of one odd byte among plain ones, at
// each place, and on random words mixing the bytes next to every edge.
func TestMayEscapeIsAsIs(t *testing.T) {
	want := func(w [8]byte, e Escaping) bool {
		for _, c := range w {
			if !asIs[e][c] {
				return true
			}
		}
		return false
	}
	pack := func(w [8]byte) (x uint64) {
		for i, c := range w {
			x |= uint64(c) << (8 * i)
		}
		return x
	}
	var words [][8]byte
	for c := range 256 {
		for at := range 8 {
			w := [8]byte{'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'}
			w[at] = byte(c)
			words = append(words, w)
		}
	}
	edges := []byte{0x00, 0x01, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x25, 0x26, 0x27, 0x3b, 0x3c, 0x3d, 0x3e, 0x3f, 0x5b, 0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 200000 {
		var w [8]byte
		for i := range w {
			if rng.IntN(3) == 0 {
				w[i] = byte(rng.IntN(256))
			} else {
				w[i] = edges[rng.IntN(len(edges))]
			}
		}
		words = append(words, w)
	}
	for _, w := range words {
		if got := mayEscapePlain(pack(w)); got != want(w, Plain) {
			t.Fatalf("mayEscapePlain(% x) = %v, the byte table says %v", w, got, !got)
		}
		if got := mayEscapeHTML(pack(w)); got != want(w, HTML) {
			t.Fatalf("mayEscapeHTML(% x) = %v, the byte table says %v", w, got, !got)
		}
	}
}

// TestAppendStringOddByteAnywhere puts each byte at each place of a
// string long enough for several words, so that the word-at-a-time scan
// meets it first, last and astride.
func TestAppendStringOddByteAnywhere(t *testing.T) {
	for _, e := range []Escaping{Plain, HTML} {
		for c := range 256 {
			for at := range 20 {
				b := []byte(strings.Repeat("abcdefgh", 3))
				b[at] = byte(c)
				s := string(b)
				if got, want := AppendString(nil, s, e), viaEncodingJSON(t, s, e); !bytes.Equal(got, want) {
					t.Fatalf("AppendString(%q, %d) = %s, encoding/json %s", s, e, got, want)
				}
				if got, want := Len(s, e), len(viaEncodingJSON(t, s, e)); got != want {
					t.Fatalf("Len(%q, %d) = %d, want %d", s, e, got, want)
				}
			}
		}
	}
}

// BenchmarkAppendString writes a summary-like string of plain text, the
// common case, one with an escape near its end, and one of Japanese text
// (every rune read apart).
func BenchmarkAppendString(b *testing.B) {
	for _, s := range []string{
		"What agent 7 knows about entity 2393: cedar and vesper work, and how the peers answer.",
		"What agent 7 knows about entity 2393: cedar and vesper work, and how peers answer <scope>.",
		"エージェント7はエンティティ2393について、ピアがどう答えるかを知っている。",
	} {
		b.Run(fmt.Sprintf("%d-bytes", len(s)), func(b *testing.B) {
			buf := make([]byte, 0, 256)
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				buf = AppendString(buf[:0], s, HTML)
			}
		})
	}
}
