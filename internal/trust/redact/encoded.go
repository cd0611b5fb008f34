package redact

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Encoded credentials. A credential is often handed around in base64 (a
// Docker config's auth, a Kubernetes secret's data, a CI variable set to
// the output of base64) or percent-encoded in a URL, where no pattern of
// the battery can see it. encodedAt decodes what is encoded and looks at
// the text it stands for:
//
//   - each run of base64 long enough to hold a credential is a credential
//     when the text it decodes to holds one the battery would cut out of
//     prose (value-shaped patterns, this one included, so base64 in base64
//     is seen) or is a user:password pair, as a Basic header's value is.
//     Only a run that decodes to printable ASCII is looked at: the base64
//     of binary data (an image, a digest) is left alone after its first
//     few bytes.
//   - each such run that is a token of a well-known prefix (GitHub's,
//     OpenAI's and Anthropic's sk-, Stripe's, AWS's AKIA, Slack's xox)
//     in ROT13 or written backwards is one when undone (disguisedToken).
//   - each run of non-blank text with a percent escape in it (%5F) is a
//     credential when its unescaped text holds one and the text as it is
//     does not (then a pattern that cuts out less sees it).
const (
	// encodedMinRun is the shortest run decoded: 16 characters are 12
	// bytes, a short user:password.
	encodedMinRun = 16
	// encodedMaxRun bounds the characters of one run that are decoded;
	// what a longer run holds beyond it is not looked at.
	encodedMaxRun = 64 << 10
	// encodedMinPassword is the shortest password of a user:password
	// pair.
	encodedMinPassword = 6
)

// base64Any marks the bytes of either base64 alphabet (standard and
// URL-safe), padding aside.
var base64Any = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isBase64Byte(byte(c)) || c == '-' || c == '_'
	}
	return t
}()

// encodedAt finds the first encoded credential at or after from.
func encodedAt(s string, from int) match {
	return firstOf(base64At(s, from), escapedAt(s, from))
}

// firstOf returns the one of two matches that starts first (a missing
// one, p < 0, never does).
func firstOf(a, b match) match {
	if a.p < 0 || b.p >= 0 && b.start < a.start {
		return b
	}
	return a
}

// base64At finds the first run of base64 at or after from that decodes
// to text holding a credential, or that is a private key in base58,
// base64 or hexadecimal (base58Key, encodedKeypair); the span is the run
// with its padding.
func base64At(s string, from int) match {
	for i := from; ; {
		start, j := runAt(s, i, encodedMinRun, &base64Any)
		if start < 0 {
			break
		}
		i = start
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		text, ok := decodeRun(s[i:j], end-j)
		if !ok && end == j {
			text, ok = decodeHex(s[i:j])
		}
		if ok && holdsEncodedSecret(text) {
			return match{p: pEncoded, at: i, start: i, end: end}
		}
		if !ok && (end == j && base58Key(s, i, j) || encodedKeypair(s[i:j], end-j)) {
			return match{p: pKeyMaterial, at: i, start: i, end: end}
		}
		if end == j && disguisedToken(s[i:j]) {
			return match{p: pEncoded, at: i, start: i, end: j}
		}
		i = end
	}
	return noMatch
}

// decodeHex decodes run when it is an even number of hexadecimal digits,
// 32 or more, that stand for printable ASCII text; at most encodedMaxRun
// of its characters are decoded.
func decodeHex(run string) (string, bool) {
	if len(run) < 2*encodedMinRun || len(run)%2 != 0 {
		return "", false
	}
	run = run[:min(len(run), encodedMaxRun)]
	raw, err := hex.DecodeString(run)
	if err != nil || !printableText(raw) {
		return "", false
	}
	return string(raw), true
}

