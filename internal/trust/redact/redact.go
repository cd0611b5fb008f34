// Package redact scrubs credential-like text before it leaves the server.
//
// It reproduces the Python reference's redaction pipeline (core/redaction.py,
// redact_text / contains_secret, pinned by the conformance fixture
// testdata/conformance/redaction_battery.json):
//
//  1. collapse every run of Unicode whitespace to one space and trim;
//  2. if any credential pattern matches anywhere, the whole value becomes
//     [Sentinel];
//  3. otherwise every `https?://\S+` becomes "[link]";
//  4. values longer than the limit (in code points) are cut to limit-3 code
//     points, right-trimmed, and suffixed with "...".
//
// The battery is the reference's 26 patterns followed by a superset of our
// own (superset.go): passwords in URLs, Bearer and Basic header values,
// this server's bdn_ tokens, AWS secret keys, NAME=secret assignments,
// passwords in words (also in other languages) and on command lines,
// Azure keys and SAS signatures, PEM body lines, tokens known by their
// structure (cloud.go), private keys in shapes of their own (keys.go: a
// JWK's private members, a Bitcoin WIF key, an ed25519 keypair), the
// prefixed tokens of other vendors (vendor.go),
// and any of them encoded (base64, hexadecimal, escapes: encoded.go),
// written in pieces (joined.go) or given as string literals of code
// (literals.go). Text is also looked at as a reader sees
// it (unmasked: no zero-width characters, full-width letters as ASCII,
// Cyrillic and Greek look-alikes in a Latin word as Latin letters).
//
// # Two kinds of surface
//
// A value is redacted in one of two ways, by the kind of surface it leaves
// through ([Kind]):
//
//   - [Field] ([Secret]): a short value of the reference's surfaces (a row
//     of agent memory, a name): when any pattern matches, keyword-shaped
//     ones included ("password", "api_key", ".env"), the whole value
//     becomes [Sentinel], as the reference does.
//   - [Prose] ([Span]): free text (documentation, search snippets, request
//     files, error messages, the caller's own arguments echoed back): each
//     credential is replaced by [Sentinel] and the rest is kept. A keyword
//     with no value next to it ("/etc/passwd", "the api_key parameter") is
//     not a credential here; "password: hunter2" loses its value.
//
// Text runs on every string of every read payload, so the no-secret path is
// allocation-free for already-normalised input, and a byte scan (scan.go)
// decides almost all benign strings before any regular expression runs.
package redact

import (
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/swar"
)

// Sentinel replaces the whole value when it looks like it holds a credential.
// The exact bytes are part of the cross-implementation contract.
const Sentinel = "[redacted credential-like text]"

// linkText replaces each http(s) URL.
const linkText = "[link]"

// Text applies the full redaction pipeline to s: whitespace collapse, whole
// value replaced by [Sentinel] if it contains a credential-like pattern, URL
// replacement, then truncation to limit runes ("..." suffix included).
// limit <= 0 disables truncation.
//
// As in the reference, the sentinel itself is never truncated, even when it
// is longer than limit. For 0 < limit < 3 (where the reference's slice
// arithmetic goes negative and returns more than limit characters) an
// over-long value becomes limit dots.
func Text(s string, limit int) string {
	if s == "" {
		return ""
	}
	t := collapseSpace(s)
	if flaggedCollapsed(t) || flaggedByLines(s) {
		return Sentinel
	}
	return truncate(replaceLinks(t), limit)
}

// Secret returns Sentinel when s holds credential-like text (looked for
// with whitespace collapsed, as Text does) and s itself otherwise. Unlike
// Text it changes nothing else: no link replacement, no whitespace
// collapse, no truncation. It is the redaction every read surface applies.
func Secret(s string) string {
	if Flagged(s) {
		return Sentinel
	}
	return s
}

// Kind is how a surface redacts its text.
type Kind uint8

const (
	// Field values are replaced whole when they hold anything the battery
	// flags (Secret). The reference's surfaces, and the default.
	Field Kind = iota
	// Prose keeps everything but the credentials themselves (Span).
	Prose
)

// Apply redacts s as a value of a surface of kind k.
func (k Kind) Apply(s string) string {
	if k == Prose {
		return Span(s)
	}
	return Secret(s)
}

// Flagged reports whether Secret would replace s: whether s, with its
// whitespace collapsed, matches any pattern of the battery (or s holds a
// token broken at a line's end, a table's secret column), or would as a reader sees it (unmasked): a zero-width space inside a token, or a
// token in full-width letters, shows the token to whoever reads it.
func Flagged(s string) bool {
	return s != "" && (flaggedCollapsed(collapseSpace(s)) || flaggedByLines(s))
}

