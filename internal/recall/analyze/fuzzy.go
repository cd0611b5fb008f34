package analyze

// Fuzzy matching: the one notion of a nearby word, in two forms for two
// vocabulary sizes. Speller finds, among the terms of a large, fixed
// vocabulary (a docs corpus), the nearest in character trigrams; it is
// built once per index. Edits1 lists the strings one typing error away
// from a word, for a caller to look up in a small vocabulary that changes
// with every write (the memory library), where building trigram postings
// per change would cost more than the lookups.

import "unicode/utf8"

// MinSimilarity is the least trigram similarity (a Dice coefficient) at
// which Speller takes an unknown word for a known term.
const MinSimilarity = 0.5

// Speller finds the known term nearest to an unknown word, by the
// character trigrams of both padded with ^ and $ (so "^id" and "cy$" mark
// the ends of "idempotency"): "idempotancy" finds idempotency. It is safe
// for concurrent use.
type Speller struct {
	postings map[string][]int32 // trigram → terms that have it, increasing
	count    []uint8            // distinct trigrams of each term, at most 255
}

// NewSpeller indexes the terms; a term is known by its index in terms.
func NewSpeller(terms []string) *Speller {
	s := &Speller{postings: map[string][]int32{}, count: make([]uint8, len(terms))}
	for id, t := range terms {
		gs := trigrams(t)
		s.count[id] = uint8(min(len(gs), 255))
		for _, g := range gs {
			s.postings[g] = append(s.postings[g], int32(id))
		}
	}
	return s
}

// Nearest returns the term with the highest Dice coefficient of trigrams
// with word, and that coefficient, if it reaches MinSimilarity; ties go to
// the lower index. Words under four characters are never matched.
func (s *Speller) Nearest(word string) (int32, float64, bool) {
	if utf8.RuneCountInString(word) < 4 {
		return 0, 0, false
	}
	gs := trigrams(word)
	shared := map[int32]int{}
	for _, g := range gs {
		for _, id := range s.postings[g] {
			shared[id]++
		}
	}
	best, bestDice := int32(-1), 0.0
	for id, c := range shared {
		d := 2 * float64(c) / float64(len(gs)+int(s.count[id]))
		if d > bestDice || d == bestDice && id < best {
			best, bestDice = id, d
		}
	}
	if best < 0 || bestDice < MinSimilarity {
		return 0, 0, false
	}
	return best, bestDice, true
}

// trigrams returns the distinct trigrams of ^word$, in order.
func trigrams(word string) []string {
	rs := append(append([]rune{'^'}, []rune(word)...), '$')
	var out []string
	seen := map[string]bool{}
	for i := 0; i+3 <= len(rs); i++ {
		g := string(rs[i : i+3])
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}

// editAlphabet is what Edits1 substitutes and inserts.
const editAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// Edits1 returns the strings one edit away from w (Damerau-Levenshtein:
// deletion, transposition, substitution, insertion over editAlphabet),
// without w itself. The first letter is kept: typing errors seldom touch
// it, and changing it turns ordinary words into library terms ("polite"
// into "iolite").
func Edits1(w string) []string {
	out := make([]string, 0, 2*len(w)*len(editAlphabet))
	b := make([]byte, 0, len(w)+1)
	for i := 1; i < len(w); i++ {
		out = append(out, w[:i]+w[i+1:])
	}
	for i := 1; i+1 < len(w); i++ {
		if w[i] != w[i+1] {
			b = append(append(append(append(b[:0], w[:i]...), w[i+1]), w[i]), w[i+2:]...)
			out = append(out, string(b))
		}
	}
	for i := 1; i < len(w); i++ {
		for j := 0; j < len(editAlphabet); j++ {
			if editAlphabet[j] != w[i] {
				b = append(append(append(b[:0], w[:i]...), editAlphabet[j]), w[i+1:]...)
				out = append(out, string(b))
			}
		}
	}
	for i := 1; i <= len(w); i++ {
		for j := 0; j < len(editAlphabet); j++ {
			b = append(append(append(b[:0], w[:i]...), editAlphabet[j]), w[i:]...)
			out = append(out, string(b))
		}
	}
	return out
}
