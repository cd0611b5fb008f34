package commit

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// encodingJSON is how digests were first defined: the value turned into Go
// maps and written by encoding/json with HTML escaping off.
func encodingJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(goValue(v))
	return bytes.TrimRight(buf.Bytes(), "\n"), err
}

func goValue(v any) any {
	switch x := v.(type) {
	case *yaml11.Map:
		m := make(map[string]any, x.Len())
		for _, e := range x.Entries() {
			m[e.Key] = goValue(e.Value)
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = goValue(item)
		}
		return out
	case yaml11.Date:
		return x.String()
	case yaml11.Timestamp:
		return x.ISOFormat()
	}
	return v
}

var canonStrings = []string{
	"", "plain", `quote " and \ backslash`, "<html> & co", "tab\there\nnewline\r\x00\x01\x1f\x7f\b\f",
	"ünïcödé ✓ 𝄞", "\u2028line\u2029para", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate", "emoji 🙂",
}

func TestCanonicalJSONMatchesEncodingJSON(t *testing.T) {
	inner := yaml11.NewMap(3)
	inner.Set("z", int64(-7))
	inner.Set("a", []any{1.5, 1e21, 1e-7, 0.000001, 123456789.0, -0.0, float64(1 << 53), true, false, nil})
	inner.Set("é", yaml11.Date{Year: 2026, Month: time.June, Day: 8})
	inner.Set("ts", yaml11.Timestamp{Time: time.Date(2026, 6, 8, 10, 0, 0, 5000, time.UTC), HasZone: true})
	n, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	inner.Set("big", n)
	inner.Set("empty", yaml11.NewMap(0))
	inner.Set("list", []any{})
	m := yaml11.NewMap(0)
	for i, s := range canonStrings {
		m.Set(s, []any{s, int64(i), inner})
	}
	want, err := encodingJSON(m)
	if err != nil {
		t.Fatal(err)
	}
	if got := canonicalJSON(m); !bytes.Equal(got, want) {
		t.Errorf("canonicalJSON differs from encoding/json:\n got %s\nwant %s", got, want)
	}
	// Non-finite floats get a digest of their own instead of an error.
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(canonicalJSON([]any{f})); got == "[]" || got == "" {
			t.Errorf("%v: %q", f, got)
		}
	}
	a, b := yaml11.NewMap(1), yaml11.NewMap(1)
	a.Set("x", math.NaN())
	b.Set("x", math.Inf(1))
	if Digest(a) == Digest(b) {
		t.Error("manifests with different non-finite floats must have different digests")
	}
}

func FuzzCanonicalJSON(f *testing.F) {
	for _, s := range canonStrings {
		f.Add(s, 0.5)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		m := yaml11.NewMap(2)
		m.Set(s, x)
		m.Set("k", s)
		want, err := encodingJSON(m)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalJSON(m); !bytes.Equal(got, want) {
			t.Fatalf("%q %v:\n got %s\nwant %s", s, x, got, want)
		}
	})
}
