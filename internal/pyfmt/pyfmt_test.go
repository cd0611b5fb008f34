package pyfmt

import "testing"

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
