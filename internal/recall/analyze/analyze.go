// Package analyze is the one text analyser of the project: how prompt and
// library text become tokens and terms, which words are ignored, how two
// words count as near, and how strongly a name matches a prompt. Docs
// search (BM25, snippets), the offline embedder, deeper context,
// recognition and the turn compiler all take these rules from here.
//
// Two tokenisations exist, on purpose:
//
//   - Terms (and Each, CountAll, Normalize) for retrieval: a term is a
//     maximal run of Unicode letters and digits, lowercased, without the
//     stop words of a list, and reduced by a light suffix stemmer
//     (Stem). Terms are at most MaxTermLen bytes long; longer runs
//     (hashes, base64) are dropped.
//   - Tokens for reference parity: the reference's `[a-zA-Z0-9]+`
//     tokens, unstemmed, which recognition and the turn compiler need so
//     that the conformance fixtures keep their answers. TierOf is the
//     reference's match-tier ladder over them.
//
// The stopword lists are named and declared in stopwords.go, each saying
// who uses it; the parity lists are marked as such. Fuzzy matching
// (fuzzy.go) is Speller for a fixed vocabulary, Edits1 for a changing one
// and Distance for ranking identifiers.
package analyze

import (
	"iter"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTermLen is the longest term kept, in bytes.
const MaxTermLen = 40

// An Analyzer appends the terms of one word (a maximal run of letters
// and digits) to dst.
type Analyzer func(dst []string, word string) []string

// Prose is the analyzer of text: a word gives its Normalize term, if any.
func Prose(dst []string, word string) []string {
	if t, ok := Normalize(word); ok {
		dst = append(dst, t)
	}
	return dst
}

// Code is the analyzer of source code: an identifier also gives the parts
// of its camelCase spelling (createAgent gives createagent, create and
// agent), so a prose query finds the code that spells it as one word.
func Code(dst []string, word string) []string {
	dst = Prose(dst, word)
	if parts := camelParts(word); len(parts) > 1 {
		for _, p := range parts {
			dst = Prose(dst, p)
		}
	}
	return dst
}

// Terms returns the index terms of text, in order, repeats included.
func Terms(text string) []string { return termsOf(text, Prose) }

// CodeTerms returns the index terms of source code (see Code).
func CodeTerms(text string) []string { return termsOf(text, Code) }

// termsOf returns the terms the analyzer gives the words of text.
func termsOf(text string, analyzer Analyzer) []string {
	var out []string
	for start, end := range words(text) {
		out = analyzer(out, text[start:end])
	}
	return out
}

// Each calls fn with every term of text (by Prose) and the byte offsets
// [start, end) of the word it came from, in order. It is Terms without
// the allocation of a slice, for callers that only count.
func Each(text string, fn func(term string, start, end int)) {
	for start, end := range words(text) {
		if t, ok := Normalize(text[start:end]); ok {
			fn(t, start, end)
		}
	}
}

// First returns the byte offset of the first word of text whose Prose
// term is one of terms, or -1. It is Each stopped at the first match, for
// callers that need only where the match is.
func First(text string, terms []string) int {
	for start, end := range words(text) {
		if t, ok := Normalize(text[start:end]); ok && slices.Contains(terms, t) {
			return start
		}
	}
	return -1
}

// Normalize returns the term of one word: lowercased and stemmed. It
// reports false for stop words, words longer than MaxTermLen and
// one-letter words (but not single digits).
func Normalize(word string) (string, bool) {
	if len(word) > MaxTermLen {
		return "", false
	}
	w := lower(word)
	if English.Has(w) {
		return "", false
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsDigit(r) {
			return "", false
		}
	}
	return Stem(w), true
}

// words yields the byte offsets [start, end) of every word of text, in
// order: every maximal run of letters, digits and combining marks.
func words(text string) iter.Seq2[int, int] {
	return func(yield func(start, end int) bool) {
		start := -1
		for i, r := range text {
			if isWordRune(r) {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 {
				if !yield(start, i) {
					return
				}
				start = -1
			}
		}
		if start >= 0 {
			yield(start, len(text))
		}
	}
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// lower lowercases w, without allocating when it is lowercase ASCII.
func lower(w string) string {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(w)
		}
	}
	return w
}

// camelParts splits an identifier at lower-to-upper and letter-digit
// boundaries, and before the last capital of a run of capitals
// (HTTPServer gives HTTP and Server).
func camelParts(word string) []string {
	rs := []rune(word)
	var parts []string
	last := 0
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		split := unicode.IsLower(prev) && unicode.IsUpper(cur) ||
			unicode.IsLetter(prev) && unicode.IsDigit(cur) ||
			unicode.IsDigit(prev) && unicode.IsLetter(cur) ||
			unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
		if split {
			parts = append(parts, string(rs[last:i]))
			last = i
		}
	}
	return append(parts, string(rs[last:]))
}
