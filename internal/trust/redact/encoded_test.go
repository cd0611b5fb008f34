package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestEncodedCredentials checks the encoded_credential pattern: a
// credential in base64 or percent-encoded is cut out of prose and flags a
// field; encoded text without one is left alone.
func TestEncodedCredentials(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3", 12)
	std := base64.StdEncoding.EncodeToString
	raw := base64.RawURLEncoding.EncodeToString
	secrets := []struct{ name, text, encoded string }{
		{"padded standard base64 of a token", "CI_TOKEN_B64 is " + std([]byte(ghp)) + " today", std([]byte(ghp))},
		{"unpadded URL-safe base64 of JSON with a password",
			"data: " + raw([]byte(`{"user":"app","password":"S3cr3t-Pa55w0rd!"}`)), raw([]byte(`{"user":"app","password":"S3cr3t-Pa55w0rd!"}`))},
		{"a Docker config's auth, user:password", `{"auths":{"r.io":{"auth":"` + std([]byte("acme:k9Fz2mQp7xWb")) + `"}}}`, std([]byte("acme:k9Fz2mQp7xWb"))},
		{"base64 in base64", "blob " + std([]byte("token: "+std([]byte(ghp)))), std([]byte("token: " + std([]byte(ghp))))},
		{"a user:password with a line break after it", std([]byte("deploy:Xy7-kkQ2-pLm9\n")), std([]byte("deploy:Xy7-kkQ2-pLm9\n"))},
		{"a percent-encoded token in a URL", "redirect /cb?next=%2Fhome&k=ghp%5F" + ghp[4:] + " failed", "/cb?next=%2Fhome&k=ghp%5F" + ghp[4:]},
	}
	for _, c := range secrets {
		if !Flagged(c.text) {
			t.Errorf("%s: %q is not flagged", c.name, c.text)
		}
		got := Span(c.text)
		if strings.Contains(got, c.encoded) || !strings.Contains(got, Sentinel) {
			t.Errorf("%s: Span(%q) = %q, want the encoded credential replaced", c.name, c.text, got)
		}
		if again := Span(got); again != got {
			t.Errorf("%s: Span is not idempotent: %q, then %q", c.name, got, again)
		}
	}

	digest := []byte{0x9f, 0x86, 0xd0, 0x81, 0x88, 0x4c, 0x7d, 0x65, 0x9a, 0x2f, 0xea, 0xa0, 0xc5, 0x5a, 0xd0, 0x15,
		0xa3, 0xbf, 0x4f, 0x1b, 0x2b, 0x0b, 0x82, 0x2c, 0xd1, 0x5d, 0x6c, 0x15, 0xb0, 0xf0, 0x0a, 0x08}
	benign := []struct{ name, text string }{
		{"base64 of prose", "payload " + std([]byte("Hello there, this is only a greeting."))},
		{"base64 of a URL", "next=" + std([]byte("https://example.com/some/long/path"))},
		{"base64 of a digest", "sha256-" + std(digest)},
		{"a hex digest", "commit 3f786850e387550fdab836ed7e6dc881de23001b"},
		{"a long path", "see internal/recall/deeper/testdata/memoryset for it"},
		{"a long identifier", "call get_deeper_context_with_agents_filter first"},
		{"two alphabets in one run", "a+b/c-d_eAAAAAAAAAAAAAAAA"},
		{"a percent sign", "50% off, 100%25 sure, a%zz b"},
		{"a percent-encoded path", "GET /docs/getting%20started/first%20steps.md"},
		{"a time in base64", std([]byte("12:30"))},
	}
	for _, c := range benign {
		if Flagged(c.text) {
			t.Errorf("%s: %q is flagged", c.name, c.text)
		}
		if got := Span(c.text); got != c.text {
			t.Errorf("%s: Span(%q) = %q, want it unchanged", c.name, c.text, got)
		}
	}
}

// TestEncodedRunsAreBounded checks that a run longer than encodedMaxRun is
// decoded only up to it: a credential inside the bound is found, one
// beyond it is not, and neither takes long.
func TestEncodedRunsAreBounded(t *testing.T) {
	filler := strings.Repeat("lorem ipsum ", encodedMaxRun/12)
	ghp := "ghp_" + strings.Repeat("aB3", 12)
	early := base64.StdEncoding.EncodeToString([]byte(ghp + " " + filler))
	late := base64.StdEncoding.EncodeToString([]byte(filler + " " + ghp))
	if !Flagged(early) {
		t.Error("a token at the start of a long base64 run is not flagged")
	}
	if Flagged(late) {
		t.Error("a token past encodedMaxRun characters of a run was decoded")
	}
}

