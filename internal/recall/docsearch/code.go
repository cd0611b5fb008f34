package docsearch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Limits of a CodeQuery.
const (
	DefaultCodeTopK = 5
	MaxCodeTopK     = 20
	// maxCode bounds the code of a result, in bytes.
	maxCode = 2000
)

// The BM25F fields of a code sample: its title and region name, its
// source path, the titles of the documents that cite it, and the code.
var codeFields = []fieldSpec{
	{3, 0.3},   // name
	{2, 0.3},   // source
	{1.5, 0.5}, // citedBy
	{1, 0.75},  // code
}

// codeField returns field f (in codeFields order) of a code sample.
func (ix *Index) codeField(id graph.NodeID, f int) string {
	n := ix.g.Node(id)
	switch f {
	case 0:
		return n.Title() + "\n" + n.Str("region")
	case 1:
		return n.Str("source")
	case 2:
		var titles []string
		for _, e := range ix.g.In(id) {
			if e.Type == graph.Xref {
				titles = append(titles, ix.g.Node(e.Node).Title())
			}
		}
		return strings.Join(titles, "\n")
	}
	return n.Str("code")
}

// codeText is what the embedder sees of a code sample: its fields, with
// the code cut to maxCode bytes.
func (ix *Index) codeText(n *graph.Node) string {
	id, _ := ix.g.Lookup(n.UID)
	parts := make([]string, len(codeFields))
	for f := range codeFields {
		parts[f] = ix.codeField(id, f)
	}
	parts[len(parts)-1] = cut(parts[len(parts)-1], maxCode)
	return strings.Join(parts, "\n")
}

// CodeQuery is a code_sample_search request.
type CodeQuery struct {
	Text string
	// Language keeps the samples in the language (case-insensitive; ts,
	// js, py, rs, golang and sh are read as their full names).
	Language string
	// Product keeps the samples of the product: their own products, or
	// those of the documents that cite them.
	Product string
	// TopK is the number of results, DefaultCodeTopK when zero, at most
	// MaxCodeTopK.
	TopK int
	// TokenBudget bounds the results' size as in Query.
	TokenBudget int
}

// CodeResults are the answer to a CodeQuery.
type CodeResults struct {
	Results   []CodeResult `json:"results"`
	Truncated bool         `json:"truncated"`
	Dropped   int          `json:"dropped,omitempty"`
	Warnings  []string     `json:"warnings,omitempty"`
}

// CodeResult is one ranked code sample.
type CodeResult struct {
	UID      string `json:"uid"`
	Title    string `json:"title"`
	URI      string `json:"uri"`
	Language string `json:"language"`
	// Source is the path of the file the sample is a region of.
	Source string `json:"source"`
	Region string `json:"region,omitempty"`
	// Code is the sample's code, cut to 2,000 bytes (CodeCut tells).
	Code    string  `json:"code"`
	CodeCut bool    `json:"codeCut,omitempty"`
	Score   float64 `json:"score"`
	Signals Signals `json:"signals"`
}

// languageAliases maps short language names to the full ones.
var languageAliases = map[string]string{
	"ts": "typescript", "js": "javascript", "py": "python", "rs": "rust",
	"golang": "go", "sh": "bash", "shell": "bash",
}

func language(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if full, ok := languageAliases[s]; ok {
		return full
	}
	return s
}

// SearchCode ranks the code samples for q: BM25F and the vector arm fused
// by normalized score (samples are too sparsely linked for a graph rerank).
func (ix *Index) SearchCode(ctx context.Context, q CodeQuery) (*CodeResults, error) {
	if strings.TrimSpace(q.Text) == "" {
		return nil, errors.New("docsearch: empty query")
	}
	if err := checkLimits(&q.TopK, &q.TokenBudget, DefaultCodeTopK, MaxCodeTopK); err != nil {
		return nil, err
	}
	allowed := newBitset(len(ix.cattr))
	lang, product := language(q.Language), strings.ToLower(strings.TrimSpace(q.Product))
	for d, a := range ix.cattr {
		if (lang == "" || language(a.language) == lang) && (product == "" || slices.Contains(a.products, product)) {
			allowed.set(d)
		}
	}
	res := &CodeResults{Results: []CodeResult{}}
	qvec, err := queryVector(ctx, ix.emb, nil, q.Text)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		res.Warnings = append(res.Warnings, fmt.Sprintf("vector arm skipped: %v", err))
	}
	lq := ix.code.resolve(distinct(analyze.CodeTerms(q.Text)), ix.realTerms(q.Text))
	var vec []hit
	if qvec != nil {
		vec = ix.code.vec.search(qvec, allowed, armDepth)
	}
	cs := fuse(trim(ix.code.lexical(lq, allowed, armDepth), lexMinShare), trim(vec, vecMinShare))
	for _, c := range cs[:min(q.TopK, len(cs))] {
		res.Results = append(res.Results, ix.codeResult(c))
	}
	res.Results, res.Dropped = fitBudget(res.Results, q.TokenBudget, (*CodeResult).jsonSize)
	res.Truncated = res.Dropped > 0
	return res, nil
}

func (ix *Index) codeResult(c candidate) CodeResult {
	n := ix.g.Node(ix.code.nodes[c.doc])
	code := n.Str("code")
	r := CodeResult{
		UID: n.UID, Title: n.Title(), URI: uri(n), Language: n.Str("language"),
		Source: n.Str("source"), Region: n.Str("region"), Code: cut(code, maxCode),
		Score: round(c.fused),
		Signals: Signals{
			BM25: round(float64(c.bm25)), BM25Rank: c.bm25Rank,
			Cosine: round(float64(c.cos)), VectorRank: c.vecRank,
			RRF: round(c.rrf), Fused: round(c.fused), Final: round(c.fused),
		},
	}
	r.CodeCut = len(r.Code) < len(code)
	return r
}