// flaggedByLines reports whether s holds a credential that only its
// lines show, which collapsing its white space would hide: one written
// in pieces over its lines (joinedAt: a token broken at a line's end, a
// literal continued on the next line), or a value in a markdown table's
// column whose header names a secret (tableCellAt).
func flaggedByLines(s string) bool {
	return strings.IndexByte(s, '\n') >= 0 && (joinedAt(s, 0).p >= 0 || tableCellAt(s, 0).p >= 0)
}

// flaggedCollapsed is Flagged of a string whose white space is collapsed.
func flaggedCollapsed(t string) bool {
	found, maybeRare := containsAny(t, allPatterns)
	if found || !maybeRare {
		return found
	}
	seen := unmasked(t)
	return seen != t && ContainsSecret(collapseSpace(seen))
}

// unmasked returns s as a reader sees it: without the characters that
// show nothing (the zero-width space, non-joiner and joiner, U+200B to
// U+200D, the word joiner U+2060, the byte order mark U+FEFF, the soft
// hyphen U+00AD, the combining grapheme joiner U+034F, the bidirectional
// controls U+202A to U+202E and U+2066 to U+2069), with the full-width
// forms of ASCII (U+FF01 to U+FF5E), the mathematical letters and digits
// (U+1D400 to U+1D7FF) and the tag characters (U+E0020 to U+E007E, which
// spell ASCII invisibly) as ASCII, and with the Cyrillic and Greek letters that look like Latin
// ones (homoglyphs) as those, where they sit next to an ASCII letter or
// digit (a word that mixes scripts: gh\u0440_...); s itself when it holds
// none of them.
func unmasked(s string) string { return unmask(s, nil) }

// unmask is unmasked; when offs is not nil it is set to the offset in s
// of each byte of the result, and len(s) after them. A run of tag
// characters is set apart from the visible text around it by a space: it
// is a message of its own.
func unmask(s string, offs *[]int) string {
	var b []byte   // nil until the first rune replaced
	inTag := false // the last rune was a tag character
	put := func(c byte, at int) {
		b = append(b, c)
		if offs != nil {
			*offs = append(*offs, at)
		}
	}
	for i := 0; i < len(s); {
		n, c := maskAt(s, i)
		if n > 0 && b == nil {
			b = append(make([]byte, 0, len(s)), s[:i]...)
			if offs != nil {
				*offs = make([]int, i, len(s)+1)
				for j := range i {
					(*offs)[j] = j
				}
			}
		}
		if tag := n == 4 && s[i] == 0xf3; tag != inTag {
			if len(b) > 0 {
				put(' ', i)
			}
			inTag = tag
		}
		switch {
		case n > 0:
			if c != 0 {
				put(c, i)
			}
			i += n
		default:
			if b != nil {
				put(s[i], i)
			}
			i++
		}
	}
	if b == nil {
		return s
	}
	if offs != nil {
		*offs = append(*offs, len(s))
	}
	return string(b)
}

