package redact

import (
	"math/bits"
	"strings"
	"unicode"
	"unicode/utf8"
)

// containsSecret reports whether any pattern of the battery (the
// reference's and the superset's) matches s.
//
// Instead of running every pattern unanchored (microseconds each in Go's
// RE2), one byte scan looks for the few places where a match could start:
// every reference pattern begins with a Python \b followed by an ASCII
// letter, except dotenv ('.') and pem_private_key ("-----BEGIN "); the
// superset's start at a word too ("Bearer", "Basic", "bdn_", "aws", a
// secret access key's name, "net", "Private-Lines:", a Discord token's
// first two bytes, the word for a password in another language) or at
// the operator of an assignment or a URL's "://" (':' and '='), or at a
// few bytes of their own ('.' of .atlasv1., '~' of an Azure secret's
// Q~, '/' of a Windows option, the lead byte of a non-ASCII word for a
// password). At such a place a short prefix test selects
// candidate patterns, the leading \b is checked with Python's Unicode
// notion of a word character, and only then is the candidate's regexp or
// matcher run, anchored there. Benign text almost never gets that far. PEM
// body lines, seed phrases and keys written as arrays of their bytes,
// which can start anywhere, are looked for by scans of their own
// (pemBodyAt, seedPhraseAt, keyMaterialAt) of strings long enough to
// hold one, and so are base64 and keys in base58 (encodedAt) and pieces
// (joinedAt).
//
// The case-insensitive patterns also accept four non-ASCII runes (U+0130,
// U+0131, U+017F, U+212A, which Python's IGNORECASE equates with i, i, s
// and k). The ASCII prefix tests cannot see those, so a string containing
// one is scanned a second time, for the case-insensitive patterns only,
// after replacing each with its ASCII letter; that keeps word boundaries and
// case-insensitive matches identical to the original.
func containsSecret(s string) bool {
	found, _ := containsAny(s, allPatterns)
	return found
}

// containsAny reports whether a pattern of enabled matches s, and when
// not, whether s may hold a rune that foldRunes or unmasked would
// replace (one of their lead bytes).
func containsAny(s string, enabled uint64) (found, maybeRare bool) {
	m, maybeRare := scan(s, enabled, 0, false)
	if m.p >= 0 {
		return true, maybeRare
	}
	if enabled&(1<<pPEMBody) != 0 && pemBodyAt(s, 0).p >= 0 {
		return true, maybeRare
	}
	if enabled&(1<<pSeedPhrase) != 0 && seedPhraseAt(s, 0).p >= 0 {
		return true, maybeRare
	}
	if enabled&(1<<pKeyMaterial) != 0 && keyMaterialAt(s, 0).p >= 0 {
		return true, maybeRare
	}
	if enabled&(1<<pEncoded) != 0 && encodedAt(s, 0).p >= 0 {
		return true, maybeRare
	}
	if enabled&(1<<pJoined) != 0 && joinedAt(s, 0).p >= 0 {
		return true, maybeRare
	}
	if !maybeRare || !hasFoldRune(s) {
		return false, maybeRare
	}
	m, _ = scan(foldRunes(s), enabled&caseInsensitiveMask, 0, false)
	return m.p >= 0, maybeRare
}

// Byte classes for scan.
const (
	bOther     = iota // ASCII non-word byte
	bWord             // ASCII word byte that cannot start a pattern
	bStart            // ASCII letter that can start a pattern
	bDot              // '.'
	bDash             // '-'
	bOp               // ':', '=' or '>'
	bHigh             // byte of a multi-byte sequence (or invalid)
	bFoldLead         // lead byte of U+0130, U+0131, U+017F or U+212A, or of a rune unmasked replaces
	bPunct            // '~' or '/', where a few patterns are looked for (punctAt)
	bLocalLead        // lead byte of a non-ASCII word for a password (highAt)
)

var byteClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = bHigh
		case isASCIIWord(byte(c)):
			t[c] = bWord
		}
	}
	for _, c := range []byte("abceghiklmnprsxyABCEGHIKLMNPRSXY") {
		t[c] = bStart
	}
	for _, h := range exactHeads() {
		t[h[0]] = bStart
	}
	for _, p := range localizedPairs {
		t[p[0]], t[upperASCII(p[0])] = bStart, bStart
	}
	t['.'], t['-'] = bDot, bDash
	t['~'], t['/'] = bPunct, bPunct
	for c := utf8.RuneSelf; c < 256; c++ {
		if localizedLead[c] && t[c] == bHigh {
			t[c] = bLocalLead
		}
	}
	t[':'], t['='], t['>'] = bOp, bOp, bOp
	t[0xc4], t[0xc5], t[0xe2] = bFoldLead, bFoldLead, bFoldLead
	t[0xc2], t[0xef] = bFoldLead, bFoldLead // U+00AD; U+FEFF and U+FF01 to U+FF5E (U+200B to U+200D and U+2060 lead with 0xe2)
	for c := 0xce; c <= 0xd4; c++ {
		t[c] = bFoldLead // Greek and Cyrillic homoglyphs
	}
	t[0xcd], t[0xf0], t[0xf3] = bFoldLead, bFoldLead, bFoldLead // U+034F; mathematical letters; tag characters
	return t
}()

