package jsontext

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
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
