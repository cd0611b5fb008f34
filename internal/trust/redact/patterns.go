package redact

import (
	"regexp"
	"strconv"
)

// This file holds the reference's credential pattern battery; superset.go
// adds the patterns of our documented superset. The set, its order and the
// per-pattern case flag follow the Python reference (core/redaction.py,
// conformance oracle v0.11.0): twelve keyword-shaped patterns, all
// case-insensitive, then fourteen value-shaped patterns, case-sensitive except
// the RevenueCat and HuggingFace prefixes.
//
// Go's regexp is RE2, so the Python expressions cannot be used verbatim:
//
//   - Python's \b on str patterns is Unicode-aware (a word character is a
//     letter, a number or '_', i.e. [\p{L}\p{N}_]), while RE2's \b only knows
//     ASCII. A leading \b is checked in Go code by the scanner (scan.go),
//     which runs each expression anchored at a candidate start; a trailing
//     \b is spelled out with explicit character classes. The expressions
//     only answer "does a match exist" (the whole value is replaced on a
//     hit), so the trailing boundary may consume the next character.
//     (Plain RE2 \b would differ from Python next to non-ASCII letters and
//     digits: it would redact "éapi_key", which Python leaves alone, and
//     miss "glpat-<19 chars>-é", which Python redacts.)
//   - A trailing \b after a class that contains '-' (a non-word character)
//     means "followed by a word character" when the last matched character is
//     '-', and "followed by a non-word character or the end" otherwise. Those
//     tails are expanded into both cases (see dashTail).
//   - Python's \s is Unicode whitespace plus U+001C..U+001F; RE2's \s is
//     ASCII-only, so pyWhitespace lists the Python set explicitly.
//   - Under IGNORECASE Python also equates 'i' with U+0130 and U+0131, which
//     RE2's simple case folding does not; those two runes are added by hand
//     wherever a case-insensitive pattern contains an 'i'. (Both engines
//     already equate 's' with U+017F and 'k' with U+212A.)
//
// Remaining known difference: Go's unicode tables may be a newer Unicode
// version than the Python build's, so a letter added in a recent Unicode
// release can be a word character in one implementation and not the other.

const (
	// wordClass is Python's Unicode \w.
	wordClass = `[\p{L}\p{N}_]`
	// nonWordClass is its complement (invalid UTF-8 bytes decode to U+FFFD,
	// which falls here too).
	nonWordClass = `[^\p{L}\p{N}_]`
	// trailB stands for a Python \b placed just after a word character.
	trailB = `(?:$|` + nonWordClass + `)`
	// pyWhitespace is Python's Unicode \s.
	pyWhitespace = `[\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`
	// foldI is a case-insensitive 'i' as Python sees it (to be used inside
	// an (?i:...) group, which supplies 'I').
	foldI = `[iı\x{130}]`
	// foldAlnum is [A-Za-z0-9] as Python's IGNORECASE sees it (inside
	// (?i:...), which supplies U+017F and U+212A).
	foldAlnum = `[A-Za-z0-9ı\x{130}]`
)

// dashTail returns the RE2 equivalent of Python's `[word-]{min,}\b` (or
// `{min}` exactly when exact is set), where word is the body of an ASCII
// character class made only of word characters.
func dashTail(word string, min int, exact bool) string {
	rep := "{" + strconv.Itoa(min-1) + ",}"
	if exact {
		rep = "{" + strconv.Itoa(min-1) + "}"
	}
	return `[` + word + `\-]` + rep + `(?:[` + word + `]` + trailB + `|-` + wordClass + `)`
}

// pattern is one entry of the battery.
type pattern struct {
	name string
	// caseInsensitive records the Python IGNORECASE flag.
	caseInsensitive bool
	// leadBoundary records a leading Python \b (checked by the scanner).
	leadBoundary bool
	// python is the reference expression, kept for documentation and tests.
	python string
	// body is the RE2 translation without the leading \b.
	body string
}

// ci wraps body in a case-insensitive group.
func ci(body string) string { return `(?i:` + body + `)` }

// Pattern indexes, in battery order; the scanner uses them as bit positions.
const (
	pAPIKey = iota
	pAPIToken
	pAccessToken
	pRefreshToken
	pBearerToken
	pServiceRole
	pClientSecret
	pPassword
	pPasswd
	pStripeKeyword
	pPrivateKeyKeyword
	pDotenv
	pStripeSK
	pRevenueCat
	pHuggingFace
	pAWS
	pGitHubToken
	pGitHubPAT
	pGitLab
	pSlack
	pOpenAI
	pGoogleAPIKey
	pGoogleOAuth
	pNPM
	pJWT
	pPEM
	// numReference is the size of the reference's battery; the patterns
	// of our superset (superset.go) follow it.
	numReference
)

