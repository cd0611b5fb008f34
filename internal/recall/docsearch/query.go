package docsearch

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// Limits of a Query.
const (
	DefaultTopK        = 10
	MaxTopK            = 50
	DefaultTokenBudget = 2000
	// rerankDepth is how many fused candidates the graph rerank orders.
	rerankDepth = 100
)

// Query is a docs_search request.
type Query struct {
	Text string
	// Types keeps the documents of these labels (all of Searchable when
	// empty).
	Types []graph.Label
	// Product keeps the documents of the product (their own products, or
	// their module's).
	Product string
	// Moniker keeps the documents whose monikerRange includes it (and
	// those without a range). It must be in the graph's registry.
	Moniker string
	// Anchors are uids the caller is on: the rerank favours what is near.
	Anchors []string
	// TopK is the number of results, DefaultTopK when zero, at most MaxTopK.
	TopK int
	// TokenBudget bounds the results' size in tokens (estimated as JSON
	// characters / 4); DefaultTokenBudget when zero.
	TokenBudget int
	// IncludeInternal keeps documents with visibility: internal.
	IncludeInternal bool
	// Embedder, when set, is checked against the index's: a query
	// embedded by another model is ErrEmbedderMismatch. Nil means the
	// index's own.
	Embedder embed.Embedder
}

// Results are the answer to a Query.
type Results struct {
	Results []Result `json:"results"`
	// Truncated is set when the token budget dropped results; Dropped
	// says how many.
	Truncated bool `json:"truncated"`
	Dropped   int  `json:"dropped,omitempty"`
	// Warnings report degraded retrieval, such as an embedder that failed
	// (the lexical arm answers alone).
	Warnings []string `json:"warnings,omitempty"`
}

// Result is one ranked document.
type Result struct {
	UID     string      `json:"uid"`
	Label   graph.Label `json:"label"`
	Title   string      `json:"title"`
	URI     string      `json:"uri"`
	Snippet string      `json:"snippet"`
	Score   float64     `json:"score"`
	Signals Signals     `json:"signals"`
}

// Signals are the numbers behind a result's rank, for evaluation logs.
type Signals struct {
	BM25 float64 `json:"bm25"`
	// BM25Rank and VectorRank are 1-based ranks in each arm's list, 0
	// when the arm did not put the document into the fusion (outside its
	// first 100, or below its cut); equal scores share a rank.
	BM25Rank   int     `json:"bm25Rank"`
	Cosine     float64 `json:"cosine"`
	VectorRank int     `json:"vectorRank"`
	RRF        float64 `json:"rrf"`
	// Fused is the fusion's score, which orders the candidates: the mean
	// of the BM25 score relative to the arm's best and the cosine above
	// the similarity floor, rescaled.
	Fused float64 `json:"fused"`
	// PPRAnchor is the document's mass in the rerank's walk from the
	// query's anchors, relative to the largest among the candidates (1 for
	// the best), if the query has anchors.
	PPRAnchor float64 `json:"pprAnchor,omitempty"`
	// Boosts are the multiplicative factors applied, by name.
	Boosts map[string]float64 `json:"boosts,omitempty"`
	Final  float64            `json:"final"`
}

// normalize checks q and fills in its defaults.
func (q *Query) normalize() error {
	if strings.TrimSpace(q.Text) == "" {
		return errors.New("docsearch: empty query")
	}
	if err := checkLimits(&q.TopK, &q.TokenBudget, DefaultTopK, MaxTopK); err != nil {
		return err
	}
	for _, t := range q.Types {
		if !slices.Contains(searchable, t) {
			return fmt.Errorf("docsearch: type %q is not searchable (searchable: %v)", t, searchable)
		}
	}
	return nil
}

// checkLimits fills in the default topK and token budget and checks them.
func checkLimits(topK, budget *int, defTopK, maxTopK int) error {
	switch {
	case *topK < 0 || *topK > maxTopK:
		return fmt.Errorf("docsearch: topK %d is outside 1..%d", *topK, maxTopK)
	case *budget < 0:
		return fmt.Errorf("docsearch: negative token budget %d", *budget)
	}
	if *topK == 0 {
		*topK = defTopK
	}
	if *budget == 0 {
		*budget = DefaultTokenBudget
	}
	return nil
}
