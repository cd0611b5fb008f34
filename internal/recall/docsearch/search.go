package docsearch

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Search ranks the documents for q: filters first, then BM25 (fields and
// passages) and the vector arm, fused by normalized score, reranked near
// the anchors by Personalized PageRank, and boosted.
func (ix *Index) Search(ctx context.Context, q Query) (*Results, error) {
	if err := q.normalize(); err != nil {
		return nil, err
	}
	allowed, err := ix.allowedDocs(q)
	if err != nil {
		return nil, err
	}
	anchors, err := ix.anchors(q)
	if err != nil {
		return nil, err
	}
	res := &Results{Results: []Result{}}
	// The query's embedding and the vector arm's search by title run
	// beside the lexical arm: neither needs the other.
	var (
		qvec    []float32
		byTitle []hit
		verr    error
	)
	embedded := make(chan struct{})
	go func() {
		defer close(embedded)
		if qvec, verr = queryVector(ctx, ix.emb, q.Embedder, q.Text); verr == nil && qvec != nil {
			byTitle = ix.docs.titles(qvec, allowed)
		}
	}()
	terms := queryTerms(q.Text)
	lq := ix.docs.resolve(terms, ix.realTerms(q.Text))
	lex := ix.docs.lexical(lq, allowed, armDepth)
	<-embedded
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case errors.Is(verr, ErrEmbedderMismatch):
		return nil, verr
	case verr != nil:
		res.Warnings = append(res.Warnings, fmt.Sprintf("vector arm skipped: %v", verr))
	}
	var vec []hit
	if qvec != nil {
		vec = ix.docs.vector(qvec, byTitle, lex)
	}
	cs := fuse(trim(lex, lexMinShare), trim(vec, vecMinShare))
	if len(cs) > rerankDepth {
		cs = cs[:rerankDepth]
	}
	if len(cs) == 0 {
		return res, nil
	}
	ix.rerank(cs, anchors, q, terms)
	cs = cs[:min(q.TopK, len(cs))]
	for _, c := range cs {
		res.Results = append(res.Results, ix.result(c, lq, qvec))
	}
	res.Results, res.Dropped = fitBudget(res.Results, q.TokenBudget, (*Result).jsonSize)
	res.Truncated = res.Dropped > 0
	return res, nil
}

// queryTerms returns the distinct terms of a query, at most
// maxQueryTerms of them.
func queryTerms(text string) []string { return distinct(analyze.Terms(text)) }

// realTerms returns the terms of the words of text that the index's
// dictionary knows (nil without a dictionary).
func (ix *Index) realTerms(text string) map[string]bool {
	if ix.dict == nil {
		return nil
	}
	real := map[string]bool{}
	analyze.Each(text, func(t string, start, end int) {
		if ix.dict.Known(text[start:end]) {
			real[t] = true
		}
	})
	return real
}

// distinct returns the first maxQueryTerms distinct terms.
func distinct(terms []string) []string {
	var out []string
	for _, t := range terms {
		if !slices.Contains(out, t) {
			out = append(out, t)
			if len(out) == maxQueryTerms {
				break
			}
		}
	}
	return out
}

// result presents a candidate.
func (ix *Index) result(c candidate, lq lexQuery, qvec []float32) Result {
	n := ix.g.Node(ix.docs.nodes[c.doc])
	s := Signals{
		BM25: round(float64(c.bm25)), BM25Rank: c.bm25Rank,
		Cosine: round(float64(c.cos)), VectorRank: c.vecRank,
		RRF: round(c.rrf), Fused: round(c.fused), PPRAnchor: round(c.pprAnchor),
		Boosts: c.boosts, Final: round(c.final),
	}
	if c.bm25Rank == 0 {
		s.BM25 = round(float64(ix.docs.scoreDoc(lq, c.doc)))
	}
	if c.vecRank == 0 && qvec != nil {
		s.Cosine = round(float64(ix.docs.cosine(qvec, c.doc)))
	}
	return Result{
		UID: n.UID, Label: n.Label, Title: n.Title(), URI: uri(n),
		Snippet: ix.snippet(c.doc, lq),
		Score:   s.Final, Signals: s,
	}
}

// round keeps six decimals, enough for logs and stable JSON.
func round(x float64) float64 { return math.Round(x*1e6) / 1e6 }
