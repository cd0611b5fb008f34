package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
)

type docsSearchIn struct {
	Query       string        `json:"query" jsonschema:"What to look for, in words: a title, a question, a few keywords."`
	Types       []graph.Label `json:"types,omitempty" jsonschema:"Only these node labels, e.g. Doc, Unit, Module, LearningPath, ADR (describe_schema lists them)."`
	Product     string        `json:"product,omitempty" jsonschema:"Only nodes of this product, e.g. yuva."`
	Moniker     string        `json:"moniker,omitempty" jsonschema:"Only nodes that apply to this product version, e.g. yuva-2.0."`
	Anchors     []string      `json:"anchors,omitempty" jsonschema:"uids the caller is working on; nodes near them in the graph rank higher."`
	TopK        int           `json:"topK,omitempty" jsonschema:"Number of results, 1 to 50."`
	TokenBudget int           `json:"tokenBudget,omitempty" jsonschema:"Upper bound of the result size in tokens (about 4 characters each); results beyond it are dropped and truncated is set."`
	docsAccess
}

func (s *Server) registerDocsSearch() {
	docsTool(s, &mcp.Tool{
		Name: "docs_search",
		Description: "Hybrid search of the documentation graph: BM25 over each node's fields and best passage (body, quiz text, prerequisites, cited code) and vector retrieval over titles and passages, fused by normalized score, reranked near anchors by personalized PageRank over typed edges. " +
			"Each result carries its per-signal scores. Fetch a result's full content with docs_fetch.",
	}, map[string]any{"topK": docsearch.DefaultTopK, "tokenBudget": docsearch.DefaultTokenBudget}, func(ctx context.Context, in docsSearchIn, v view) (*docsearch.Results, error) {
		res, err := v.Search(ctx, docsearch.Query{
			Text: in.Query, Types: in.Types, Product: in.Product, Moniker: in.Moniker, Anchors: in.Anchors,
			TopK: in.TopK, TokenBudget: in.TokenBudget,
		})
		return res, docsFailure(err)
	})
}

type codeSearchIn struct {
	Query    string `json:"query" jsonschema:"What the code should do or contain."`
	Language string `json:"language,omitempty" jsonschema:"Only samples in this language, e.g. typescript, rust, bash."`
	Product  string `json:"product,omitempty" jsonschema:"Only samples cited by content of this product."`
	TopK     int    `json:"topK,omitempty" jsonschema:"Number of samples, 1 to 20."`
	docsAccess
}

func (s *Server) registerCodeSampleSearch() {
	docsTool(s, &mcp.Tool{
		Name:        "code_sample_search",
		Description: "Search the code samples the docs cite with :::code (regions of files in the snippets registry): each result has the code, its language and source file.",
	}, map[string]any{"topK": docsearch.DefaultCodeTopK}, func(ctx context.Context, in codeSearchIn, v view) (*docsearch.CodeResults, error) {
		return v.Snapshot().Index.SearchCode(ctx, docsearch.CodeQuery{Text: in.Query, Language: in.Language, Product: in.Product, TopK: in.TopK})
	})
}
