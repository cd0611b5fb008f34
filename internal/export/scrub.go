package export

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The reference's exporters scrub text themselves before it reaches a
// manifest, with four slightly different batteries (named A to D in
// docs/exporters.md). They are reproduced here for byte parity; the runner
// then applies the server's broader battery (internal/trust/redact) to every
// string as well, so a secret the reference would let through never
// reaches our manifests either.
//
// Go's regexp is RE2 with ASCII \b; the reference's Python patterns use
// Unicode word boundaries. The two differ only next to non-ASCII letters
// (docs/exporters.md).

// Redacted replaces a whole value that looks like it holds a credential.
const Redacted = "[redacted credential-like text]"

// Link replaces every http(s) URL in scrubbed text.
const Link = "[link]"

// nativePatterns is battery A.
var nativePatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bapi[_-]?key\b`),
	regexp.MustCompile(`(?i)\bapi[_-]?token\b`),
	regexp.MustCompile(`(?i)\baccess[_-]?token\b`),
	regexp.MustCompile(`(?i)\bbearer\s+token\b`),
	regexp.MustCompile(`(?i)\bpassword\b`),
	regexp.MustCompile(`\bsk_live_[A-Za-z0-9_]+\b`),
	regexp.MustCompile(`(?i)\bhf_[A-Za-z0-9_]{10,}\b`),
}

// cascadePatterns is battery D: battery A and two more.
var cascadePatterns = append(append([]*regexp.Regexp(nil), nativePatterns...),
	regexp.MustCompile(`(?i)\bsecret\b`),
	regexp.MustCompile(`(?i)sk[_-]test[_-]`),
)

var linkRE = regexp.MustCompile(`https?://\S+`)

// NativeText is battery A (the reference's codex helper, used by most
// exporters): whitespace collapsed and trimmed, the whole value replaced
// by Redacted when it looks like a credential, URLs replaced by Link, and
// cut to limit code points ending in "..." (limit <= 0 means 180).
func NativeText(s string, limit int) string {
	return scrub(CollapseSpace(s), nativePatterns, limit, 180)
}

// CursorText is battery C: like NativeText, but only trimmed (newlines
// survive), with a default limit of 256.
func CursorText(s string, limit int) string {
	return scrub(strings.TrimFunc(s, unicode.IsSpace), nativePatterns, limit, 256)
}

// CascadeText is battery D: battery A's patterns plus "secret" and
// sk_test_ keys, then NativeText with its default limit.
func CascadeText(s string) string {
	if s == "" {
		return s
	}
	if matchesAny(s, cascadePatterns) {
		return Redacted
	}
	return NativeText(s, 0)
}

func scrub(s string, patterns []*regexp.Regexp, limit, def int) string {
	if limit <= 0 {
		limit = def
	}
	if s == "" {
		return s
	}
	if matchesAny(s, patterns) {
		return Redacted
	}
	s = linkRE.ReplaceAllString(s, Link)
	return Cut(s, limit, "...")
}

func matchesAny(s string, patterns []*regexp.Regexp) bool {
	for _, p := range patterns {
		if p.MatchString(s) {
			return true
		}
	}
	return false
}

// CollapseSpace trims s and collapses every run of white space to one
// space.
func CollapseSpace(s string) string {
	return strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " ")
}

// Cut returns s when it has at most limit code points; otherwise its first
// limit-len(ellipsis) code points, trailing spaces trimmed, followed by
// ellipsis. (With "…" this is the reference's "bounded" helper; with "..."
// its native-text cut.)
func Cut(s string, limit int, ellipsis string) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	keep := limit - utf8.RuneCountInString(ellipsis)
	if keep < 0 {
		keep = 0
	}
	i, n := 0, 0
	for i < len(s) && n < keep {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	return strings.TrimRightFunc(s[:i], unicode.IsSpace) + ellipsis
}

// Bounded is the reference's "bounded" helper of the Copilot exporters:
// white space collapsed, cut to limit code points ending in "…".
func Bounded(s string, limit int) string {
	return Cut(CollapseSpace(s), limit, "…")
}
