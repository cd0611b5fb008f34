package redact

import (
	_ "embed"
	"slices"
	"strings"
)

// Seed phrases. A wallet's mnemonic (BIP-0039) is 12 to 24 words drawn
// from a fixed list of 2,048, and it alone gives the wallet away; it has
// no shape but its words. seedPhraseAt looks for seedMinWords or more
// words of the list in a row (any case, seedMinDistinct of them
// different at least), separated only by blanks, line breaks, commas,
// hyphens and list numbers ("1) abandon 2. ability ..."). Prose does not
// string so many of them together: in the 23 MB of text of this
// repository's corpora, tests and reference material, the longest run is
// 7 words ("Usage You can easily call this method").

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
//
// Every word of the list has 3 to 8 letters, so the text is first read
// for seedMinWords such words in a row (a byte loop, no lookup); prose
// rarely has them, as its short and long words ("a", "to", "federation")
// break the row. Only such a row is then read word by word against the
// list (seedRunIn).
func seedPhraseAt(s string, from int) match {
	const shortest = seedMinWords*4 - 1 // twelve 3-letter words and their separators
	if len(s)-from < shortest || !enoughSeparators(s[from:]) {
		return noMatch
	}
	words, rowStart := 0, from // words of 3 to 8 letters in a row, and where the row starts
	for i := from; i < len(s); {
		// The bytes up to the next word: separators keep the row, a list
		// number too ("1." or "1)"), anything else breaks it.
		for i < len(s) {
			class := seedClass[s[i]]
			if class == seedLetter {
				break
			}
			i++
			switch class {
			case seedSep:
			case seedDigit:
				for i < len(s) && seedClass[s[i]] == seedDigit {
					i++
				}
				if i < len(s) && seedClass[s[i]] == seedDotParen {
					i++
				} else if i < len(s) && seedClass[s[i]] == seedLetter {
					words = 0 // digits glued to a word
				}
			default:
				words = 0
			}
		}
		// The word.
		start := i
		for i < len(s) && seedClass[s[i]] == seedLetter {
			i++
		}
		if n := i - start; n < 3 || n > 8 || i < len(s) && (seedClass[s[i]] == seedHigh || seedClass[s[i]] == seedDigit) {
			words = 0 // not a word of the list, or glued to what follows it
			continue
		}
		if words++; words == 1 {
			rowStart = start
		}
		if words == seedMinWords {
			m, next := seedRunIn(s, rowStart)
			if m.p >= 0 {
				return m
			}
			i, words = max(next, i), 0 // on after the row
		}
	}
	return noMatch
}

// Byte classes for seedPhraseAt.
const (
	seedOther    = iota
	seedLetter   // ASCII letter
	seedDigit    // ASCII digit
	seedSep      // what may stand between two words (seedSeparators)
	seedDotParen // '.' or ')', after a list number
	seedHigh     // a byte of a non-ASCII character
)

var seedClass = func() (t [256]uint8) {
	for c := range 256 {
		switch b := byte(c); {
		case isASCIILetter(b):
			t[c] = seedLetter
		case b >= '0' && b <= '9':
			t[c] = seedDigit
		case strings.IndexByte(seedSeparators, b) >= 0:
			t[c] = seedSep
		case b == '.' || b == ')':
			t[c] = seedDotParen
		case b >= 0x80:
			t[c] = seedHigh
		}
	}
	return t
}()

// enoughSeparators reports whether s has the seedMinWords-1 separators
// that seedMinWords words need, counted with the byte counts the standard
// library runs a word at a time.
func enoughSeparators(s string) bool {
	n := 0
	for i := range len(seedSeparators) {
		if n += strings.Count(s, seedSeparators[i:i+1]); n >= seedMinWords-1 {
			return true
		}
	}
	return false
}

// seedRunIn reads the words from i on against the list, as long as they
// may belong to a mnemonic (until a character or a word that may not),
// and returns the first run of seedMinWords or more words of the list,
// or noMatch and where the reading stopped.
func seedRunIn(s string, i int) (match, int) {
	count, start, end := 0, 0, 0
	for {
		st, en, next, broken := nextSeedWord(s, i)
		listed := st >= 0 && !broken && inBIP39(s[st:en])
		if !listed {
			if count >= seedMinWords && seedVaried(s[start:end]) {
				return match{p: pSeedPhrase, at: start, start: start, end: end}, end
			}
			count = 0
		}
		if st < 0 || broken || en-st < 3 || en-st > 8 {
			return noMatch, i
		}
		if listed {
			if count == 0 {
				start = st
			}
			count, end = count+1, en
		}
		i = next
	}
}

// seedMinDistinct is how many different words a mnemonic's run holds at
// least. A wallet draws its words at random from 2,048, so twelve of them
// repeat one rarely and two almost never (about one phrase in a
// thousand); text that repeats a few words ("long action long action
// ...") is no mnemonic.
const seedMinDistinct = seedMinWords - 2

// seedVaried reports whether the run of words run holds seedMinDistinct
// different words (any case).
func seedVaried(run string) bool {
	var seen [seedMinDistinct]string
	n := 0
	for i := 0; n < seedMinDistinct; {
		st, en, next, _ := nextSeedWord(run, i)
		if st < 0 {
			return false
		}
		w := run[st:en]
		if !slices.ContainsFunc(seen[:n], func(v string) bool { return strings.EqualFold(v, w) }) {
			seen[n] = w
			n++
		}
		i = next
	}
	return true
}

// nextSeedWord finds the next word of ASCII letters at or after i: its
// bounds and where reading goes on (start < 0 when there is none), and
// whether a character that cannot stand in a mnemonic came before it. A
// word glued to a non-ASCII character or to digits ("zoo2", "2zoo")
// counts as such a character, so two words of a run always have a
// separator between them (which enoughSeparators counts).
func nextSeedWord(s string, i int) (start, end, next int, broken bool) {
	// class is the class of s[i], seedOther past the end.
	class := func(i int) uint8 {
		if i < len(s) {
			return seedClass[s[i]]
		}
		return seedOther
	}
	for i < len(s) {
		switch class(i) {
		case seedDigit: // a list number, "1." or "1)"
			for class(i) == seedDigit {
				i++
			}
			if class(i) == seedDotParen {
				i++
			} else if class(i) == seedLetter {
				broken = true // digits glued to a word
			}
		case seedLetter:
			j := i + 1
			for class(j) == seedLetter {
				j++
			}
			if c := class(j); c == seedHigh || c == seedDigit {
				broken = true // glued to what follows it
				i = j
				continue
			}
			return i, j, j, broken
		case seedSep:
			i++
		default:
			broken = true
			i++
		}
	}
	return -1, -1, len(s), broken
}

// seedSeparators are the bytes that may stand between two words of a
// mnemonic (besides a list number); '"' for a JSON array of its words.
const seedSeparators = " \t\n\r,-\""

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
