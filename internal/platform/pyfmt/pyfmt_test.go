package pyfmt

import (
	"testing"
	"unicode"
)

func TestRepr(t *testing.T) {
	for _, c := range []struct {
		in   any
		want string
	}{
		{"codex", `'codex'`},
		{"it's", `"it's"`},
		{`both ' and "`, `'both \' and "'`},
		{"tab\tnew\nline\x01", `'tab\tnew\nline\x01'`},
		{nil, "None"},
		{true, "True"},
		{int64(3), "3"},
		{1.0, "1.0"},
		{[]any{"a", int64(1), nil}, `['a', 1, None]`},
		{map[string]any{"type": "concept", "a": false}, `{'a': False, 'type': 'concept'}`},
	} {
		if got := Repr(c.in); got != c.want {
			t.Errorf("Repr(%#v) = %s, want %s", c.in, got, c.want)
		}
	}
}

func TestIsSpaceMatchesGoPlusSeparators(t *testing.T) {
	for r := rune(0); r < 0x3100; r++ {
		want := unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
		if IsSpace(r) != want {
			t.Errorf("IsSpace(%U) = %v, want %v", r, !want, want)
		}
	}
}
