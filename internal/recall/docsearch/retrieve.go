package docsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// Fusion parameters.
const (
	// rrfK is Reciprocal Rank Fusion's constant: a document at rank r of
	// an arm earns 1/(rrfK + r). 60 is the value of Cormack, Clarke and
	// Büttcher (2009) and of the Cogitave spec. RRF is reported as a
	// signal; the ranking fuses normalized scores (see fuse).
	rrfK = 60
	// minCosine is the absolute similarity floor of the vector arm: a
	// cosine at or below it is no evidence. On the prose set's dev split
	// nDCG@10 is 0.872 without a floor, 0.876 at 0.2 and 0.874 at 0.3.
	minCosine = 0.2
	// armDepth is how many hits of each arm enter the fusion.
	armDepth = 100
	// maxQueryTerms bounds the distinct terms of a query.
	maxQueryTerms = 32
	// lexMinShare and vecMinShare cut each arm's list before the fusion
	// where its score falls below that share of the arm's best, so that
	// a stray word or a vague topic does not enter it at all. They date
	// from rank fusion (on the regression set, cutting at 0.2 of the best
	// BM25 and 0.5 of the best cosine raised nDCG@10 from 0.913 to 0.921);
	// with score fusion and the cosine floor, changing vecMinShare between
	// 0.1 and 0.5 changes no ranking of the prose set's dev split.
	lexMinShare = 0.2
	vecMinShare = 0.5
)

// ErrEmbedderMismatch is returned for a query whose embedder is not the
// one that built the index's vectors.
var ErrEmbedderMismatch = errors.New("docsearch: the query's embedder is not the index's")

// candidate is a document found by either arm, with its signals.
type candidate struct {
	doc      int32
	bm25     float32
	bm25Rank int // 1-based; 0 when the arm did not put it into the fusion
	cos      float32
	vecRank  int
	rrf      float64
	// fused is the fusion's score (see fuse).
	fused float64
	// pprAnchor is the graph prior from the anchors' restart, relative
	// to the largest among the candidates.
	pprAnchor float64
	boosts    map[string]float64
	final     float64
}

// lexQuery is a query resolved for the lexical arm: its terms in the
// fields index and in the passage index, and the words they stand for.
type lexQuery struct {
	fields, pass []qterm
	words        []string
}

// resolve spells the query's terms (see spell) and finds them in the
// arm's indexes; real are the terms of dictionary words (nil for none).
func (a *arms) resolve(terms []string, real map[string]bool) lexQuery {
	ws := a.spell(terms, real)
	lq := lexQuery{fields: a.lex.lookup(ws)}
	if a.pass != nil {
		lq.pass = a.pass.lex.lookup(ws)
	}
	for _, w := range ws {
		lq.words = append(lq.words, w.word)
	}
	return lq
}

// spell returns the query terms as they are looked up: a term of the
// index as it is, and a term the index lacks as the indexed term nearest
// in spelling (analyze.Speller), weighted by their similarity, unless it
// is real (the term of a dictionary word): a real word the documents do
// not use matches nothing.
func (a *arms) spell(terms []string, real map[string]bool) []spelled {
	var out []spelled
	for _, t := range terms {
		if a.known(t) {
			out = append(out, spelled{t, 1})
		} else if real[t] {
			continue
		} else if id, sim, ok := a.speller.Nearest(t); ok {
			out = append(out, spelled{a.vocab[id], sim})
		}
	}
	return out
}

// known tells whether a term is in one of the arm's indexes.
func (a *arms) known(t string) bool {
	if _, ok := a.lex.terms[t]; ok {
		return true
	}
	if a.pass == nil {
		return false
	}
	_, ok := a.pass.lex.terms[t]
	return ok
}

// scratch is the per-query accumulator of the lexical arm: the score of
// each document and of each passage, the best passage score of each
// document (as float32 bits, see denseSpan), and the documents and
// passages scored.
type scratch struct {
	acc, pacc         []float32
	best              []uint32
	touched, ptouched []int32
}

var scratchPool sync.Pool

// denseFold: when the query's passage postings within a span are at
// least 1/denseFold of its passages, the span is scored densely (see
// denseSpan).
const denseFold = 8

// splitPostings: from this many postings of the query's lists, the
// exhaustive scoring is cut into two halves of the documents, scored side
// by side.
const splitPostings = 32768

// exhaustive returns the top k as lexical does, scoring every posting
// of every query term, term at a time.
func (a *arms) exhaustive(lq lexQuery, allowed bitset, k int) []hit {
	postings := a.lex.postingsOf(lq.fields)
	if a.pass != nil {
		postings += a.pass.lex.postingsOf(lq.pass)
	}
	if postings < splitPostings {
		return a.exhaustiveSpan(lq, allowed, 0, int32(len(a.nodes)), k)
	}
	return a.exhaustiveHalves(lq, allowed, k)
}

