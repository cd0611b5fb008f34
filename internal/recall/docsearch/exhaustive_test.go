package docsearch

import "sync"

// The lexical arm as it was before MaxScore (maxscore.go): every posting
// of every query term scored, term at a time, into per-document and
// per-passage accumulators. It is the reference of TestMaxScoreExact and
// the baseline of BenchmarkLexical50k.

// scratch is the per-query accumulator of the lexical arm: the score of
// each document and of each passage, and the best passage score of each
// document.
type scratch struct {
	acc, pacc, best   []float32
	touched, ptouched []int32
}

var taatPool sync.Pool

// lexicalTAAT returns the k allowed documents of highest BM25 score: the
// BM25F score of their fields plus that of their best passage.
func (a *arms) lexicalTAAT(lq lexQuery, allowed bitset, k int) []hit {
	s, _ := taatPool.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	if len(s.acc) < len(a.nodes) {
		s.acc, s.best = make([]float32, len(a.nodes)), make([]float32, len(a.nodes))
	}
	s.touched = a.lex.scoreTAAT(lq.fields, allowed, s.acc, s.touched[:0])
	if a.pass != nil {
		if len(s.pacc) < len(a.pass.doc) {
			s.pacc = make([]float32, len(a.pass.doc))
		}
		s.ptouched = a.pass.scoreTAAT(lq.pass, allowed, s.pacc, s.ptouched[:0])
		for _, p := range s.ptouched {
			d, v := a.pass.doc[p], s.pacc[p]
			s.pacc[p] = 0
			if s.acc[d] == 0 && s.best[d] == 0 {
				s.touched = append(s.touched, d)
			}
			s.best[d] = max(s.best[d], v)
		}
	}
	top := newTopK(k)
	for _, d := range s.touched {
		top.push(d, s.acc[d]+s.best[d])
		s.acc[d], s.best[d] = 0, 0
	}
	taatPool.Put(s)
	return top.best()
}

// scoreTAAT adds w·impact of each query term to acc for the allowed
// documents, and returns touched extended by the documents it scored
// first.
func (ix *bm25) scoreTAAT(qs []qterm, allowed bitset, acc []float32, touched []int32) []int32 {
	for _, q := range qs {
		docs, imps := ix.doc[ix.start[q.id]:ix.start[q.id+1]], ix.imp[ix.start[q.id]:ix.start[q.id+1]]
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

// scoreTAAT adds w·impact of each query term to acc for the passages of
// allowed documents, and returns touched extended by the passages it
// scored first.
func (pi *passageIndex) scoreTAAT(qs []qterm, allowed bitset, acc []float32, touched []int32) []int32 {
	ix := pi.lex
	for _, q := range qs {
		ps, imps := ix.doc[ix.start[q.id]:ix.start[q.id+1]], ix.imp[ix.start[q.id]:ix.start[q.id+1]]
		for i, p := range ps {
			if !allowed.has(int(pi.doc[p])) {
				continue
			}
			if acc[p] == 0 {
				touched = append(touched, p)
			}
			acc[p] += q.w * imps[i]
		}
	}
	return touched
}