// scan returns the first match, at or after from, of a pattern whose bit is
// set in enabled (m.p < 0 when there is none; PEM body lines are left to
// pemBodyAt), and whether s may contain a rune that foldRunes would
// replace. With span unset the caller only asks whether there is a match,
// and m's span is not computed.
func scan(s string, enabled uint64, from int, span bool) (m match, maybeFold bool) {
	prevWord := from > 0 && isASCIIWord(s[from-1]) // s[i-1] is an ASCII word byte
	for i := from; i < len(s); i++ {
		var cand uint64
		switch byteClass[s[i]] {
		case bOther:
			prevWord = false
			continue
		case bWord:
			end := wordEnd(s, i)
			if n := end - i; !prevWord && isDigit(s[i]) && (n == 4 || n >= 8 && n <= maxCardDigits) {
				if m := digitStartAt(s, i, end, enabled); m.p >= 0 {
					return m, maybeFold
				}
			}
			// No other pattern starts inside a word: pass over the rest
			// of it.
			i, prevWord = end-1, true
			continue
		case bHigh:
			prevWord = false
			continue
		case bLocalLead:
			prevWord = false
			if m := highAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bFoldLead:
			prevWord, maybeFold = false, true
			if m := highAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bPunct:
			prevWord = false
			if m := punctAt(s, i, enabled); m.p >= 0 {
				return m, maybeFold
			}
			continue
		case bDot:
			prevWord = false
			if i+1 < len(s) && (s[i+1]|0x20 == 'e' || s[i+1] == 'a') {
				cand = dotCandidates(s, i)
			}
		case bDash:
			prevWord = false
			if strings.HasPrefix(s[i:], "-----BEGIN ") {
				cand = 1 << pPEM
			} else if i+1 < len(s) && dashOption[s[i+1]] {
				cand = 1 << pCLICredential
			}
		case bOp:
			prevWord = false
			if s[i] == ':' && enabled&(1<<pURLPassword) != 0 && (strings.HasPrefix(s[i:], "://") || strings.HasPrefix(s[i:], ":~1~1")) {
				if m := urlPasswordAt(s, i); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == ':' && enabled&(1<<pWebhookURL) != 0 && strings.HasPrefix(s[i:], "://") {
				if m := webhookAt(s, i); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == ':' && i > 0 && i+1 < len(s) && isNameByte(s[i-1]) && !isSpaceByte(s[i+1]) &&
				!(isDigit(s[i-1]) && isDigit(s[i+1])) && enabled&(1<<pDSNPassword) != 0 {
				// (a password right after the ':'; not a time or a port:
				// 09:30, host:3306)
				if m := dsnPasswordAt(s, i); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == ':' && i+1 < len(s) && (s[i+1] == 'A' || s[i+1] == '*' || isDigit(s[i+1])) {
				if m := colonAt(s, i, enabled); m.p >= 0 {
					return m, maybeFold
				}
			}
			if s[i] == '>' {
				if enabled&(1<<pConfigValue|1<<pKeyMaterial) != 0 {
					if m := xmlSecretAt(s, i); m.p >= 0 && enabled&(1<<m.p) != 0 {
						return m, maybeFold
					}
				}
				if i > 1 && s[i-1] == '-' && enabled&(1<<pSpokenAssignment) != 0 {
					if m := arrowAt(s, i); m.p >= 0 {
						return m, maybeFold
					}
				}
				continue
			}
			if enabled&assignmentMask != 0 {
				if m := assignmentAt(s, i); m.p >= 0 && enabled&(1<<m.p) != 0 {
					return m, maybeFold
				}
			}
			continue
		case bStart:
			if prevWord || !mayStartPattern(s[i:]) {
				// No \b here, or no pattern begins so: no pattern starts
				// in the rest of the word either.
				i, prevWord = wordEnd(s, i)-1, true
				continue
			}
			prevWord = true
			cand = wordStartCandidates(s[i:])
			if cand != 0 && i > 0 && s[i-1] >= utf8.RuneSelf {
				// Python's \b: a preceding non-ASCII letter or digit is a
				// word character too.
				if r, _ := utf8.DecodeLastRuneInString(s[:i]); isPyWord(r) {
					cand = 0
				}
			}
		}
		for cand &= enabled; cand != 0; cand &= cand - 1 {
			if m := matchAt(s, i, bits.TrailingZeros64(cand), span); m.p >= 0 {
				return m, maybeFold
			}
		}
	}
	return noMatch, maybeFold
}

// dashOption[c] says whether a '-' before c may start an option whose
// value is a credential: a long option, curl's -u, a one-letter password
// option of shortOptions, one of passOptions (-passout, -storepass,
// -keypass, -deststorepass), sudo's -S (a password echoed into it).
var dashOption = func() (t [256]bool) {
	for _, c := range []byte("-upPwaUksdNS") {
		t[c] = true
	}
	return t
}()

// digitStartAt runs the patterns that start with a digit at a word
// boundary, s[i], in the word s[i:end]: a payment card number (a first
// group of 4 digits, or 13 to 19 together), a Telegram bot token (8 to
// 10 digits and ':'). The scan calls it only for words of those lengths.
func digitStartAt(s string, i, end int, enabled uint64) match {
	for j := i; j < end; j++ {
		if !isDigit(s[j]) {
			return noMatch
		}
	}
	switch n := end - i; {
	case n == 4 || n >= minCardDigits:
		if enabled&(1<<pPaymentCard) != 0 {
			return paymentCardAt(s, i)
		}
	case n <= 10 && end < len(s) && s[end] == ':':
		if enabled&(1<<pTelegramToken) != 0 {
			return telegramBotTokenAt(s, i)
		}
	}
	return noMatch
}

// matchAt runs pattern p anchored at s[i:]. Without span, the match's end
// is not computed for the reference's patterns.
func matchAt(s string, i, p int, span bool) match {
	switch p {
	case pBearerValue:
		return bearerValueAt(s, i)
	case pBasicValue:
		return basicValueAt(s, i)
	case pBdnToken:
		return bdnTokenAt(s, i)
	case pAWSSecret:
		return awsSecretAt(s, i)
	case pVendorToken:
		return vendorTokenAt(s, i)
	case pSpokenAssignment:
		switch lowerASCII(s[i]) {
		case 'p':
			return passwordPhraseAt(s, i)
		case 'c', 'l':
			return credentialPairAt(s, i)
		}
		return spokenAssignmentAt(s, i)
	case pCLICredential:
		if s[i] != '-' {
			return commandWordAt(s, i)
		}
		return cliCredentialAt(s, i)
	case pAuthHeader:
		return authHeaderAt(s, i)
	case pBase64PEM:
		return base64PEMAt(s, i)
	case pConfigValue:
		return directiveAt(s, i)
	case pCookie:
		return cookieAt(s, i)
	case pDiscordToken:
		return discordTokenAt(s, i)
	case pTerraformToken:
		return terraformTokenAt(s, i)
	case pPuTTYKey:
		return puttyPrivateAt(s, i)
	case pWindowsCredential:
		return netCommandAt(s, i)
	case pLocalPassword:
		return localizedPasswordAt(s, i)
	}
	re := anchored[p]
	if !span {
		if re.MatchString(s[i:]) {
			return match{p: p, at: i, start: i, end: i}
		}
		return noMatch
	}
	loc := re.FindStringIndex(s[i:])
	if loc == nil {
		return noMatch
	}
	end := i + loc[1]
	switch p {
	case pPEM:
		return match{p: p, at: i, start: i, end: pemHeaderEnd(s, end)}
	case pAWS:
		// The secret key pasted after its id goes with it.
		return match{p: p, at: i, start: i, end: awsSecretAfterID(s, trimWordEnd(s, i, end))}
	}
	return match{p: p, at: i, start: i, end: trimWordEnd(s, i, end)}
}

// trimWordEnd returns end without the character a trailing \b may have
// consumed after the credential s[i:end].
func trimWordEnd(s string, i, end int) int {
	if r, w := utf8.DecodeLastRuneInString(s[i:end]); end > i && !isPyWord(r) {
		end -= w
	}
	return end
}

// wordStartCandidates returns the patterns that may match at the start of
// t, which begins with an ASCII letter at a word boundary. Prefixes of
// case-insensitive patterns are compared case-insensitively, the others
// exactly. A candidate only has to be possible; its regexp decides.
func wordStartCandidates(t string) uint64 {
	m := bit(len(t) > 1 && exactHead(t) && vendorPrefixAt(t), pVendorToken)
	c1 := byte(0) // the second byte, which a command's name is first tested by
	if len(t) > 1 {
		c1 = t[1]
	}
	if len(t) > 1 && localizedHeadSet[t[0]][t[1]>>6]>>(t[1]&63)&1 != 0 {
		m |= bit(localizedStart(t), pLocalPassword)
	}
	if l := (c1 | 0x20) - 'a'; l < 26 && basePairs[(t[0]|0x20)-'a']>>l&1 == 0 && (len(t) < 2 || !exactHead(t)) {
		return m // a pair only a word for a password in another language starts (he, sa, ad, ...)
	}
	switch t[0] | 0x20 {
	case 'a':
		m |= bit(sepFold(t, "api", 'k'), pAPIKey) |
			bit(sepFold(t, "api", 't'), pAPIToken) |
			bit(sepFold(t, "access", 't'), pAccessToken) |
			bit(hasPrefixFold(t, "appl_"), pRevenueCat) |
			bit(strings.HasPrefix(t, "AKIA") || strings.HasPrefix(t, "ASIA"), pAWS) |
			bit(strings.HasPrefix(t, "AIza"), pGoogleAPIKey) |
			bit(hasPrefixFold(t, "aws"), pAWSSecret) |
			bit(hasPrefixFold(t, "authorization"), pAuthHeader)
	case 'b':
		m |= bit(hasPrefixFold(t, "bearer"), pBearerToken) |
			bit(hasPrefixFold(t, "bearer"), pBearerValue) |
			bit(hasPrefixFold(t, "basic"), pBasicValue) |
			bit(strings.HasPrefix(t, "bdn_"), pBdnToken)
	case 'c':
		m |= bit(sepFold(t, "client", 's'), pClientSecret) |
			bit(c1|0x20 == 'r' && credentialWordLen(t) > 0, pSpokenAssignment) |
			bit(hasPrefixFold(t, "convertto-securestring") || c1 == 'h' && strings.HasPrefix(t, "chpasswd"), pCLICredential) |
			bit(hasPrefixFold(t, "cookie"), pCookie)
	case 'e':
		m |= bit(strings.HasPrefix(t, "eyJ"), pJWT) |
			bit(c1 == 'N' && strings.HasPrefix(t, "ENV "), pConfigValue)
	case 'g':
		m |= bit(len(t) >= 4 && t[0] == 'g' && t[1] == 'h' && isOneOf(t[2], "pousr") && t[3] == '_', pGitHubToken) |
			bit(strings.HasPrefix(t, "github_pat_"), pGitHubPAT) |
			bit(strings.HasPrefix(t, "glpat-"), pGitLab)
	case 'h':
		m |= bit(hasPrefixFold(t, "hf_"), pHuggingFace) |
			bit(c1 == 't' && strings.HasPrefix(t, "htpasswd"), pCLICredential)
	case 'i':
		m |= bit(hasPrefixFold(t, "is") && (len(t) == 2 || t[2] == ' ' || t[2] == '\t'), pSpokenAssignment) |
			bit(c1|0x20 == 'd' && hasPrefixFold(t, "identified"), pConfigValue)
	case 'k':
		m |= bit(hasPrefixFold(t, "keystore"), pPrivateKeyKeyword) | stripeSK(t)
	case 'l':
		m |= bit(strings.HasPrefix(t, base64PEMPrefix), pBase64PEM) |
			bit(c1|0x20 == 'o' && credentialWordLen(t) > 0, pSpokenAssignment)
	case 'n':
		m |= bit(isDiscordHead(t), pDiscordToken) |
			bit(strings.HasPrefix(t, "npm_"), pNPM) |
			bit(hasPrefixFold(t, "net") && len(t) > 3 && (t[3] == ' ' || t[3] == '\t'), pWindowsCredential)
	case 'm':
		m |= bit(isDiscordHead(t), pDiscordToken) |
			bit(hasPrefixFold(t, "masterauth"), pConfigValue)
	case 'o':
		m |= bit(isDiscordHead(t), pDiscordToken)
	case 'p':
		m |= bit(hasPrefixFold(t, "password"), pPassword) |
			bit(hasPrefixFold(t, "password "), pConfigValue) |
			bit(hasPrefixFold(t, "passwd"), pPasswd) |
			bit(hasPrefixFold(t, "pass") || c1|0x20 == 'w', pSpokenAssignment) |
			bit(c1 == 'a' && strings.HasPrefix(t, "passwd"), pCLICredential) |
			bit(strings.HasPrefix(t, puttyPrivateHeader), pPuTTYKey) |
			bit(sepFold(t, "private", 'k'), pPrivateKeyKeyword) | stripeSK(t) |
			bit(c1 == 'r' && strings.HasPrefix(t, "proxy_set_header"), pConfigValue)
	case 'r':
		m |= bit(sepFold(t, "refresh", 't'), pRefreshToken) | stripeSK(t) |
			bit(c1 == 'a' && strings.HasPrefix(t, "rabbitmqctl"), pCLICredential) |
			bit(c1|0x20 == 'e' && (hasPrefixFold(t, "requirepass") || hasPrefixFold(t, "requestheader")), pConfigValue)
	case 's':
		m |= bit(sepFold(t, "service", 'r'), pServiceRole) |
			bit(sepFold(t, "ssh", 'k'), pPrivateKeyKeyword) |
			bit(hasPrefixFold(t, "stripe"), pStripeKeyword) |
			bit(strings.HasPrefix(t, "sk-"), pOpenAI) | stripeSK(t) |
			bit(hasPrefixFold(t, "secret"), pAWSSecret) |
			bit(c1|0x20 == 'e' && hasPrefixFold(t, "setenv"), pConfigValue) |
			bit((c1 == 'q' || c1 == 'm') && (strings.HasPrefix(t, "sqlplus") || strings.HasPrefix(t, "smbpasswd")), pCLICredential)
	case 'x':
		m |= bit(strings.HasPrefix(t, "xox"), pSlack)
	case 'y':
		m |= bit(strings.HasPrefix(t, "ya29."), pGoogleOAuth)
	}
	return m
}

// wordStartPairs are the first two letters, lower case, of every prefix
// wordStartCandidates tests, but the vendor tokens' (vendor.go) and a
// Discord token's, whose prefixes are case-sensitive (exactHead tests
// their first two bytes), and the words for a password in other
// languages (words.go), whose pairs localizedPairs adds.
const wordStartPairs = "ac ai ak ap as au aw ba bd be ch cl co cr en ey gh gi gl hf ht id is ke kk lo ls ma ne np pa pk pr pw ra re rk se sk sm sq ss st xo ya"

// allWordStartPairs are wordStartPairs and localizedPairs, each once.
var allWordStartPairs = func() (pairs []string) {
	seen := map[string]bool{}
	for _, p := range append(strings.Fields(wordStartPairs), localizedPairs...) {
		if !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
	}
	return pairs
}()

// basePairs[c-'a'] has bit l-'a' set when one of wordStartPairs is c
// and l: the pairs of the prefixes wordStartCandidates's switch tests.
var basePairs = func() (t [26]uint32) {
	for _, pair := range strings.Fields(wordStartPairs) {
		t[pair[0]-'a'] |= 1 << (pair[1] - 'a')
	}
	return t
}()

// secondLetters[c-'a'] has bit l-'a' set when a prefix tested by
// wordStartCandidates begins with the letters c and l (lower case).
var secondLetters = func() (t [26]uint32) {
	for _, pair := range allWordStartPairs {
		t[pair[0]-'a'] |= 1 << (pair[1] - 'a')
	}
	return t
}()

// mayStartPattern reports whether wordStartCandidates(t) may be non-zero,
// by t's first two bytes: a cheap test that rejects almost every word.
// t begins with an ASCII letter.
func mayStartPattern(t string) bool {
	if len(t) < 2 {
		return false
	}
	l := (t[1] | 0x20) - 'a'
	return l < 26 && secondLetters[(t[0]|0x20)-'a']>>l&1 != 0 || exactHead(t)
}

// exactHeads are the first two bytes of the prefixes tested case by
// case: the vendor tokens', a Discord token's, and those of the words
// for a password whose second letter is not ASCII (lösenord).
func exactHeads() []string {
	var heads []string
	for _, v := range vendorTokens {
		heads = append(heads, v.prefix[:2])
	}
	heads = append(heads, discordHeads...)
	return append(heads, localizedHeads...)
}

// exactHead reports whether the first two bytes of t (two at least) are
// one of exactHeads: the scan's cheap test, exact as the prefixes are,
// so that prose words pass it seldom.
func exactHead(t string) bool {
	return exactHeadSet[t[0]][t[1]>>6]>>(t[1]&63)&1 != 0
}

// exactHeadSet[c] is the set of the bytes that follow c in one of
// exactHeads (a 256-bit set, four words).
var exactHeadSet = func() (t [256][4]uint64) {
	for _, h := range exactHeads() {
		c0, c1 := h[0], h[1]
		t[c0][c1>>6] |= 1 << (c1 & 63)
	}
	return t
}()

// dotCandidates returns the patterns that may match at s[i] == '.': a
// dotenv name, a Terraform Cloud token's marker.
func dotCandidates(s string, i int) uint64 {
	switch {
	case hasPrefixFold(s[i+1:], "env"):
		return 1 << pDotenv
	case strings.HasPrefix(s[i:], terraformMarker):
		return 1 << pTerraformToken
	}
	return 0
}

// colonAt runs the patterns found at a ':' by what follows it: an FCM
// server key's marker, a .pgpass line's port.
func colonAt(s string, i int, enabled uint64) match {
	if i+1 >= len(s) {
		return noMatch
	}
	switch c := s[i+1]; {
	case c == 'A':
		if enabled&(1<<pFCMServerKey) != 0 && strings.HasPrefix(s[i:], fcmMarker) {
			return fcmServerKeyAt(s, i)
		}
	case isDigit(c) || c == '*':
		if enabled&(1<<pPgpass) != 0 {
			return pgpassAt(s, i)
		}
	}
	return noMatch
}

// punctAt runs the patterns found at a '~' (an Azure client secret's
// "Q~") or a '/' (a Windows option: /pass:X).
func punctAt(s string, i int, enabled uint64) match {
	switch s[i] {
	case '~':
		if i >= 5 && s[i-1] == 'Q' && enabled&(1<<pAzureClientSecret) != 0 {
			return azureClientSecretAt(s, i)
		}
	case '/':
		if i+2 < len(s) && (s[i+1]|0x20) == 'p' && enabled&(1<<pWindowsCredential) != 0 {
			return slashOptionAt(s, i)
		}
	}
	return noMatch
}

// highAt runs, at a non-ASCII lead byte, the words for a password that
// start with it (Turkish, Russian, Chinese, Japanese, Korean). It stays
// out of scan's loop, which ASCII text runs through.
//
//go:noinline
func highAt(s string, i int, enabled uint64) match {
	if localizedLead[s[i]] && enabled&(1<<pLocalPassword) != 0 {
		return localizedPasswordAt(s, i)
	}
	return noMatch
}

// asciiWord[c] is isASCIIWord(c).
var asciiWord = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isASCIIWord(byte(c))
	}
	return t
}()

// wordEnd returns the end of the run of ASCII word bytes that holds s[i].
func wordEnd(s string, i int) int {
	for i++; i < len(s) && asciiWord[s[i]]; i++ {
	}
	return i
}

// bit returns the mask for pattern p if ok.
func bit(ok bool, p int) uint64 {
	if ok {
		return 1 << p
	}
	return 0
}

// stripeSK tests the case-sensitive prefix [sprk]k_.
func stripeSK(t string) uint64 {
	return bit(len(t) >= 3 && isOneOf(t[0], "sprk") && t[1] == 'k' && t[2] == '_', pStripeSK)
}

func isOneOf(c byte, set string) bool {
	for i := 0; i < len(set); i++ {
		if set[i] == c {
			return true
		}
	}
	return false
}

// sepFold reports whether t starts, ASCII case-insensitively, with head,
// then an optional '_' or '-', then the lower-case letter next.
func sepFold(t, head string, next byte) bool {
	if !hasPrefixFold(t, head) {
		return false
	}
	t = t[len(head):]
	if t != "" && (t[0] == '_' || t[0] == '-') {
		t = t[1:]
	}
	return t != "" && lowerASCII(t[0]) == next
}

// hasPrefixFold reports whether s starts with prefix under ASCII case
// folding; prefix must be lower case.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		if lowerASCII(s[i]) != prefix[i] {
			return false
		}
	}
	return true
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func isASCIILetter(c byte) bool {
	c |= 0x20
	return c >= 'a' && c <= 'z'
}