var patterns = [numReference]pattern{
	// Keyword-shaped triggers (all case-insensitive).
	pAPIKey: {"api_key", true, true, `\bapi[_-]?keys?\b`,
		ci(`ap`+foldI+`[_-]?keys?`) + trailB},
	pAPIToken: {"api_token", true, true, `\bapi[_-]?tokens?\b`,
		ci(`ap`+foldI+`[_-]?tokens?`) + trailB},
	pAccessToken: {"access_token", true, true, `\baccess[_-]?tokens?\b`,
		ci(`access[_-]?tokens?`) + trailB},
	pRefreshToken: {"refresh_token", true, true, `\brefresh[_-]?tokens?\b`,
		ci(`refresh[_-]?tokens?`) + trailB},
	pBearerToken: {"bearer_token", true, true, `\bbearer\s+token\b`,
		ci(`bearer`+pyWhitespace+`+token`) + trailB},
	pServiceRole: {"service_role", true, true, `\bservice[_-]?role\b`,
		ci(`serv`+foldI+`ce[_-]?role`) + trailB},
	pClientSecret: {"client_secret", true, true, `\bclient[_-]?secret\b`,
		ci(`cl`+foldI+`ent[_-]?secret`) + trailB},
	pPassword: {"password", true, true, `\bpassword\b`,
		ci(`password`) + trailB},
	pPasswd: {"passwd", true, true, `\bpasswd\b`,
		ci(`passwd`) + trailB},
	pStripeKeyword: {"stripe_keyword", true, true, `\bstripe\s+(?:key|secret|token)\b`,
		ci(`str`+foldI+`pe`+pyWhitespace+`+(?:key|secret|token)`) + trailB},
	pPrivateKeyKeyword: {"private_key_keyword", true, true, `\b(?:keystore|private[_-]?key|ssh[_-]?key)\b`,
		ci(`keystore|pr`+foldI+`vate[_-]?key|ssh[_-]?key`) + trailB},
	pDotenv: {"dotenv", true, false, `\.env\b`,
		`\.` + ci(`env`) + trailB},

	// Value-shaped triggers (case-sensitive except appl_ and hf_).
	pStripeSK: {"stripe_sk", false, true, `\b[sprk]k_(?:live|test)_[A-Za-z0-9]{8,}\b`,
		`[sprk]k_(?:live|test)_[A-Za-z0-9]{8,}` + trailB},
	pRevenueCat: {"revenuecat_appl", true, true, `\bappl_[A-Za-z0-9]{10,}\b`,
		ci(`appl_`+foldAlnum+`{10,}`) + trailB},
	pHuggingFace: {"huggingface_hf", true, true, `\bhf_[A-Za-z0-9]{10,}\b`,
		ci(`hf_`+foldAlnum+`{10,}`) + trailB},
	pAWS: {"aws_akia", false, true, `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
		`(?:AKIA|ASIA)[0-9A-Z]{16}` + trailB},
	pGitHubToken: {"github_ghp", false, true, `\bgh[pousr]_[A-Za-z0-9]{36,}\b`,
		`gh[pousr]_[A-Za-z0-9]{36,}` + trailB},
	pGitHubPAT: {"github_pat", false, true, `\bgithub_pat_[0-9A-Za-z_]{22,}\b`,
		`github_pat_[0-9A-Za-z_]{22,}` + trailB},
	pGitLab: {"gitlab_glpat", false, true, `\bglpat-[0-9A-Za-z_\-]{20,}\b`,
		`glpat-` + dashTail(`0-9A-Za-z_`, 20, false)},
	pSlack: {"slack_xoxb", false, true, `\bxox[baprs]-[0-9A-Za-z-]{10,}\b`,
		`xox[baprs]-` + dashTail(`0-9A-Za-z`, 10, false)},
	pOpenAI: {"openai_anthropic_sk", false, true, `\bsk-(?:ant-)?[A-Za-z0-9_\-]{20,}\b`,
		`sk-(?:ant-)?` + dashTail(`A-Za-z0-9_`, 20, false)},
	pGoogleAPIKey: {"google_aiza", false, true, `\bAIza[0-9A-Za-z_\-]{35}\b`,
		`AIza` + dashTail(`0-9A-Za-z_`, 35, true)},
	pGoogleOAuth: {"google_ya29", false, true, `\bya29\.[0-9A-Za-z_\-]{20,}\b`,
		`ya29\.` + dashTail(`0-9A-Za-z_`, 20, false)},
	pNPM: {"npm_token", false, true, `\bnpm_[0-9A-Za-z]{36}\b`,
		`npm_[0-9A-Za-z]{36}` + trailB},
	pJWT: {"jwt", false, true, `\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{4,}\b`,
		`eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.` + dashTail(`A-Za-z0-9_`, 4, false)},
	pPEM: {"pem_private_key", false, false, `-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----`,
		`-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----`},
}

// anchored[i] matches patterns[i] (minus its leading \b) at the start of
// its input only.
var anchored = func() (res [numReference]*regexp.Regexp) {
	for i, p := range patterns {
		res[i] = regexp.MustCompile(`^(?:` + p.body + `)`)
	}
	return res
}()

// caseInsensitiveMask has the bits of the case-insensitive patterns, the
// reference's IGNORECASE ones and those of the superset.
var caseInsensitiveMask = func() (m uint64) {
	for i, p := range patterns {
		if p.caseInsensitive {
			m |= 1 << i
		}
	}
	for i, p := range superset {
		if p.caseInsensitive {
			m |= 1 << (numReference + i)
		}
	}
	return m
}()

// Masks of pattern sets.
const (
	allPatterns = 1<<numPatterns - 1
	// referenceMask is the reference's battery.
	referenceMask = 1<<numReference - 1
	// keywordMask is the reference's keyword-shaped triggers: words that
	// say a credential is near, not the credential. Prose leaves them
	// alone (see Span).
	keywordMask = 1<<(pDotenv+1) - 1
)
