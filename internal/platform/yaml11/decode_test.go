package yaml11

import (
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestResolvePlainScalars(t *testing.T) {
	utc := func(y int, mo time.Month, d, h, mi, s int) time.Time {
		return time.Date(y, mo, d, h, mi, s, 0, time.UTC)
	}
	cases := []struct {
		in   string
		want any
	}{
		{"hello", "hello"},
		{"", nil},
		{"~", nil},
		{"null", nil},
		{"Null", nil},
		{"yes", true},
		{"No", false},
		{"on", true},
		{"OFF", false},
		{"y", "y"},
		{"nope", "nope"},
		{"0.1", 0.1},
		{"1e5", "1e5"},
		{"1.5e+3", 1500.0},
		{".inf", Inf()},
		{"12", int64(12)},
		{"-0x1F", int64(-31)},
		{"0o17", "0o17"},
		{"017", int64(15)},
		{"0b101", int64(5)},
		{"1_000", int64(1000)},
		{"190:20:30", int64(685230)},
		{"123456789012345678901234567890", bigInt("123456789012345678901234567890")},
		{"2026-06-08", Date{2026, time.June, 8}},
		{"2026-13-45", "2026-13-45"},
		{"2026-02-30", "2026-02-30"},
		{"2026-06-08T10:00:00Z", Timestamp{Time: utc(2026, 6, 8, 10, 0, 0), HasZone: true}},
		{"2026-06-08 10:00:00", Timestamp{Time: utc(2026, 6, 8, 10, 0, 0)}},
		{"0.1.0", "0.1.0"},
		{"v1.2", "v1.2"},
		{"-", "-"},
		{"+", "+"},
		{".", "."},
	}
	for _, c := range cases {
		got := Resolve(c.in)
		if diff := cmp.Diff(c.want, got, cmpOpts); diff != "" {
			t.Errorf("Resolve(%q): %s", c.in, diff)
		}
	}
}

func Inf() float64 { return 1 / zero }

var zero = 0.0

func bigInt(s string) *big.Int {
	n, _ := new(big.Int).SetString(s, 10)
	return n
}

// cmpOpts compares decoded values; it refers to itself for nested maps,
// hence the init function.
var cmpOpts cmp.Options

func init() {
	cmpOpts = cmp.Options{
		cmp.Comparer(func(a, b *big.Int) bool { return a.Cmp(b) == 0 }),
		cmp.Comparer(func(a, b Timestamp) bool { return a.HasZone == b.HasZone && a.Time.Equal(b.Time) }),
		cmp.Comparer(func(a, b *Map) bool { return cmp.Equal(a.Entries(), b.Entries(), cmpOpts) }),
	}
}

func TestDecodeDocument(t *testing.T) {
	src := `
spec_version: '0.1'
agent: {id: codex, type: code-assistant}
flag: yes
quoted: 'yes'
date: 2026-06-08
block: |
  two
  lines
base: &b {x: 1, y: 2}
derived:
  <<: *b
  y: 3
`
	v, err := Decode([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := v.(*Map)
	var keys []string
	for _, e := range m.Entries() {
		keys = append(keys, e.Key)
	}
	if got, want := strings.Join(keys, ","), "spec_version,agent,flag,quoted,date,block,base,derived"; got != want {
		t.Errorf("keys = %s, want %s", got, want)
	}
	checks := map[string]any{
		"spec_version": "0.1",
		"flag":         true,
		"quoted":       "yes",
		"date":         Date{2026, time.June, 8},
		"block":        "two\nlines\n",
	}
	for k, want := range checks {
		if diff := cmp.Diff(want, m.Value(k), cmpOpts); diff != "" {
			t.Errorf("%s: %s", k, diff)
		}
	}
	d := m.Value("derived").(*Map)
	if d.Value("x") != int64(1) || d.Value("y") != int64(3) {
		t.Errorf("merge key: got x=%v y=%v, want 1, 3", d.Value("x"), d.Value("y"))
	}
}

func TestDecodeErrorsNameTheLine(t *testing.T) {
	cases := map[string]string{
		"a: 1\nb: [1, 2\n":      "line",
		"a: 1\n---\nb: 2\n":     "single document",
		"a: !!python/name:os 1": "unsupported tag",
		"a: !!int abc":          "cannot read",
	}
	for src, want := range cases {
		_, err := Decode([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%q) error = %v, want it to mention %q", src, err, want)
		}
	}
}

func TestDecodeRefusesDuplicateKeys(t *testing.T) {
	cases := []struct {
		src  string
		line int
		key  string
	}{
		{"agent:\n  id: claude-code\n  type: code-assistant\n  id: codex\n", 4, `"id"`},
		{"a: 1\nb: 2\na: 3\n", 3, `"a"`},
		{"a: {x: 1, x: 2}\n", 1, `"x"`},
		{"- {k: 1}\n- {k: 1, k: 2}\n", 2, `"k"`},
		{"1: a\n'1': b\n", 2, `"1"`}, // one key once stored
		{"yes: a\nTrue: b\n", 2, `"True"`},
	}
	for _, c := range cases {
		_, err := Decode([]byte(c.src))
		var se *SyntaxError
		if !errors.As(err, &se) || se.Line != c.line || !strings.Contains(se.Msg, "duplicate key "+c.key) {
			t.Errorf("Decode(%q) = %v, want a duplicate key %s on line %d", c.src, err, c.key, c.line)
		}
	}
	// A merge key's mapping is overridden, not duplicated.
	if _, err := Decode([]byte("base: &b {x: 1}\nd:\n  <<: *b\n  x: 2\n")); err != nil {
		t.Errorf("merge then override: %v", err)
	}
}

func TestDecodeRefusesAliasBombs(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 12; i++ {
		prev := "*a" + itoa(i-1)
		b.WriteString("a" + itoa(i) + ": &a" + itoa(i) + " [" + strings.Repeat(prev+", ", 9) + prev + "]\n")
	}
	_, err := Decode([]byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "too many values") {
		t.Fatalf("alias bomb: err = %v", err)
	}
}

func itoa(i int) string { return Str(int64(i)) }

func TestDecodeEmpty(t *testing.T) {
	for _, src := range []string{"", "\n", "# only a comment\n"} {
		v, err := Decode([]byte(src))
		if err != nil || v != nil {
			t.Errorf("Decode(%q) = %v, %v; want nil, nil", src, v, err)
		}
	}
}

func TestStrMatchesPython(t *testing.T) {
	cases := []struct {
		in   any
		want string
	}{
		{nil, "None"},
		{true, "True"},
		{int64(-3), "-3"},
		{0.1, "0.1"},
		{1.0, "1.0"},
		{1e16, "1e+16"},
		{123456789.5, "123456789.5"},
		{0.00001, "1e-05"},
		{Date{2026, 6, 8}, "2026-06-08"},
		{Timestamp{Time: time.Date(2026, 6, 8, 10, 0, 0, 0, time.UTC), HasZone: true}, "2026-06-08 10:00:00+00:00"},
		{Timestamp{Time: time.Date(2026, 6, 8, 10, 0, 0, 500000000, time.FixedZone("", -5*3600)), HasZone: true}, "2026-06-08 10:00:00.500000-05:00"},
	}
	for _, c := range cases {
		if got := Str(c.in); got != c.want {
			t.Errorf("Str(%#v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSyntaxErrorLinesAreOneBased(t *testing.T) {
	cases := map[string]int{
		"a: 1\nb: [x\n":     2,
		"a: 1\n  b: 2\n":    2,
		"a:\n  - x\n - y\n": 3,
		"a: 1\nb: \"open\n": 2,
	}
	for src, want := range cases {
		_, err := Decode([]byte(src))
		se, ok := err.(*SyntaxError)
		if !ok || se.Line < want || se.Line > want+1 {
			t.Errorf("Decode(%q) = %v, want an error near line %d", src, err, want)
		}
	}
}