// exhaustiveHalves returns the top k of exhaustive, scoring the two
// halves of the documents side by side. A document's score is summed as
// in one pass (its terms in the same order), and hits are ordered totally
// (worse), so the top k of the halves merge into the same top k.
func (a *arms) exhaustiveHalves(lq lexQuery, allowed bitset, k int) []hit {
	n := int32(len(a.nodes))
	var low []hit
	done := make(chan struct{})
	go func() {
		defer close(done)
		low = a.exhaustiveSpan(lq, allowed, 0, n/2, k)
	}()
	high := a.exhaustiveSpan(lq, allowed, n/2, n, k)
	<-done
	top := newTopK(k)
	for _, h := range slices.Concat(low, high) {
		top.push(h.doc, h.score)
	}
	return top.best()
}

// exhaustiveSpan returns the top k of exhaustive among the documents
// numbered from lo to hi (excluded).
func (a *arms) exhaustiveSpan(lq lexQuery, allowed bitset, lo, hi int32, k int) []hit {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	defer scratchPool.Put(s)
	if len(s.acc) < len(a.nodes) {
		s.acc, s.best = make([]float32, len(a.nodes)), make([]uint32, len(a.nodes))
	}
	if a.pass != nil && len(s.pacc) < len(a.pass.doc) {
		s.pacc = make([]float32, len(a.pass.doc))
	}
	if a.pass != nil {
		first := a.pass.first
		if a.pass.lex.postingsWithin(lq.pass, first[lo], first[hi]) >= int(first[hi]-first[lo])/denseFold {
			return a.denseSpan(s, lq, allowed, lo, hi, k)
		}
	}
	s.touched = a.lex.score(lq.fields, allowed, lo, hi, s.acc, s.touched[:0])
	if a.pass != nil {
		s.ptouched = a.pass.score(lq.pass, lo, hi, s.pacc, s.ptouched[:0])
		for _, p := range s.ptouched {
			d, v := a.pass.doc[p], s.pacc[p]
			s.pacc[p] = 0
			if !allowed.has(int(d)) {
				continue
			}
			if s.acc[d] == 0 && s.best[d] == 0 {
				s.touched = append(s.touched, d)
			}
			s.best[d] = max(s.best[d], math.Float32bits(v))
		}
	}
	top := newTopK(k)
	for _, d := range s.touched {
		top.push(d, s.acc[d]+math.Float32frombits(s.best[d]))
		s.acc[d], s.best[d] = 0, 0
	}
	return top.best()
}

// denseSpan returns the top k of exhaustive among the documents numbered
// from lo to hi (excluded) when the query's lists cover much of them: it
// adds every posting into flat arrays, with neither the filter checked
// nor the documents and passages scored noted (a branch per posting),
// folds the passages into their documents' best in passage order, and
// then reads every document of the span once, dropping those not
// allowed. A best passage is kept as the bits of its float32 score: the
// scores are never negative, so their bits order as they do, and the
// largest is taken without a branch.
func (a *arms) denseSpan(s *scratch, lq lexQuery, allowed bitset, lo, hi int32, k int) []hit {
	a.lex.add(lq.fields, lo, hi, s.acc)
	pl, ph := a.pass.first[lo], a.pass.first[hi]
	a.pass.lex.add(lq.pass, pl, ph, s.pacc)
	pacc, doc := s.pacc[pl:ph], a.pass.doc[pl:ph]
	doc = doc[:len(pacc)]
	for i, v := range pacc {
		d := doc[i]
		s.best[d] = max(s.best[d], math.Float32bits(v))
	}
	top := newTopK(k)
	for d := lo; d < hi; d++ {
		if v := s.acc[d] + math.Float32frombits(s.best[d]); v > 0 && allowed.has(int(d)) {
			top.push(d, v)
		}
	}
	clear(s.acc[lo:hi])
	clear(s.best[lo:hi])
	clear(pacc)
	return top.best()
}

// scoreDoc returns the lexical score of document d alone.
func (a *arms) scoreDoc(lq lexQuery, d int32) float32 {
	s := a.lex.scoreDoc(lq.fields, d)
	if a.pass != nil {
		_, best := a.pass.best(lq.pass, d)
		s += best
	}
	return s
}

// titles is the first step of the vector arm: the armDepth allowed
// documents whose title and summary are the most similar to the unit
// vector q. It does not depend on the lexical arm, so Search runs the two
// side by side.
func (a *arms) titles(q []float32, allowed bitset) []hit {
	return a.vec.search(q, allowed, armDepth)
}