// maskAt reports whether a rune unmasked replaces starts at s[i]: its
// length (0 when none does) and the ASCII byte it stands for (0 for an
// invisible one).
func maskAt(s string, i int) (n int, ascii byte) {
	switch s[i] {
	case 0xc2: // U+00AD; U+00A0, the no-break space
		if i+1 < len(s) && s[i+1] == 0xad {
			return 2, 0
		}
		if i+1 < len(s) && s[i+1] == 0xa0 {
			return 2, ' '
		}
	case 0xcd: // U+034F, the combining grapheme joiner
		if i+1 < len(s) && s[i+1] == 0x8f {
			return 2, 0
		}
	case 0xe2: // U+200B to U+200D, U+202A to U+202E, U+2060, U+2066 to U+2069
		if i+2 < len(s) && (s[i+1] == 0x80 && (s[i+2] >= 0x8b && s[i+2] <= 0x8d || s[i+2] >= 0xaa && s[i+2] <= 0xae) ||
			s[i+1] == 0x81 && (s[i+2] == 0xa0 || s[i+2] >= 0xa6 && s[i+2] <= 0xa9)) {
			return 3, 0
		}
	case 0xf0: // U+1D400 to U+1D7FF, mathematical letters and digits
		if i+3 < len(s) && s[i+1] == 0x9d && s[i+2] >= 0x90 && s[i+2] <= 0x9f && s[i+3]&0xc0 == 0x80 {
			return 4, mathASCII(0x1d000 | rune(s[i+2]&0x3f)<<6 | rune(s[i+3]&0x3f))
		}
	case 0xf3: // U+E0000 to U+E007F, tag characters: the ASCII they tag, or nothing
		if i+3 < len(s) && s[i+1] == 0xa0 && (s[i+2] == 0x80 || s[i+2] == 0x81) && s[i+3]&0xc0 == 0x80 {
			if c := byte(s[i+2]&1)<<6 | s[i+3]&0x3f; c >= 0x20 && c < 0x7f {
				return 4, c
			}
			return 4, 0
		}
	case 0xef:
		if i+2 >= len(s) {
			break
		}
		switch c1, c2 := s[i+1], s[i+2]; {
		case c1 == 0xbb && c2 == 0xbf: // U+FEFF
			return 3, 0
		case c1 == 0xbc && c2 >= 0x81 && c2 <= 0xbf: // U+FF01 to U+FF3F
			return 3, c2 - 0x81 + 0x21
		case c1 == 0xbd && c2 >= 0x80 && c2 <= 0x9e: // U+FF40 to U+FF5E
			return 3, c2 - 0x80 + 0x60
		}
	case 0xce, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4: // Greek and Cyrillic
		if i+1 >= len(s) || s[i+1]&0xc0 != 0x80 {
			break
		}
		c, ok := homoglyphs[rune(s[i]&0x1f)<<6|rune(s[i+1]&0x3f)]
		if ok && (i > 0 && isASCIIAlnum(s[i-1]) || i+2 < len(s) && isASCIIAlnum(s[i+2])) {
			return 2, c
		}
	}
	return 0, 0
}

// homoglyphs are the Cyrillic and Greek letters that look like a Latin
// letter (Unicode's confusables, the single letters of the two scripts),
// by the Latin letter they pass for.
var homoglyphs = func() map[rune]byte {
	m := map[rune]byte{}
	for _, p := range []string{
		// Cyrillic.
		"аa", "вB", "еe", "кk", "мM", "нH", "оo", "рp", "сc", "тT", "уy", "хx",
		"АA", "ВB", "ЕE", "КK", "МM", "НH", "ОO", "РP", "СC", "ТT", "УY", "ХX",
		"ѕs", "ЅS", "іi", "ІI", "јj", "ЈJ", "ԁd", "ԛq", "ԜW", "ԝw", "ӏl", "ҮY",
		// Greek.
		"ΑA", "ΒB", "ΕE", "ΖZ", "ΗH", "ΙI", "ΚK", "ΜM", "ΝN", "ΟO", "ΡP", "ΤT", "ΥY", "ΧX",
		"οo", "νv", "ρp", "ιi",
	} {
		r := []rune(p)
		m[r[0]] = byte(r[1])
	}
	return m
}()

func isASCIIAlnum(c byte) bool { return isASCIILetter(c) || isDigit(c) }

// mathASCII returns the ASCII letter or digit a mathematical alphanumeric
// symbol (U+1D400 to U+1D7FF: bold, italic, script, fraktur,
// double-struck, sans-serif and monospace A to Z, a to z, 0 to 9) is
// drawn from, or 0 for the others (Greek letters, symbols).
func mathASCII(r rune) byte {
	switch {
	case r >= 0x1d400 && r <= 0x1d6a3:
		k := byte((r - 0x1d400) % 52)
		if k < 26 {
			return 'A' + k
		}
		return 'a' + k - 26
	case r >= 0x1d7ce && r <= 0x1d7ff:
		return '0' + byte((r-0x1d7ce)%10)
	}
	return 0
}

// proseMask is what Span looks for: every pattern but the keyword-shaped
// ones.
const proseMask = allPatterns &^ keywordMask

