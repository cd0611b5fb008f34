package redact

import "strings"

// mayContainSecret is a cheap, conservative pre-check: it returns false only
// when no pattern of the battery can match s, so the regular expressions run
// only on the rare strings that carry a trigger prefix.
//
// It relies on the shape of the battery (keep it in sync when adding a
// pattern; FuzzText cross-checks it against the plain regexps):
//   - every pattern except dotenv and pem_private_key starts with a Python
//     \b followed by an ASCII letter, so a match can only start at an ASCII
//     letter whose previous byte is not an ASCII word byte (a non-ASCII
//     previous rune may or may not be a word character; such positions are
//     treated as candidates);
//   - dotenv starts with '.', pem_private_key with "-----BEGIN ";
//   - the only non-ASCII runes the case-insensitive patterns accept are
//     U+0130, U+0131, U+017F and U+212A; any string containing one of them
//     goes to the regexps.
func mayContainSecret(s string) bool {
	n := len(s)
	for i := 0; i < n; i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			if (c == 0xc4 || c == 0xc5 || c == 0xe2) && foldSpecial(s[i:]) {
				return true
			}
		case c == '.':
			if hasPrefixFold(s[i+1:], "env") {
				return true
			}
		case c == '-':
			if strings.HasPrefix(s[i:], "-----BEGIN ") {
				return true
			}
		case isASCIILetter(c):
			if (i == 0 || !isASCIIWord(s[i-1])) && wordStartHit(s[i:]) {
				return true
			}
		}
	}
	return false
}

// foldSpecial reports whether s starts with a rune that Python's IGNORECASE
// equates with an ASCII letter: U+0130 'İ', U+0131 'ı', U+017F 'ſ', U+212A
// KELVIN SIGN.
func foldSpecial(s string) bool {
	return strings.HasPrefix(s, "\u0130") || strings.HasPrefix(s, "\u0131") ||
		strings.HasPrefix(s, "\u017f") || strings.HasPrefix(s, "\u212a")
}

// wordStartHit checks the trigger prefixes that can begin at a word start;
// t starts with an ASCII letter. Case-insensitive patterns are checked with
// hasPrefixFold, case-sensitive ones exactly.
func wordStartHit(t string) bool {
	switch t[0] | 0x20 {
	case 'a':
		return sepFold(t, "api", "kt") || sepFold(t, "access", "t") ||
			hasPrefixFold(t, "appl_") || strings.HasPrefix(t, "AKIA") ||
			strings.HasPrefix(t, "ASIA") || strings.HasPrefix(t, "AIza")
	case 'b':
		return hasPrefixFold(t, "bearer")
	case 'c':
		return sepFold(t, "client", "s")
	case 'e':
		return strings.HasPrefix(t, "eyJ")
	case 'g':
		return isGitHubToken(t) || strings.HasPrefix(t, "github_pat_") ||
			strings.HasPrefix(t, "glpat-")
	case 'h':
		return hasPrefixFold(t, "hf_")
	case 'k':
		return hasPrefixFold(t, "keystore") || isStripeToken(t)
	case 'n':
		return strings.HasPrefix(t, "npm_")
	case 'p':
		return hasPrefixFold(t, "passw") || sepFold(t, "private", "k") || isStripeToken(t)
	case 'r':
		return sepFold(t, "refresh", "t") || isStripeToken(t)
	case 's':
		return sepFold(t, "service", "r") || sepFold(t, "ssh", "k") ||
			hasPrefixFold(t, "stripe") || isStripeToken(t) || strings.HasPrefix(t, "sk-")
	case 'x':
		return strings.HasPrefix(t, "xox")
	case 'y':
		return strings.HasPrefix(t, "ya29.")
	}
	return false
}

// isStripeToken matches the case-sensitive prefix [sprk]k_.
func isStripeToken(t string) bool {
	return len(t) >= 3 && strings.IndexByte("sprk", t[0]) >= 0 && t[1] == 'k' && t[2] == '_'
}

// isGitHubToken matches the case-sensitive prefix gh[pousr]_.
func isGitHubToken(t string) bool {
	return len(t) >= 4 && t[0] == 'g' && t[1] == 'h' &&
		strings.IndexByte("pousr", t[2]) >= 0 && t[3] == '_'
}

// sepFold reports whether t starts, ASCII case-insensitively, with head,
// an optional '_' or '-', then one of the lower-case letters in next.
func sepFold(t, head, next string) bool {
	if !hasPrefixFold(t, head) {
		return false
	}
	t = t[len(head):]
	if t != "" && (t[0] == '_' || t[0] == '-') {
		t = t[1:]
	}
	return t != "" && strings.IndexByte(next, lowerASCII(t[0])) >= 0
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

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func isASCIILetter(c byte) bool {
	return (c|0x20) >= 'a' && (c|0x20) <= 'z'
}

func isASCIIWord(c byte) bool {
	return isASCIILetter(c) || (c >= '0' && c <= '9') || c == '_'
}
