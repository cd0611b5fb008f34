package analyze

// Tokens returns the reference tokens of s: its runs of ASCII letters and
// digits, lower-cased, in order, duplicates kept (the reference's
// `[a-zA-Z0-9]+`). Everything else separates tokens: spaces,
// punctuation, '_', '-', '/', and every non-ASCII character (so "Café"
// gives "caf", and a name written only in non-Latin script has no
// tokens). Recognition and the turn compiler match names by these tokens,
// for parity with the reference's fixtures; retrieval uses Terms.
func Tokens(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		if !IsTokenByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && IsTokenByte(s[j]) {
			j++
		}
		out = append(out, lowerASCII(s[i:j]))
		i = j
	}
	return out
}

// IsTokenByte reports whether c is an ASCII letter or digit, a byte of a
// reference token.
func IsTokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lowerASCII lower-cases the ASCII letters of s, returning s itself when
// it has none in upper case.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// Words calls fn with every word of text (a maximal run of Unicode
// letters, digits and combining marks, as Terms splits it) and its byte
// offsets [start, end), in order, before any normalisation.
func Words(text string, fn func(word string, start, end int)) {
	for start, end := range words(text) {
		fn(text[start:end], start, end)
	}
}

// Lower lowercases w, without allocating when it is lowercase ASCII.
func Lower(w string) string { return lower(w) }
