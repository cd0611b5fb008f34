package analyze

// Fuzzy matching: the one notion of a nearby word, in three forms for
// three uses. Speller finds, among the terms of a large, fixed vocabulary
// (a docs corpus), the nearest in character trigrams; it is built once
// per index. Edits1 lists the strings one typing error away from a word,
// for a caller to look up in a small vocabulary that changes with every
// write (the memory library), where building trigram postings per change
// would cost more than the lookups. Distance ranks whole identifiers by
// edit distance (the closest uids to an unknown one), where a trigram or
// a one-edit match would miss a uid several segments off.

import (
	"sync"
	"unicode/utf8"
)

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
	tallies  sync.Pool          // of *tally, one per Nearest under way
}

// tally counts the trigrams each term shares with the word of one
// Nearest call: shared is indexed by term (all zero between calls), and
// touched lists the terms counted, in the order first met.
type tally struct {
	shared  []int32
	touched []int32
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
	t, _ := s.tallies.Get().(*tally)
	if t == nil {
		t = &tally{shared: make([]int32, len(s.count))}
	}
	defer s.tallies.Put(t)
	t.touched = t.touched[:0]
	for _, g := range gs {
		for _, id := range s.postings[g] {
			if t.shared[id] == 0 {
				t.touched = append(t.touched, id)
			}
			t.shared[id]++
		}
	}
	best, bestDice := int32(-1), 0.0
	for _, id := range t.touched {
		c := t.shared[id]
		t.shared[id] = 0
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

// Distance measures how far apart two identifiers are, byte by byte: the
// third form of fuzzy matching, for suggesting the nearest of a set of
// uids to one that does not exist (case folding is the caller's). Unlike
// Speller it needs no index, and unlike Edits1 it ranks any two strings.
// It reuses its scratch space across calls; the zero value is ready, and
// it is not safe for concurrent use.
type Distance struct {
	rows   [2][]int
	counts [256]int // all zero between calls
}

// Edit returns the Levenshtein distance of a and b, capped at limit: it
// stops as soon as every way on is at least limit.
func (d *Distance) Edit(a, b string, limit int) int {
	for k := range d.rows {
		if cap(d.rows[k]) < len(b)+1 {
			d.rows[k] = make([]int, len(b)+1)
		}
		d.rows[k] = d.rows[k][:len(b)+1]
	}
	prev, cur := d.rows[0], d.rows[1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// Bound returns a lower bound of Edit(a, b), in time linear in their
// lengths: the larger of the number of bytes a has more of than b, and b
// more of than a (each edit changes either count by one at most). A
// candidate whose bound already reaches the distance to beat needs no
// Edit.
func (d *Distance) Bound(a, b string) int {
	for i := range len(a) {
		d.counts[a[i]]++
	}
	for i := range len(b) {
		d.counts[b[i]]--
	}
	more, fewer := 0, 0
	for _, s := range [2]string{a, b} {
		for i := range len(s) {
			if c := d.counts[s[i]]; c > 0 {
				more += c
			} else {
				fewer -= c
			}
			d.counts[s[i]] = 0
		}
	}
	return max(more, fewer)
}