// vector returns the vector arm's best armDepth documents for the unit
// vector q, byTitle being titles(q, allowed). A document's similarity is
// its best cosine: that of its title and summary, or of one of its
// passages. Every document is compared by its title and summary; the
// passages are compared for the pool of documents either arm found (the
// vector arm's first armDepth and the lexical hits), which keeps the scan
// to one vector per document.
func (a *arms) vector(q []float32, byTitle, lexical []hit) []hit {
	if a.pass == nil || a.pass.vec == nil {
		return byTitle
	}
	top := newTopK(armDepth)
	seen := map[int32]bool{}
	for _, hs := range [][]hit{byTitle, lexical} {
		for _, h := range hs {
			if !seen[h.doc] {
				seen[h.doc] = true
				if c := a.cosine(q, h.doc); c > 0 {
					top.push(h.doc, c)
				}
			}
		}
	}
	return top.best()
}

// cosine returns the similarity of document d to q: the best cosine of
// its title and summary and of its passages.
func (a *arms) cosine(q []float32, d int32) float32 {
	c := a.vec.cosine(q, d)
	if a.pass != nil && a.pass.vec != nil {
		for p := a.pass.first[d]; p < a.pass.first[d+1]; p++ {
			c = max(c, a.pass.vec.cosine(q, p))
		}
	}
	return c
}

// queryVector embeds the query text with emb, checking that emb is the
// embedder the arm was built with.
func queryVector(ctx context.Context, built, emb embed.Embedder, text string) ([]float32, error) {
	switch {
	case built == nil && emb == nil:
		return nil, nil
	case built == nil:
		return nil, fmt.Errorf("%w: query by %s, the index has no vectors", ErrEmbedderMismatch, emb.Name())
	case emb == nil:
		emb = built
	}
	if emb.Name() != built.Name() || emb.Dim() != built.Dim() {
		return nil, fmt.Errorf("%w: query by %s (dim %d), index by %s (dim %d)", ErrEmbedderMismatch, emb.Name(), emb.Dim(), built.Name(), built.Dim())
	}
	vecs, err := emb.Embed(ctx, []string{text})
	if err == nil {
		err = embed.Check(vecs, 1, built.Dim())
	}
	if err != nil {
		return nil, err
	}
	embed.Normalize(vecs[0])
	return vecs[0], nil
}

// trim returns the leading hits whose score is at least share of the
// first one's (all of them when that is not positive).
func trim(hits []hit, share float32) []hit {
	if len(hits) == 0 || hits[0].score <= 0 {
		return hits
	}
	n := 1
	for n < len(hits) && hits[n].score >= share*hits[0].score {
		n++
	}
	return hits[:n]
}

// fuse merges the lists of the two arms and returns the candidates, best
// first (ties to the lower number). A candidate's fused score is the mean
// of its two normalized arm scores: its BM25 score divided by the arm's
// best, and its cosine above the absolute floor minCosine, rescaled to
// [0, 1] (a cosine at or below the floor adds nothing). Unlike equal-
// weight rank fusion, a document weak in both arms cannot pass one that
// an arm is sure of, and a vector list of vague neighbours (low cosines
// throughout) carries little weight however it is ranked. RRF is kept as
// a signal for logs: hits of equal score share a rank.
func fuse(lex, vec []hit) []candidate {
	at := map[int32]int{}
	var cs []candidate
	get := func(d int32) *candidate {
		i, ok := at[d]
		if !ok {
			i = len(cs)
			at[d] = i
			cs = append(cs, candidate{doc: d})
		}
		return &cs[i]
	}
	for i, r := range ranks(lex) {
		c := get(lex[i].doc)
		c.bm25, c.bm25Rank = lex[i].score, r
		c.rrf += 1 / float64(rrfK+r)
		c.fused += float64(lex[i].score/lex[0].score) / 2
	}
	for i, r := range ranks(vec) {
		c := get(vec[i].doc)
		c.cos, c.vecRank = vec[i].score, r
		c.rrf += 1 / float64(rrfK+r)
		if x := float64(vec[i].score); x > minCosine {
			c.fused += (x - minCosine) / (1 - minCosine) / 2
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].fused != cs[j].fused {
			return cs[i].fused > cs[j].fused
		}
		return cs[i].doc < cs[j].doc
	})
	return cs
}

// ranks returns the 1-based rank of each hit of a best-first list, equal
// scores sharing the rank of the first of them.
func ranks(hits []hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = i + 1
		if i > 0 && h.score == hits[i-1].score {
			out[i] = out[i-1]
		}
	}
	return out
}
