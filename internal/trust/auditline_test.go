package trust

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// referenceAppendPyJSONString is appendPyJSONString one rune at a time,
// without its copying of plain runs: the oracle of
// TestAppendPyJSONStringAgreesWithTheReference.
func referenceAppendPyJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b = append(b, `\"`...)
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[r>>4], "0123456789abcdef"[r&0xf])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return append(b, '"')
}

func checkPyJSONString(t *testing.T, s string) {
	t.Helper()
	prefix := []byte("x")
	if got, want := appendPyJSONString(prefix, s), referenceAppendPyJSONString(prefix, s); string(got) != string(want) {
		t.Fatalf("appendPyJSONString(%q) = %q, the reference writes %q", s, got, want)
	}
}

// TestAppendPyJSONStringAgreesWithTheReference: the same bytes as the
// rune-by-rune writer for every single byte, and for generated strings
// of plain text, escapes, control bytes, DEL, non-ASCII runes and
// invalid UTF-8 (a rune cut short among them).
func TestAppendPyJSONStringAgreesWithTheReference(t *testing.T) {
	for c := range 256 {
		checkPyJSONString(t, string([]byte{byte(c)}))
		checkPyJSONString(t, "ab"+string([]byte{byte(c)})+"cd")
	}
	pieces := []string{"agent-007", "find_entity", `"`, `\`, "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", " ",
		"é", "中文", "\u2028", "\U0001F600", "\xff", "\xe4\xb8", "\xc3", "2026-12-02T13:00:00.000000Z", "*"}
	r := rand.New(rand.NewPCG(3, 19))
	for range 5000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		checkPyJSONString(t, b.String())
	}
}

func FuzzAppendPyJSONString(f *testing.F) {
	for _, s := range []string{"", "agent-007", "a\"b\\c\n\x00\x7f\xffé\U0001F600", "\xe4\xb8x"} {
		f.Add(s)
	}
	f.Fuzz(checkPyJSONString)
}