func isASCIIWord(c byte) bool {
	return isASCIILetter(c) || (c >= '0' && c <= '9') || c == '_'
}

// isPyWord reports whether r is a word character for Python's Unicode \w
// (a letter, a number or '_'). utf8.RuneError, which stands for an invalid
// byte, is not.
func isPyWord(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIWord(byte(r))
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r)
}

// foldRunes maps the runes Python's IGNORECASE equates with an ASCII
// letter to that letter.
var foldRunes = strings.NewReplacer("\u0130", "i", "\u0131", "i", "\u017f", "s", "\u212a", "k").Replace

// hasFoldRune reports whether s contains a rune handled by foldRunes.
func hasFoldRune(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		switch s[i] {
		case 0xc4:
			if s[i+1] == 0xb0 || s[i+1] == 0xb1 {
				return true
			}
		case 0xc5:
			if s[i+1] == 0xbf {
				return true
			}
		case 0xe2:
			if s[i+1] == 0x84 && i+2 < len(s) && s[i+2] == 0xaa {
				return true
			}
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// hasLetterAndDigit reports whether v holds an ASCII letter and a digit.
func hasLetterAndDigit(v string) bool {
	letter, digit := false, false
	for i := 0; i < len(v) && !(letter && digit); i++ {
		letter = letter || isASCIILetter(v[i])
		digit = digit || isDigit(v[i])
	}
	return letter && digit
}