// Span returns s with each credential in it replaced by [Sentinel]: the
// value-shaped patterns of the battery (tokens, keys, a PEM block from its
// BEGIN line to its END line, PEM body lines), the value of an assignment
// to a secret-named variable or key, a URL's password. The reference's
// keyword-shaped patterns on their own ("password", "api_key", ".env",
// "bearer token") are left alone, and so is everything around a
// credential. s comes back unchanged (the same string) when it holds none.
//
// Unlike Secret, Span looks at s as it is, whitespace and all, and does not
// apply the reference's extra case folding of four non-ASCII letters.
func Span(s string) string {
	spans := spansOf(s)
	if spans == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteString(Sentinel)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// Blank returns s with each credential Span would replace overwritten by
// spaces, byte for byte (offsets are kept): what a search index may take
// words from without ever holding, matching or reporting a piece of a
// credential. s comes back unchanged when it holds none.
func Blank(s string) string {
	spans := spansOf(s)
	if spans == nil {
		return s
	}
	b := []byte(s)
	for _, sp := range spans {
		for i := sp[0]; i < sp[1]; i++ {
			b[i] = ' '
		}
	}
	return string(b)
}

// URI is Span for text that may be percent-encoded, such as a URI or an
// error message quoting one: when the decoded text holds a credential, the
// decoded text is returned with each credential replaced (an encoded
// "Bearer%20abc..." hides the space Span looks for); otherwise Span(s).
func URI(s string) string {
	if strings.IndexByte(s, '%') >= 0 {
		if dec, err := url.PathUnescape(s); err == nil && dec != s {
			if red := Span(dec); red != dec {
				return red
			}
		}
	}
	return Span(s)
}

// spansOf returns the byte ranges of s that Span replaces, in order,
// merged where they overlap or touch; nil when there are none.
func spansOf(s string) [][2]int { return spansIn(s, true) }

// spansIn is spansOf, looking for credentials encoded or written in
// pieces (encodedAt, joinedAt) or not.
func spansIn(s string, decode bool) [][2]int {
	if s == "" {
		return nil
	}
	scans := [...]func(string, int) match{pemBodyAt, seedPhraseAt, keyMaterialAt, tableCellAt, encodedAt, joinedAt}
	ends := len(scans)
	if !decode {
		ends -= 2 // without encodedAt and joinedAt
	}
	var spans [][2]int
	rare := false // s may hold a rune unmasked replaces
	for from := 0; from < len(s); {
		m, maybe := scan(s, proseMask, from, true)
		rare = rare || maybe
		if m.p < 0 {
			break
		}
		if m.end > m.start {
			spans = append(spans, [2]int{m.start, m.end})
		}
		from = max(m.end, m.at+1)
	}
	for _, at := range scans[:ends] {
		for from := 0; from < len(s); {
			m := at(s, from)
			if m.p < 0 {
				break
			}
			spans = append(spans, [2]int{m.start, m.end})
			from = m.end
		}
	}
	if rare {
		spans = append(spans, maskedSpans(s, decode)...)
	}
	if len(spans) == 0 {
		return nil
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	out := spans[:1]
	for _, sp := range spans[1:] {
		if top := &out[len(out)-1]; sp[0] <= top[1] {
			top[1] = max(top[1], sp[1])
		} else {
			out = append(out, sp)
		}
	}
	return out
}

// maskedSpans returns the byte ranges of s that hold a credential which
// shows only as a reader sees s (unmasked): a token with a zero-width
// space or a soft hyphen inside, in full-width letters, or with a
// look-alike letter of another script in it.
func maskedSpans(s string, decode bool) [][2]int {
	var offs []int
	seen := unmask(s, &offs)
	if seen == s {
		return nil
	}
	var out [][2]int
	for _, sp := range spansIn(seen, decode) {
		out = append(out, [2]int{offs[sp[0]], offs[sp[1]]})
	}
	return out
}

// ContainsSecret reports whether s matches any credential pattern. Unlike
// [Text] it does not normalise whitespace first (mirroring the reference's
// contains_secret), so a PEM header split by a newline or a double space is
// found by Text but not by ContainsSecret.
func ContainsSecret(s string) bool {
	return s != "" && containsSecret(s)
}

// mayHoldSpace reports whether a multi-byte sequence starting with lead byte
// c can encode a non-ASCII whitespace rune (U+0085, U+00A0, U+1680,
// U+2000..U+3000).
func mayHoldSpace(c byte) bool {
	return c == 0xc2 || c == 0xe1 || c == 0xe2 || c == 0xe3
}

// spaceAt reports whether the rune starting at s[i] is whitespace, and how
// many bytes to advance: the rune's width when it may be whitespace, else 1
// (continuation bytes are never whitespace lead bytes, so stepping through
// a rune byte by byte is harmless).
func spaceAt(s string, i int) (bool, int) {
	switch wsClass[s[i]] {
	case wsSpace, wsOther:
		return true, 1
	case wsLead:
		r, w := utf8.DecodeRuneInString(s[i:])
		return pyfmt.IsSpace(r), w
	}
	return false, 1
}

// Byte classes for isCollapsed.
const (
	wsNone  = iota // not whitespace, not a possible whitespace lead byte
	wsSpace        // ' '
	wsOther        // other ASCII whitespace
	wsLead         // lead byte that may start non-ASCII whitespace
)

var wsClass = func() (t [256]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		if pyfmt.IsSpace(rune(c)) {
			t[c] = wsOther
		}
	}
	t[' '] = wsSpace
	for c := 0x80; c < 0x100; c++ {
		if mayHoldSpace(byte(c)) {
			t[c] = wsLead
		}
	}
	return t
}()

// isCollapsed reports whether s is already trimmed and uses only single
// ASCII spaces as whitespace, i.e. whether collapseSpace would return it
// unchanged.
//
// Eight bytes at a time: a word of printable ASCII without two spaces in a
// row (nor a space after the previous word's last byte) needs no look at
// its bytes; any other word, and the tail, are read byte by byte.
func isCollapsed(s string) bool {
	n := len(s)
	if n > 0 && (s[0] == ' ' || s[n-1] == ' ') {
		return false
	}
	i := 0
	for ; i+8 <= n; i += 8 {
		x := swar.Word(s[i:])
		// The high bit of each byte that is a space, below 0x20 (ASCII
		// whitespace other than the space is) or above 0x7f. The space
		// test may flag more bytes than the spaces, which only sends the
		// word to the byte-by-byte check.
		spaces := swar.ZeroByte(x ^ ' '*swar.EachByte)
		other := swar.Below(x, 0x20) | x&swar.HighBits
		if other == 0 && spaces&(spaces<<8) == 0 && (spaces&0x80 == 0 || i == 0 || s[i-1] != ' ') {
			continue
		}
		if !collapsedBytes(s, i, i+8) {
			return false
		}
	}
	return collapsedBytes(s, i, n)
}

// collapsedBytes is isCollapsed's byte-by-byte check of s[from:to] (s has
// been checked not to start or end with a space).
func collapsedBytes(s string, from, to int) bool {
	for i := from; i < to; i++ {
		switch wsClass[s[i]] {
		case wsSpace:
			if s[i-1] == ' ' {
				return false
			}
		case wsOther:
			return false
		case wsLead:
			if r, _ := utf8.DecodeRuneInString(s[i:]); pyfmt.IsSpace(r) {
				return false
			}
		}
	}
	return true
}

// collapseSpace replaces each run of whitespace with one space and trims
// both ends. Invalid UTF-8 bytes are copied through unchanged.
func collapseSpace(s string) string {
	if isCollapsed(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	start := -1 // start of the current run of non-space bytes, or -1
	flush := func(end int) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[start:end])
		start = -1
	}
	for i := 0; i < len(s); {
		space, w := spaceAt(s, i)
		if !space {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			flush(i)
		}
		i += w
	}
	if start >= 0 {
		flush(len(s))
	}
	return b.String()
}

