package analyze

import (
	"slices"
	"testing"
)

func TestTokens(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"?!...---///", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"repos/bourdon/core_l6-server.py", []string{"repos", "bourdon", "core", "l6", "server", "py"}},
		{"ABC123def", []string{"abc123def"}},
		{"tab\there\nnewline", []string{"tab", "here", "newline"}},
		{"Café au lait", []string{"caf", "au", "lait"}},
		{"naïve", []string{"na", "ve"}},
		{"日本語 test 日本", []string{"test"}},
		{"x\u00a0y", []string{"x", "y"}},
		{"\xff\xfeok", []string{"ok"}}, // invalid UTF-8 bytes separate too
		{"it's ILTT's", []string{"it", "s", "iltt", "s"}},
	} {
		if got := Tokens(c.in); !slices.Equal(got, c.want) {
			t.Errorf("Tokens(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
