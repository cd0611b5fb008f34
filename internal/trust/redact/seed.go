package redact

import (
	_ "embed"
	"strings"
)

// Seed phrases. A wallet's mnemonic (BIP-0039) is 12 to 24 words drawn
// from a fixed list of 2,048, and it alone gives the wallet away; it has
// no shape but its words. seedPhraseAt looks for seedMinWords or more
// words of the list in a row (any case), separated only by blanks, line
// breaks, commas, hyphens and list numbers ("1) abandon 2. ability
// ..."). Prose does not string so many of them
// together: in the 23 MB of text of this repository's corpora, tests and
// reference material, the longest run is 7 words ("Usage You can easily
// call this method").

// seedMinWords is the length of the shortest mnemonic.
const seedMinWords = 12

//go:embed wordlist/bip39-english.txt
var bip39Text string

// bip39 is the BIP-0039 English list (wordlist/ORIGIN): words of 3 to 8
// lower-case letters.
var bip39 = func() map[string]struct{} {
	m := make(map[string]struct{}, 2048)
	for _, w := range strings.Fields(bip39Text) {
		m[w] = struct{}{}
	}
	return m
}()

// seedPhraseAt finds the first run of seedMinWords or more words of the
// list at or after from. The span is the run, from its first word to its
// last.
func seedPhraseAt(s string, from int) match {
	const shortest = seedMinWords*4 - 1 // twelve 3-letter words and their separators
	if len(s)-from < shortest {
		return noMatch
	}
	count, start, end := 0, 0, 0
	for i := from; i < len(s); {
		c := s[i]
		if c >= '0' && c <= '9' { // a list number, "1." or "1)"
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			if i < len(s) && (s[i] == '.' || s[i] == ')') {
				i++
			}
			continue
		}
		if !isASCIILetter(c) {
			if !seedSeparator(c) {
				if count >= seedMinWords {
					break
				}
				count = 0
			}
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isASCIILetter(s[j]) {
			j++
		}
		if inBIP39(s[i:j]) && (j == len(s) || s[j] < 0x80) {
			if count == 0 {
				start = i
			}
			count, end = count+1, j
		} else {
			if count >= seedMinWords {
				break
			}
			count = 0
		}
		i = j
	}
	if count < seedMinWords {
		return noMatch
	}
	return match{p: pSeedPhrase, at: start, start: start, end: end}
}

// seedSeparator reports whether c may stand between two words of a
// mnemonic (besides a list number).
func seedSeparator(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '-'
}

// inBIP39 reports whether the ASCII letters w, in any case, are a word of
// the list.
func inBIP39(w string) bool {
	if len(w) < 3 || len(w) > 8 {
		return false
	}
	var lower [8]byte
	for i := 0; i < len(w); i++ {
		lower[i] = lowerASCII(w[i])
	}
	_, ok := bip39[string(lower[:len(w)])]
	return ok
}