// replaceLinks replaces every match of `https?://\S+` (case-sensitive
// scheme, greedy up to the next whitespace) with "[link]".
func replaceLinks(s string) string {
	var b strings.Builder
	copied, pos := 0, 0
	for {
		j := strings.Index(s[pos:], "http")
		if j < 0 {
			break
		}
		j += pos
		k := j + 4
		if k < len(s) && s[k] == 's' {
			k++
		}
		end := k + 3
		if !strings.HasPrefix(s[k:], "://") || end >= len(s) {
			pos = j + 1
			continue
		}
		for end < len(s) {
			space, w := spaceAt(s, end)
			if space {
				break
			}
			end += w
		}
		if end == k+3 { // "://" followed by whitespace: \S+ needs one char
			pos = j + 1
			continue
		}
		b.WriteString(s[copied:j])
		b.WriteString(linkText)
		copied, pos = end, end
	}
	if copied == 0 {
		return s
	}
	b.WriteString(s[copied:])
	return b.String()
}

// truncate cuts s to at most limit runes the way the reference does:
// s[:limit-3], right-trimmed, plus "...".
func truncate(s string, limit int) string {
	// Byte length bounds rune count, so short strings need no counting.
	if limit <= 0 || len(s) <= limit || utf8.RuneCountInString(s) <= limit {
		return s
	}
	if limit < 3 {
		return "..."[:limit]
	}
	off := 0
	for n := limit - 3; n > 0; n-- {
		_, w := utf8.DecodeRuneInString(s[off:])
		off += w
	}
	return strings.TrimRightFunc(s[:off], pyfmt.IsSpace) + "..."
}
