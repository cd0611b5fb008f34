package docsearch

import (
	"math"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// k1 is BM25's term-frequency saturation: the pseudo-frequency at which
// a term earns half of its maximum (k1+1)·idf is k1. 1.2 is the usual
// value for prose.
const k1 = 1.2

// fieldSpec weighs one field in BM25F (Robertson, Zaragoza and Taylor
// 2004): a term's occurrences in the field count weight times, after
// length normalization of strength b (0 none, 1 full) against the
// field's average length.
type fieldSpec struct {
	weight float64
	b      float64
}

// bm25 is a BM25F inverted index. A posting's impact is precomputed, so
// a query only adds idf·impact per matching posting.
type bm25 struct {
	terms map[string]int32
	words []string // the terms by number
	idf   []float32
	start []int32   // postings of term t: doc[start[t]:start[t+1]]
	doc   []int32   // document numbers, increasing per term
	imp   []float32 // (k1+1)·tf/(k1+tf) of the pseudo-frequency tf
	top   []float32 // the largest impact of each term, for MaxScore
}

// buildBM25 indexes n documents whose field f is text(d, f), for the
// fields of specs.
func buildBM25(n int, specs []fieldSpec, text func(d, f int) string, analyzer analyze.Analyzer) *bm25 {
	counts, terms := analyze.CountAll(n, len(specs), text, analyzer)
	lens := make([][]float64, n) // lens[d][f]
	avg := make([]float64, len(specs))
	df := make([]int32, len(terms))
	for d, cs := range counts {
		lens[d] = make([]float64, len(specs))
		last := int32(-1)
		for _, c := range cs {
			lens[d][c.Field] += float64(c.N)
			if c.Term != last {
				df[c.Term]++
				last = c.Term
			}
		}
		for f, l := range lens[d] {
			avg[f] += l
		}
	}
	for f := range avg {
		avg[f] = max(avg[f]/float64(max(n, 1)), 1)
	}
	ix := &bm25{
		terms: make(map[string]int32, len(terms)), words: terms,
		idf: make([]float32, len(terms)), start: make([]int32, len(terms)+1),
	}
	for t, s := range terms {
		ix.terms[s] = int32(t)
		ix.idf[t] = float32(math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5)))
		ix.start[t+1] = ix.start[t] + df[t]
	}
	ix.doc = make([]int32, ix.start[len(terms)])
	ix.imp = make([]float32, len(ix.doc))
	ix.top = make([]float32, len(terms))
	next := append([]int32(nil), ix.start[:len(terms)]...)
	for d, cs := range counts {
		for i := 0; i < len(cs); {
			t := cs[i].Term
			var tf float64
			for ; i < len(cs) && cs[i].Term == t; i++ {
				s := specs[cs[i].Field]
				norm := 1 - s.b + s.b*lens[d][cs[i].Field]/avg[cs[i].Field]
				tf += s.weight * float64(cs[i].N) / norm
			}
			ix.doc[next[t]] = int32(d)
			ix.imp[next[t]] = float32((k1 + 1) * tf / (k1 + tf))
			ix.top[t] = max(ix.top[t], ix.imp[next[t]])
			next[t]++
		}
	}
	return ix
}

// qterm is a query term found in the index.
type qterm struct {
	id int32
	// w is the term's idf, times the spelling similarity when the query
	// word was repaired (see spelled).
	w float32
}

// spelled is a query word as it is looked up: the word itself, or the
// known word nearest in spelling with their similarity.
type spelled struct {
	word string
	sim  float64
}

// lookup finds the query words in the index, each term once.
func (ix *bm25) lookup(words []spelled) []qterm {
	var out []qterm
	for _, w := range words {
		t, ok := ix.terms[w.word]
		if ok && !slices.ContainsFunc(out, func(q qterm) bool { return q.id == t }) {
			out = append(out, qterm{t, ix.idf[t] * float32(w.sim)})
		}
	}
	return out
}

// score adds w·impact of each query term to acc for the allowed
// documents numbered from lo to hi (excluded), and returns touched
// extended by the documents it scored first.
func (ix *bm25) score(qs []qterm, allowed bitset, lo, hi int32, acc []float32, touched []int32) []int32 {
	for _, q := range qs {
		docs, imps := ix.doc[ix.start[q.id]:ix.start[q.id+1]], ix.imp[ix.start[q.id]:ix.start[q.id+1]]
		i, j := within(docs, lo, hi)
		docs, imps = docs[i:j], imps[i:j]
		for i, d := range docs {
			if !allowed.has(int(d)) {
				continue
			}
			if acc[d] == 0 {
				touched = append(touched, d)
			}
			acc[d] += q.w * imps[i]
		}
	}
	return touched
}

// add adds w·impact of each query term to acc for the documents
// numbered from lo to hi (excluded), whatever the filter, without noting
// which (see denseSpan).
func (ix *bm25) add(qs []qterm, lo, hi int32, acc []float32) {
	for _, q := range qs {
		docs, imps := ix.doc[ix.start[q.id]:ix.start[q.id+1]], ix.imp[ix.start[q.id]:ix.start[q.id+1]]
		i, j := within(docs, lo, hi)
		docs, imps = docs[i:j], imps[i:j]
		for i, d := range docs {
			acc[d] += q.w * imps[i]
		}
	}
}

// postings is the number of postings, for the index statistics.
func (ix *bm25) postings() int { return len(ix.doc) }

// scoreDoc returns the BM25F score of document d for the query terms.
func (ix *bm25) scoreDoc(qs []qterm, d int32) float32 {
	var s float32
	for _, q := range qs {
		docs := ix.doc[ix.start[q.id]:ix.start[q.id+1]]
		if i, found := slices.BinarySearch(docs, d); found {
			s += q.w * ix.imp[int(ix.start[q.id])+i]
		}
	}
	return s
}

// within returns the positions i and j such that ids[i:j] are the ids
// from lo to hi (excluded), ids being increasing.
func within(ids []int32, lo, hi int32) (int, int) {
	i, _ := slices.BinarySearch(ids, lo)
	j, _ := slices.BinarySearch(ids[i:], hi)
	return i, i + j
}
