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

func TestEnglishKeepsContentWords(t *testing.T) {
	// The reference-parity list drops these; retrieval must not.
	for _, w := range []string{"work", "worked", "new", "make", "made", "like", "keep", "want", "tell", "please", "okay"} {
		if English.Has(w) {
			t.Errorf("%q is a content word", w)
		}
		if _, ok := Normalize(w); !ok {
			t.Errorf("Normalize drops %q", w)
		}
	}
	if !RecognitionParity.Has("work") || !CodexParity.Has("codex") {
		t.Error("the parity lists changed")
	}
}

func TestEdits1(t *testing.T) {
	got := Edits1("kestral")
	for _, want := range []string{"kestrel", "kestal", "ketsral", "kestrall"} {
		if !slices.Contains(got, want) {
			t.Errorf("Edits1(kestral) lacks %q", want)
		}
	}
	for _, bad := range []string{"kestral", "restral"} { // itself; the first letter changed
		if slices.Contains(got, bad) {
			t.Errorf("Edits1(kestral) holds %q", bad)
		}
	}
}
