package analyze

import "strings"

// Stem reduces a lowercase English word to a stem, lightly: plurals (the
// S-stemmer's rules), the -ed and -ing endings (undoubling the consonant
// they leave, as in shipped and running), -ied to -y, and a final -e, so
// that configure, configured, configures and configuring share one stem.
// Words with anything but ASCII letters are returned unchanged, and so
// are words shorter than four letters.
func Stem(w string) string {
	if len(w) < 4 || !asciiLetters(w) {
		return w
	}
	w = plural(w)
	w, stripped := verbal(w)
	if stripped {
		w = undouble(w)
	}
	if len(w) >= 4 && w[len(w)-1] == 'e' && w[len(w)-2] != 'e' {
		w = w[:len(w)-1]
	}
	return w
}

// plural applies the S-stemmer: -ies to -y, -es to -e, -s dropped, with
// its exceptions (-eies, -aies, -aes, -ees, -oes, -us, -ss, -is).
func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4 && !strings.HasSuffix(w, "eies") && !strings.HasSuffix(w, "aies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "es") && !strings.HasSuffix(w, "aes") && !strings.HasSuffix(w, "ees") && !strings.HasSuffix(w, "oes"):
		return w[:len(w)-1]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "is"):
		return w[:len(w)-1]
	}
	return w
}

// verbal strips -ing and -ed when what is left has a vowel and at least
// three letters, and turns -ied into -y; it reports whether it stripped.
func verbal(w string) (string, bool) {
	switch {
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		return w[:len(w)-3] + "y", false
	case strings.HasSuffix(w, "ing") && len(w) >= 6 && hasVowel(w[:len(w)-3]):
		return w[:len(w)-3], true
	case strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed") && len(w) >= 5 && hasVowel(w[:len(w)-2]):
		return w[:len(w)-2], true
	}
	return w, false
}

// undouble drops one of a final doubled consonant other than l, s and z.
func undouble(w string) string {
	n := len(w)
	if n < 3 || w[n-1] != w[n-2] {
		return w
	}
	switch w[n-1] {
	case 'a', 'e', 'i', 'o', 'u', 'l', 's', 'z':
		return w
	}
	return w[:n-1]
}

func hasVowel(s string) bool { return strings.ContainsAny(s, "aeiouy") }

func asciiLetters(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}