// decodeRun decodes run, a maximal run of base64 followed by pad '='
// bytes, when it is base64 of printable ASCII text (tabs and line breaks
// allowed), or of such text in UTF-16LE (PowerShell's -EncodedCommand);
// at most encodedMaxRun of its characters are decoded.
func decodeRun(run string, pad int) (string, bool) {
	url := strings.ContainsAny(run, "-_")
	if url && strings.ContainsAny(run, "+/") {
		return "", false // two alphabets: not base64
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	if pad > 0 && (len(run)+pad)%4 != 0 || len(run)%4 == 1 {
		return "", false
	}
	// The first 12 bytes rule out almost every run that is not text
	// before the rest is decoded.
	var head [encodedMinRun / 4 * 3]byte
	if _, err := enc.Decode(head[:], []byte(run[:encodedMinRun])); err != nil {
		return "", false
	}
	wide := utf16ASCII(head[:])
	if !wide && !printableText(head[:]) {
		return "", false
	}
	if len(run) > encodedMaxRun {
		run = run[:encodedMaxRun]
	}
	raw, err := enc.DecodeString(run)
	if err != nil {
		return "", false
	}
	if wide {
		if len(raw)%2 != 0 || !utf16ASCII(raw) {
			return "", false
		}
		for i := range len(raw) / 2 {
			raw[i] = raw[2*i]
		}
		raw = raw[:len(raw)/2]
	}
	if !printableText(raw) {
		return "", false
	}
	return string(raw), true
}

// utf16ASCII reports whether b reads as UTF-16LE code units of ASCII: a
// byte, then zero, over and over.
func utf16ASCII(b []byte) bool {
	for i := 1; i < len(b); i += 2 {
		if b[i] != 0 || b[i-1] == 0 {
			return false
		}
	}
	return len(b) >= 2
}

// printableText reports whether b is printable ASCII, tabs and line
// breaks allowed.
func printableText(b []byte) bool {
	for _, c := range b {
		if (c < ' ' || c > '~') && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// holdsEncodedSecret reports whether text, decoded from base64, is or
// holds a credential.
func holdsEncodedSecret(text string) bool {
	return isUserPassword(strings.TrimRight(text, "\r\n")) || spansOf(text) != nil
}

// isUserPassword reports whether text is a user:password pair: a user
// name (letters, digits, . _ @ + -, a letter at least) and a password of encodedMinPassword
// printable characters or more without blanks, such as Basic
// authentication and a Docker config's auth encode. "https://..." is a
// URL, not a pair.
func isUserPassword(text string) bool {
	user, pw, ok := strings.Cut(text, ":")
	if !ok || user == "" || len(user) > 64 || len(pw) < encodedMinPassword || strings.HasPrefix(pw, "//") {
		return false
	}
	letter := false
	for i := 0; i < len(user); i++ {
		c := user[i]
		if !isASCIILetter(c) && !isDigit(c) && !strings.ContainsRune("._@+-", rune(c)) {
			return false
		}
		letter = letter || isASCIILetter(c)
	}
	if !letter {
		return false // "010:Repository123": a GitHub node id, a number and a type
	}
	for i := 0; i < len(pw); i++ {
		if c := pw[i]; c <= ' ' || c > '~' {
			return false
		}
	}
	return true
}

// escapedAt finds the first run of non-blank text around an escape, at
// or after from, whose unescaped text holds a credential that the text as
// written does not; the span is the run (the text between blanks, quotes
// or angle brackets). The escapes are a URL's (%5F), JSON's and most
// languages' (\u005F, \x5F) and HTML's (&#95;, &#x5F;).
func escapedAt(s string, from int) match {
	for i := from; i < len(s); {
		k := indexOf3(s[i:], '%', '\\', '&')
		if k < 0 {
			break
		}
		p := i + k
		if escapeLen(s, p) == 0 {
			i = p + 1
			continue
		}
		start, end := p, p+1
		for start > 0 && !endsEncodedRun(s[start-1]) {
			start--
		}
		for end < len(s) && !endsEncodedRun(s[end]) {
			end++
		}
		// A run whose credential shows without unescaping is left to
		// the pattern that sees it, which cuts out less.
		if text, changed := unescape(s[start:end]); changed && spansOf(text) != nil && spansIn(s[start:end], false) == nil {
			return match{p: pEncoded, at: start, start: start, end: end}
		}
		i = end
	}
	return noMatch
}

// escapeLen returns the length of the escape at s[i] (%HH, \uHHHH,
// \xHH, &#D...; or &#xH...;), or 0 when none starts there.
func escapeLen(s string, i int) int {
	hexRun := func(j, n int) bool {
		if j+n > len(s) {
			return false
		}
		for k := j; k < j+n; k++ {
			if !isHexDigit(s[k]) {
				return false
			}
		}
		return true
	}
	switch {
	case s[i] == '%' && hexRun(i+1, 2):
		return 3
	case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u' && hexRun(i+2, 4):
		return 6
	case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'x' && hexRun(i+2, 2):
		return 4
	case s[i] == '&' && i+1 < len(s) && s[i+1] == '#':
		j := i + 2
		isHex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if isHex {
			j++
		}
		k := j
		for k < len(s) && k-j < 6 && (isDigit(s[k]) || isHex && isHexDigit(s[k])) {
			k++
		}
		if k > j && k < len(s) && s[k] == ';' {
			return k + 1 - i
		}
	}
	return 0
}

// unescape returns run with each escape escapeLen knows replaced by the
// character it stands for, and whether any was.
func unescape(run string) (string, bool) {
	var b strings.Builder
	changed := false
	for i := 0; i < len(run); {
		n := escapeLen(run, i)
		if n == 0 {
			b.WriteByte(run[i])
			i++
			continue
		}
		var r uint64
		switch e := run[i : i+n]; {
		case e[0] == '%':
			r, _ = strconv.ParseUint(e[1:], 16, 32)
		case e[0] == '&' && (e[2] == 'x' || e[2] == 'X'):
			r, _ = strconv.ParseUint(e[3:n-1], 16, 32)
		case e[0] == '&':
			r, _ = strconv.ParseUint(e[2:n-1], 10, 32)
		default: // \uHHHH, \xHH
			r, _ = strconv.ParseUint(e[2:], 16, 32)
		}
		if r > utf8.MaxRune {
			r = utf8.RuneError
		}
		b.WriteRune(rune(r))
		changed = true
		i += n
	}
	return b.String(), changed
}

// endsEncodedRun reports whether c ends a run of percent-encoded text.
func endsEncodedRun(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '`' || c == '<' || c == '>'
}

func isHexDigit(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// disguisedPrefixes are the prefixes of the tokens looked for in ROT13
// and written backwards: the most common tokens, whose prefix alone
// says what they are.
var disguisedPrefixes = [...]string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-", "sk_live_", "sk_test_", "rk_live_", "AKIA", "ASIA", "xox", "glpat-"}

// rot13Prefixes and reversedPrefixes are disguisedPrefixes in ROT13 and
// written backwards.
var rot13Prefixes, reversedPrefixes = func() (r, b [len(disguisedPrefixes)]string) {
	for i, p := range disguisedPrefixes {
		r[i], b[i] = rot13(p), reversed(p)
	}
	return r, b
}()

// rot13Heads[a] holds b when a run starting with the bytes a and b may be
// one of disguisedPrefixes' tokens in ROT13, and reversedTails[a] holds b
// when a run ending with b and a may be one written backwards (each a
// 256-bit set, four words): the cheap test that spares almost every run
// the comparisons and the transformation.
var rot13Heads, reversedTails = func() (h, t [256][4]uint64) {
	for _, p := range disguisedPrefixes {
		r := rot13(p)
		h[r[0]][r[1]>>6] |= 1 << (r[1] & 63)
		t[p[0]][p[1]>>6] |= 1 << (p[1] & 63)
	}
	return h, t
}()

// inPairSet reports whether the pair a, b is in set (rot13Heads,
// reversedTails).
func inPairSet(set *[256][4]uint64, a, b byte) bool {
	return set[a][b>>6]>>(b&63)&1 != 0
}

// rot13 returns s with each ASCII letter moved 13 places on (ROT13,
// which undoes itself).
func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// reversed returns the bytes of s in the reverse order.
func reversed(s string) string {
	b := make([]byte, len(s))
	for i := range len(s) {
		b[len(s)-1-i] = s[i]
	}
	return string(b)
}

// disguisedToken reports whether run, a run of base64 characters, is a
// token of disguisedPrefixes in ROT13 or written backwards: it starts
// with a prefix in ROT13, or ends with one reversed, and the text undone
// holds a credential the battery cuts out of prose. The run's first two
// and last two bytes are tested before anything is compared or
// transformed.
func disguisedToken(run string) bool {
	if len(run) < 2 || len(run) > maxJoinedLen {
		return false
	}
	if inPairSet(&rot13Heads, run[0], run[1]) {
		for _, p := range rot13Prefixes {
			if strings.HasPrefix(run, p) {
				if spansIn(rot13(run), false) != nil {
					return true
				}
				break
			}
		}
	}
	if inPairSet(&reversedTails, run[len(run)-1], run[len(run)-2]) {
		for _, p := range reversedPrefixes {
			if strings.HasSuffix(run, p) {
				return spansIn(reversed(run), false) != nil
			}
		}
	}
	return false
}
