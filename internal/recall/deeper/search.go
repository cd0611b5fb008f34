package deeper

import (
	"cmp"
	"container/heap"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Ranking.
//
// Four doors lead from a prompt to a library row:
//
//	recognition  the row is about an entity the prompt names (recognition
//	             matched its name or an alias): the entity's own rows, and
//	             the sessions, workstreams and notes filed under it
//	tag          a word of the prompt is one of the row's tags, exactly
//	             (case aside): tags are keys, such as turn ids ("D5:10")
//	lexical      the row shares terms with the prompt, scored with BM25
//	             over the rows of its agent visible to the reader
//	fuzzy        the row holds a library term one edit (insertion,
//	             deletion, substitution, transposition) away from a prompt
//	             word the visible library does not know: a misspelling
//
// An entity's own row comes first when the prompt names the entity:
// recognition matched it, or every term of its name or of an alias is
// among the prompt's terms (exact or fuzzy), which finds "Kestral
// Ledger" and "the ledger of Kestrel". Then come the rows filed under a
// recognised entity or tagged with a prompt word, then the rest; within
// each tier, by BM25 score. A fuzzy term weighs fuzzyWeight of an exact
// one. Term statistics (document frequency, average length) are each
// agent's own, so one agent's many rows do not change how another
// agent's rows rank; the rows of the agents that publish an entity the
// prompt names weigh namedAgentBoost more. A note that asks (its text
// ends with a question mark) weighs askDiscount of one that tells: the
// turn that answers a question is the evidence, the question only points
// at it. A note that holds the kind of thing the prompt asks for (a time
// for "when", a name for "where", a number for "how many": answertype.go)
// weighs typeBoost more. A note spoken by someone the prompt names (its
// text reads "Nadia: ..." and the prompt asks about Nadia) weighs
// speakerBoost more: in a conversation, what a person says of themselves
// is where their facts are, while the other speaker's turns mention them
// in passing.
const (
	bm25K1      = 1.2
	bm25B       = 0.75
	fuzzyWeight = 0.7
	// entityPrior weighs an entity's own row (its definition) above the
	// sessions and notes that mention the same terms.
	entityPrior     = 1.3
	namedAgentBoost = 1.2
	askDiscount     = 0.7
	typeBoost       = 1.3
	speakerBoost    = 1.5
	// maxSpeakers bounds the speakers a segment numbers.
	maxSpeakers = 1024
	// maxQueryTerms bounds the distinct prompt terms searched; the rest
	// of a very long prompt is ignored. maxTagWords bounds the prompt
	// words looked up as tags.
	maxQueryTerms = 64
	maxTagWords   = 256
	// maxFuzzyTerms bounds the unknown prompt words expanded, and
	// maxVariants the library terms one word expands to.
	maxFuzzyTerms = 16
	maxVariants   = 3
	minFuzzyLen   = 4
	maxFuzzyLen   = 24
)

// Doors.
const (
	DoorRecognition = "recognition"
	DoorTag         = "tag"
	DoorLexical     = "lexical"
	DoorFuzzy       = "fuzzy"
	DoorL2          = "l2"
)

// query is one search.
type query struct {
	prompt  string
	level   visibility.Level
	reader  func(agent string) bool
	anchors map[string]bool // keys of the entities recognition matched
	boost   map[string]bool // agents publishing an entity recognition matched
	limit   int             // documents to return
	words   *lexicon        // WordNet's help (lexicon.go); nil for none
	focus   string          // the noun the prompt asks a kind of
	kinds   []string        // the terms of its kinds
}

// qterm is one library term searched for.
type qterm struct {
	term   string  // the library term
	word   string  // the prompt word it stands for
	weight float64 // 1, or fuzzyWeight
	fuzzy  bool
	df     int32 // in the visible library
}

// hit is one matching document.
type hit struct {
	seg   *segment
	doc   int32
	tier  int8 // 2: entity named by the prompt, 1: row filed under a recognised one or tagged, 0: other
	named bool // tier 2 by recognition (not by name terms alone)
	tag   bool // tier 1 by a tag
	score float64
	terms uint64  // the qterms the document holds, by index
	sim   float32 // cosine with the prompt, when the semantic arm ran
	dense bool    // found by the semantic arm alone
}

func (h *hit) door(qs []qterm) string {
	if h.dense {
		return DoorSemantic
	}
	if h.tag {
		return DoorTag
	}
	if h.named || (h.tier == 1) {
		return DoorRecognition
	}
	for i := range qs {
		if h.terms&(1<<i) != 0 && !qs[i].fuzzy {
			return DoorLexical
		}
	}
	return DoorFuzzy
}

// better orders hits: tier, score, then a stable order (kind, agent,
// position).
func better(a, b *hit) bool {
	if a.tier != b.tier {
		return a.tier > b.tier
	}
	if a.score != b.score {
		return a.score > b.score
	}
	ka, kb := a.seg.docs[a.doc].kind, b.seg.docs[b.doc].kind
	if ka != kb {
		return ka < kb
	}
	if c := strings.Compare(a.seg.agent, b.seg.agent); c != 0 {
		return c < 0
	}
	return a.seg.docs[a.doc].pos < b.seg.docs[b.doc].pos
}

// hitHeap is a min-heap of the best hits so far (the worst on top).
type hitHeap []hit

func (h hitHeap) Len() int           { return len(h) }
func (h hitHeap) Less(i, j int) bool { return better(&h[j], &h[i]) }
func (h hitHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *hitHeap) Push(x any)        { *h = append(*h, x.(hit)) }
func (h *hitHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// scratch holds per-document accumulators, reused across segments and
// queries.
type scratch struct {
	score   []float64
	terms   []uint64
	tier    []int8
	named   []bool
	tagged  []bool
	cover   []bool // the prompt's terms cover one of the entity's names
	touched []int32
	counts  map[uint64]uint8
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func (s *scratch) grow(n int) {
	if cap(s.score) < n {
		s.score = make([]float64, n)
		s.terms = make([]uint64, n)
		s.tier = make([]int8, n)
		s.named = make([]bool, n)
		s.tagged = make([]bool, n)
		s.cover = make([]bool, n)
	}
	s.score, s.terms, s.tier, s.named, s.tagged, s.cover = s.score[:n], s.terms[:n], s.tier[:n], s.named[:n], s.tagged[:n], s.cover[:n]
	if s.counts == nil {
		s.counts = map[uint64]uint8{}
	}
}

// search returns the best documents for q, best first, and the terms
// searched.
func (v *view) search(q query) ([]hit, []qterm) {
	segs := make([]*segment, 0, len(v.segs))
	for _, s := range v.segs {
		if q.reader == nil || q.reader(s.agent) {
			segs = append(segs, s)
		}
	}
	var n int64
	for _, s := range segs {
		c, _ := s.countAt(q.level)
		n += int64(c)
	}
	if n == 0 {
		return nil, nil
	}
	qs := queryTerms(v, segs, q)
	tags := tagWords(q.prompt)
	want := asksFor(q.prompt)
	if len(qs) == 0 && len(q.anchors) == 0 && len(tags) == 0 {
		return nil, qs
	}
	named := promptWords(q.prompt)

	sc := scratchPool.Get().(*scratch)
	defer scratchPool.Put(sc)
	top := make(hitHeap, 0, q.limit+1)
	for _, s := range segs {
		sc.grow(len(s.docs))
		sc.touched = sc.touched[:0]
		touch := func(d int32) {
			if sc.score[d] == 0 && sc.terms[d] == 0 && sc.tier[d] == 0 && !sc.tagged[d] {
				sc.touched = append(sc.touched, d)
			}
		}
		segN, segLen := s.countAt(q.level)
		if segN == 0 {
			continue
		}
		avgdl := max(segLen/float64(segN), 1)
		for i, qt := range qs {
			e := s.terms[qt.term]
			if e == nil {
				continue
			}
			df := float64(e.dfAt(q.level))
			idf := math.Log(1 + (float64(segN)-df+0.5)/(df+0.5))
			for _, p := range e.postings {
				d := &s.docs[p.doc]
				if d.vis > q.level {
					continue
				}
				touch(p.doc)
				tf := float64(p.tf)
				norm := bm25K1 * (1 - bm25B + bm25B*float64(d.length)/avgdl)
				sc.score[p.doc] += qt.weight * idf * tf * (bm25K1 + 1) / (tf + norm)
				sc.terms[p.doc] |= 1 << i
			}
		}
		for _, t := range tags {
			for _, id := range s.tags[t] {
				if s.docs[id].vis > q.level {
					continue
				}
				touch(id)
				sc.tier[id] = max(sc.tier[id], 1)
				sc.tagged[id] = true
			}
		}
		// Entity names every term of which the prompt holds.
		clear(sc.counts)
		for _, qt := range qs { // distinct terms
			for _, r := range s.nameRefs[qt.term] {
				if s.docs[r.doc].vis > q.level {
					continue
				}
				k := uint64(r.doc)<<8 | uint64(r.name)
				sc.counts[k]++
				if sc.counts[k] == s.nameLens[r.doc][r.name] {
					sc.cover[r.doc] = true
				}
			}
		}
		for key := range q.anchors {
			for _, id := range s.anchors[key] {
				d := &s.docs[id]
				if d.vis > q.level {
					continue
				}
				touch(id)
				tier := int8(1)
				if d.kind == kindEntity {
					tier = 2
					sc.named[id] = true
				}
				sc.tier[id] = max(sc.tier[id], tier)
			}
		}
		boost := 1.0
		if q.boost[s.agent] {
			boost = namedAgentBoost
		}
		var speakers []uint16 // the segment's speakers the prompt names
		if len(s.speakers) <= len(named) {
			for w, n := range s.speakers {
				if named[w] {
					speakers = append(speakers, n)
				}
			}
		} else {
			for w := range named {
				if n := s.speakers[w]; n != 0 {
					speakers = append(speakers, n)
				}
			}
		}
		for _, id := range sc.touched {
			if s.docs[id].kind == kindEntity {
				sc.score[id] *= entityPrior
			}
			if s.docs[id].asks {
				sc.score[id] *= askDiscount
			}
			if want != 0 && s.docs[id].holds&want != 0 {
				sc.score[id] *= typeBoost
			}
			if s.docs[id].speaker != 0 && slices.Contains(speakers, s.docs[id].speaker) {
				sc.score[id] *= speakerBoost
			}
			h := hit{seg: s, doc: id, tier: sc.tier[id], named: sc.named[id], tag: sc.tagged[id] && !sc.named[id], score: boost * sc.score[id], terms: sc.terms[id]}
			sc.score[id], sc.terms[id], sc.tier[id], sc.named[id], sc.tagged[id] = 0, 0, 0, false, false
			if sc.cover[id] {
				sc.cover[id] = false
				h.tier = 2
			}
			if h.tier == 0 && h.score <= 0 {
				continue
			}
			if len(top) < q.limit {
				heap.Push(&top, h)
			} else if better(&h, &top[0]) {
				top[0] = h
				heap.Fix(&top, 0)
			}
		}
	}
	out := []hit(top)
	slices.SortFunc(out, func(a, b hit) int {
		if better(&a, &b) {
			return -1
		}
		if better(&b, &a) {
			return 1
		}
		return 0
	})
	return out, qs
}

// promptWords returns the prompt's words, lower-cased, without
// surrounding punctuation or a possessive 's: the keys a speaker's name is
// looked up by.
func promptWords(prompt string) map[string]bool {
	words := map[string]bool{}
	for _, f := range strings.Fields(boundRunes(prompt, maxPromptChars)) {
		w := strings.ToLower(strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if w != "" {
			words[w] = true
		}
	}
	return words
}

// queryTerms returns the terms to search for: the prompt's terms the
// visible library holds, and for the prompt words it does not hold, the
// library terms of the words one edit away (analyze.Edits1).
func queryTerms(v *view, segs []*segment, q query) []qterm {
	type word struct{ term, surface string }
	var words []word
	seen := map[string]bool{}
	eachTerm(boundRunes(q.prompt, maxPromptChars), func(t, w string) {
		if !seen[t] && len(words) < maxQueryTerms {
			seen[t] = true
			words = append(words, word{t, w})
		}
	})
	df := func(t string) int32 {
		var d int32
		for _, s := range segs {
			if e := s.terms[t]; e != nil {
				d += e.dfAt(q.level)
			}
		}
		return d
	}
	var qs []qterm
	fuzzed := 0
	for _, w := range words {
		if d := df(w.term); d > 0 {
			qs = append(qs, qterm{term: w.term, word: w.surface, weight: 1, df: d})
			continue
		}
		if fuzzed >= maxFuzzyTerms || !fuzzable(w.surface) {
			continue
		}
		fuzzed++
		var vs []qterm
		for _, edit := range analyze.Edits1(w.surface) {
			cand, ok := analyze.Normalize(edit)
			if !ok || seen[cand] || !v.hasTerm(cand) {
				continue
			}
			seen[cand] = true
			if d := df(cand); d > 0 {
				vs = append(vs, qterm{term: cand, word: w.surface, weight: fuzzyWeight, fuzzy: true, df: d})
			}
		}
		slices.SortFunc(vs, func(a, b qterm) int {
			if c := cmp.Compare(b.df, a.df); c != 0 {
				return c
			}
			return strings.Compare(a.term, b.term)
		})
		qs = append(qs, vs[:min(len(vs), maxVariants)]...)
	}
	if q.words != nil {
		for _, w := range words {
			n := 0
			for _, t := range q.words.relatedTerms(w.surface) {
				if n == maxRelated {
					break
				}
				if seen[t] || !v.hasTerm(t) {
					continue
				}
				seen[t] = true
				if d := df(t); d > 0 {
					qs = append(qs, qterm{term: t, word: w.surface, weight: relatedWeight, df: d})
					n++
				}
			}
		}
	}
	var ks []qterm
	for _, t := range v.kindTermsIn(q) {
		if seen[t] {
			continue
		}
		seen[t] = true
		if d := df(t); d > 0 {
			ks = append(ks, qterm{term: t, word: q.focus, weight: relatedWeight, df: d})
		}
	}
	slices.SortFunc(ks, func(a, b qterm) int {
		if c := cmp.Compare(a.df, b.df); c != 0 {
			return c
		}
		return strings.Compare(a.term, b.term)
	})
	qs = append(qs, ks[:min(len(ks), maxKindTerms)]...)
	return qs[:min(len(qs), 64)]
}

// tagWords returns the prompt's words as tag keys: split at white space,
// stripped of surrounding punctuation, lower-cased; at most maxTagWords.
func tagWords(prompt string) []string {
	var out []string
	for _, f := range strings.Fields(boundRunes(prompt, maxPromptChars)) {
		k := tagKey(strings.Trim(f, `.,;:!?()[]{}"'`+"`"))
		if k != "" && !slices.Contains(out, k) {
			out = append(out, k)
			if len(out) == maxTagWords {
				break
			}
		}
	}
	return out
}

// fuzzable reports whether a word is worth expanding: ASCII letters and
// digits, neither very short nor very long, not a number.
func fuzzable(w string) bool {
	if len(w) < minFuzzyLen || len(w) > maxFuzzyLen || isDigits(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
