package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
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
