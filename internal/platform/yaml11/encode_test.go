package yaml11

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// tricky are strings a YAML 1.1 reader would turn into something else, or
// that need quoting for syntax.
var tricky = []string{
	"", " ", "yes", "No", "on", "OFF", "true", "null", "~", "=", "<<", "0.1", "1e5", "012", "0x1F", "1_000",
	"190:20:30", ".inf", ".NaN", "2026-06-08", "2026-06-08 10:00:00", "2026-13-45", "- item", "? key", ": x",
	"key: value", "a #comment", "trailing:", "#hash", "&anchor", "*alias", "!tag", "|block", ">fold", "'q'", "\"dq\"",
	"%pct", "@at", "`tick", "---", "...", "multi\nline", "tab\there", " lead", "trail ", "it's", "ünïcödé",
	"emoji 🎉", "nel\u0085x", "ls\u2028x", "bom\ufeff", "ctrl\x01", "back\\slash", "[flow]", "{map}", "a, b",
	"12:30", "0o17", "+1", "-1.5", "1.", ".5", "Y", "n",
}

func TestEncodeRoundTripsTrickyStrings(t *testing.T) {
	for _, s := range tricky {
		doc := NewMap(1)
		doc.Set("k", s)
		doc.Set(s, "as key")
		out, err := Encode(doc)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("%q: decode of\n%s\n%v", s, out, err)
		}
		m := back.(*Map)
		if got := m.Value("k"); got != s {
			t.Errorf("value %q came back as %#v from\n%s", s, got, out)
		}
		if _, ok := m.Get(s); !ok && s != "k" {
			t.Errorf("key %q lost in\n%s", s, out)
		}
	}
}

func TestEncodeLayoutMatchesPyYAML(t *testing.T) {
	doc := NewMap(4)
	doc.Set("spec_version", "0.1")
	agent := NewMap(2)
	agent.Set("id", "claude-code")
	agent.Set("type", "code-assistant")
	doc.Set("agent", agent)
	ent := NewMap(2)
	ent.Set("name", "Bourdon")
	ent.Set("aliases", []any{"NeuroLayer"})
	doc.Set("known_entities", []any{ent})
	doc.Set("empty", []any{})
	doc.Set("date", Date{2026, time.June, 8})
	want := `spec_version: '0.1'
agent:
  id: claude-code
  type: code-assistant
known_entities:
- name: Bourdon
  aliases:
  - NeuroLayer
empty: []
date: 2026-06-08
`
	got, err := Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// randomValue builds a random document of the value types Decode returns.
func randomValue(r *rand.Rand, depth int) any {
	n := r.IntN(10)
	if depth > 3 {
		n = r.IntN(6)
	}
	switch n {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return int64(r.IntN(2000) - 1000)
	case 3:
		return float64(r.IntN(10000)) / 8
	case 4:
		return tricky[r.IntN(len(tricky))]
	case 5:
		return Date{2000 + r.IntN(50), time.Month(1 + r.IntN(12)), 1 + r.IntN(28)}
	case 6, 7:
		list := make([]any, r.IntN(4))
		for i := range list {
			list[i] = randomValue(r, depth+1)
		}
		return list
	default:
		m := NewMap(4)
		for range r.IntN(4) {
			m.Set(tricky[r.IntN(len(tricky))]+"x", randomValue(r, depth+1))
		}
		return m
	}
}

func TestEncodeDecodeRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		doc := NewMap(3)
		doc.Set("root", randomValue(r, 0))
		out, err := Encode(doc)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, out)
		}
		if diff := cmp.Diff(doc, back, cmpOpts); diff != "" {
			t.Fatalf("case %d round trip (-want +got)\n%s\nYAML:\n%s", i, diff, out)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"a: 1", "- [x, {y: z}]", "a: &x [1]\nb: *x", "k: !!str 5", "x: 2026-06-08T10:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, err := Decode([]byte(src))
		if err != nil {
			return
		}
		// Whatever decodes must encode, and read back the same.
		out, err := Encode(v)
		if err != nil {
			t.Fatalf("decoded %#v but cannot encode it: %v", v, err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("re-decode of\n%s\n%v", out, err)
		}
		if !cmp.Equal(normalizeNaN(v), normalizeNaN(back), cmpOpts) {
			t.Fatalf("round trip changed %#v into %#v via\n%s", v, back, out)
		}
	})
}

func FuzzEncodeString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.ContainsRune(s, utf8.RuneError) {
			return
		}
		doc := NewMap(1)
		doc.Set("k", s)
		out, err := Encode(doc)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Decode(out)
		if err != nil {
			t.Fatalf("%q: %v\n%s", s, err, out)
		}
		if got := back.(*Map).Value("k"); got != s {
			t.Fatalf("%q came back as %#v via\n%s", s, got, out)
		}
	})
}

// normalizeNaN replaces NaN floats, which never compare equal, with a
// marker.
func normalizeNaN(v any) any {
	switch x := v.(type) {
	case float64:
		if x != x {
			return "NaN"
		}
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = normalizeNaN(item)
		}
		return out
	case *Map:
		m := NewMap(x.Len())
		for _, e := range x.Entries() {
			m.Set(e.Key, normalizeNaN(e.Value))
		}
		return m
	}
	return v
}