func TestIsUserPassword(t *testing.T) {
	for text, want := range map[string]bool{
		"acme:k9Fz2mQp":        true,
		"a.b@c.io:pw-123456":   true,
		"acme:short":           false, // 5 characters
		"https://example.com":  false,
		"two words:password12": false,
		"user:pass word here":  false,
		":nopassworduser":      false,
		"nocolonhere":          false,
	} {
		if got := isUserPassword(text); got != want {
			t.Errorf("isUserPassword(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestEscapedAndWideCredentials: hexadecimal, \u and \x escapes, HTML
// character references and base64 of UTF-16 text are decoded too; text
// that merely uses them is left alone.
func TestEscapedAndWideCredentials(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3xY9", 6)
	esc := func(format string) string {
		var b strings.Builder
		for _, c := range []byte(ghp[:4]) {
			fmt.Fprintf(&b, format, c)
		}
		return b.String() + ghp[4:]
	}
	for name, text := range map[string]string{
		"hex":          "token in hex: " + hex.EncodeToString([]byte(ghp)),
		"JSON escapes": `{"t":"` + esc(`\u%04x`) + `"}`,
		"\\x escapes":  `t = "` + esc(`\x%02x`) + `"`,
		"HTML, hex":    "<code>" + esc("&#x%x;") + "</code>",
		"HTML, dec":    "<code>" + esc("&#%d;") + "</code>",
		"UTF-16":       "powershell -EncodedCommand " + rt2UTF16B64("$env:GH_TOKEN='"+ghp+"'"),
	} {
		if !Flagged(text) || Span(text) == text {
			t.Errorf("%s: %q is not caught (Span %q)", name, text, Span(text))
		}
	}
	for _, text := range []string{
		"sha1 " + hex.EncodeToString([]byte{0x9f, 0x86, 0xd0, 0x81, 0x88, 0x4c, 0x7d, 0x65, 0x9a, 0x2f, 0xea, 0xa0, 0xc5, 0x5a, 0xd0, 0x15, 0xa3, 0xbf, 0x4f, 0x1b}),
		"hex of prose: " + hex.EncodeToString([]byte("hello there, general")),
		`{"city":"S\u00e3o Paulo","note":"caf\u00e9"}`,
		"&#169; 2026 Acme &amp; Co",
		"powershell -EncodedCommand " + rt2UTF16B64("Get-Process | Sort-Object CPU"),
	} {
		if Flagged(text) || Span(text) != text {
			t.Errorf("%q is flagged or changed (Span %q)", text, Span(text))
		}
	}
}

// TestDisguisedTokens: a token of a well-known prefix in ROT13 or written
// backwards is cut out; words and identifiers that start or end as such
// a token would, but undo to none, are left alone.
func TestDisguisedTokens(t *testing.T) {
	ghp := "ghp_" + strings.Repeat("aB3xY9", 6)
	live := "sk_live_51" + strings.Repeat("Qw8Er7Ty6", 11)
	akia := "AKIA" + "Z7QW3ER5TY6UI8OP"
	xoxb := "xoxb-123456789012-1234567890123-" + strings.Repeat("aBcD", 6)
	for name, text := range map[string]string{
		"ROT13 ghp":        "rot13'd: " + rot13(ghp),
		"ROT13 sk_live_":   "k = " + rot13(live),
		"ROT13 xoxb":       rot13(xoxb) + " (rot13)",
		"reversed ghp":     "reversed so it's safe: " + reversed(ghp),
		"reversed sk_live": "backwards: " + reversed(live) + ".",
		"reversed AKIA":    "id " + reversed(akia),
		"reversed xoxb":    `"` + reversed(xoxb) + `"`,
	} {
		if !Flagged(text) {
			t.Errorf("%s: %q is not flagged", name, text)
		}
		if got := Span(text); !strings.Contains(got, Sentinel) || strings.Contains(got, "aB3xY9") ||
			strings.Contains(got, "9Yx3Ba") || strings.Contains(got, rot13("aB3xY9")) || strings.Contains(got, "Ty6") ||
			strings.Contains(got, "6yT") || strings.Contains(got, rot13("Ty6")) || strings.Contains(got, "aBcD") ||
			strings.Contains(got, "DcBa") || strings.Contains(got, rot13("aBcD")) || strings.Contains(got, "Z7QW") {
			t.Errorf("%s: Span(%q) = %q, want the run cut out", name, text, got)
		}
	}
	for _, text := range []string{
		"tuc_" + strings.Repeat("ab", 10), // ghp_ and too short a body
		"fx-zber",
		"fxvyy_vf_n_fxvyy_naq_gung_vf_vg", // skill_is_a_skill...: sk but not sk- or sk_live_
		"internal_processing_steps_and_helpers",
		"the_quick_brown_fox_jumps_over_the_lazy_dogs",
		"xoxoxoxoxoxoxoxoxoxoxoxoxox",
		"NXVNsomethingthatisnotakeyatall",
		"AKIA_documentation_for_access_keys_AIKA",
		reversed("ghp_abc123jihgfedcba"), // too short a body
		"Documentation_for_all_of_the_fixtures_and_their_helpers",
	} {
		if got := Span(text); got != text {
			t.Errorf("Span(%q) = %q, want it unchanged", text, got)
		}
		if Flagged(text) {
			t.Errorf("%q is flagged", text)
		}
	}
}
