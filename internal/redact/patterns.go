package redact

import (
	"regexp"
	"strconv"
	"strings"
)

// This file holds the credential pattern battery. The set, its order and the
// per-pattern case flag follow the Python reference (core/redaction.py,
// conformance oracle v0.11.0): twelve keyword-shaped patterns, all
// case-insensitive, then fourteen value-shaped patterns, case-sensitive except
// the RevenueCat and HuggingFace prefixes.
//
// Go's regexp is RE2, so the Python expressions cannot be used verbatim:
//
//   - Python's \b on str patterns is Unicode-aware (a word character is a
//     letter, a number or '_', i.e. [\p{L}\p{N}_]), while RE2's \b only knows
//     ASCII. Each boundary is therefore spelled out with explicit character
//     classes. The expressions are only used to answer "does a match exist
//     anywhere" (the whole value is replaced on a hit), so a boundary may
//     consume the neighbouring character without changing the answer.
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
	// leadB stands for a Python \b placed just before a word character.
	leadB = `(?:^|` + nonWordClass + `)`
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
	// python is the reference expression, kept for documentation and tests.
	python string
	// expr is the RE2 translation.
	expr string
}

// ci wraps body in a case-insensitive group.
func ci(body string) string { return `(?i:` + body + `)` }

var patterns = []pattern{
	// Keyword-shaped triggers.
	{"api_key", true, `\bapi[_-]?keys?\b`,
		leadB + ci(`ap`+foldI+`[_-]?keys?`) + trailB},
	{"api_token", true, `\bapi[_-]?tokens?\b`,
		leadB + ci(`ap`+foldI+`[_-]?tokens?`) + trailB},
	{"access_token", true, `\baccess[_-]?tokens?\b`,
		leadB + ci(`access[_-]?tokens?`) + trailB},
	{"refresh_token", true, `\brefresh[_-]?tokens?\b`,
		leadB + ci(`refresh[_-]?tokens?`) + trailB},
	{"bearer_token", true, `\bbearer\s+token\b`,
		leadB + ci(`bearer`+pyWhitespace+`+token`) + trailB},
	{"service_role", true, `\bservice[_-]?role\b`,
		leadB + ci(`serv`+foldI+`ce[_-]?role`) + trailB},
	{"client_secret", true, `\bclient[_-]?secret\b`,
		leadB + ci(`cl`+foldI+`ent[_-]?secret`) + trailB},
	{"password", true, `\bpassword\b`,
		leadB + ci(`password`) + trailB},
	{"passwd", true, `\bpasswd\b`,
		leadB + ci(`passwd`) + trailB},
	{"stripe_keyword", true, `\bstripe\s+(?:key|secret|token)\b`,
		leadB + ci(`str`+foldI+`pe`+pyWhitespace+`+(?:key|secret|token)`) + trailB},
	{"private_key_keyword", true, `\b(?:keystore|private[_-]?key|ssh[_-]?key)\b`,
		leadB + ci(`keystore|pr`+foldI+`vate[_-]?key|ssh[_-]?key`) + trailB},
	{"dotenv", true, `\.env\b`,
		`\.` + ci(`env`) + trailB},

	// Value-shaped triggers.
	{"stripe_sk", false, `\b[sprk]k_(?:live|test)_[A-Za-z0-9]{8,}\b`,
		leadB + `[sprk]k_(?:live|test)_[A-Za-z0-9]{8,}` + trailB},
	{"revenuecat_appl", true, `\bappl_[A-Za-z0-9]{10,}\b`,
		leadB + ci(`appl_`+foldAlnum+`{10,}`) + trailB},
	{"huggingface_hf", true, `\bhf_[A-Za-z0-9]{10,}\b`,
		leadB + ci(`hf_`+foldAlnum+`{10,}`) + trailB},
	{"aws_akia", false, `\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
		leadB + `(?:AKIA|ASIA)[0-9A-Z]{16}` + trailB},
	{"github_ghp", false, `\bgh[pousr]_[A-Za-z0-9]{36,}\b`,
		leadB + `gh[pousr]_[A-Za-z0-9]{36,}` + trailB},
	{"github_pat", false, `\bgithub_pat_[0-9A-Za-z_]{22,}\b`,
		leadB + `github_pat_[0-9A-Za-z_]{22,}` + trailB},
	{"gitlab_glpat", false, `\bglpat-[0-9A-Za-z_\-]{20,}\b`,
		leadB + `glpat-` + dashTail(`0-9A-Za-z_`, 20, false)},
	{"slack_xoxb", false, `\bxox[baprs]-[0-9A-Za-z-]{10,}\b`,
		leadB + `xox[baprs]-` + dashTail(`0-9A-Za-z`, 10, false)},
	{"openai_anthropic_sk", false, `\bsk-(?:ant-)?[A-Za-z0-9_\-]{20,}\b`,
		leadB + `sk-(?:ant-)?` + dashTail(`A-Za-z0-9_`, 20, false)},
	{"google_aiza", false, `\bAIza[0-9A-Za-z_\-]{35}\b`,
		leadB + `AIza` + dashTail(`0-9A-Za-z_`, 35, true)},
	{"google_ya29", false, `\bya29\.[0-9A-Za-z_\-]{20,}\b`,
		leadB + `ya29\.` + dashTail(`0-9A-Za-z_`, 20, false)},
	{"npm_token", false, `\bnpm_[0-9A-Za-z]{36}\b`,
		leadB + `npm_[0-9A-Za-z]{36}` + trailB},
	{"jwt", false, `\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{4,}\b`,
		leadB + `eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.` + dashTail(`A-Za-z0-9_`, 4, false)},
	{"pem_private_key", false, `-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----`,
		`-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----`},
}

// compiled holds one regexp per pattern (same order as patterns); combined is
// their alternation, used for the actual check so a candidate string is
// scanned once.
var compiled, combined = compilePatterns()

func compilePatterns() ([]*regexp.Regexp, *regexp.Regexp) {
	res := make([]*regexp.Regexp, len(patterns))
	alts := make([]string, len(patterns))
	for i, p := range patterns {
		res[i] = regexp.MustCompile(p.expr)
		alts[i] = `(?:` + p.expr + `)`
	}
	return res, regexp.MustCompile(strings.Join(alts, "|"))
}
