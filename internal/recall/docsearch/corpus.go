package docsearch

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Searchable lists the labels docs_search ranks, in a fixed order.
func Searchable() []graph.Label { return slices.Clone(searchable) }

var searchable = []graph.Label{
	graph.Doc, graph.Article, graph.Unit, graph.Module, graph.LearningPath,
	graph.ADR, graph.Standard, graph.Pattern,
}

// analyzer is the analyzer of documents and their queries.
var analyzer = analyze.Prose

// The BM25F fields of a document, and their weights: a word of the title
// counts three times a word of a passage. The short fields are normalized
// for length only a little. The body is not a field: it is scored by
// passage (passage.go).
var docFields = []fieldSpec{
	{3, 0.3},   // title
	{2, 0.5},   // summary
	{1.5, 0.5}, // headings
}

// docField returns field f (in docFields order) of a document node.
func docField(n *graph.Node, f int) string {
	switch f {
	case 0:
		return n.Title()
	case 1:
		return summary(n)
	}
	return strings.Join(headings(n), "\n")
}

// summary is a node's summary property, or its description.
func summary(n *graph.Node) string {
	if s := n.Str("summary"); s != "" {
		return s
	}
	return n.Str("description")
}

// headings returns the headings property: strings, or objects with a
// "text" string.
func headings(n *graph.Node) []string {
	var out []string
	list, _ := n.Props["headings"].([]any)
	for _, h := range list {
		switch h := h.(type) {
		case string:
			out = append(out, h)
		case map[string]any:
			if s, ok := h["text"].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// maxEmbedBody bounds the body text embedded for a node without a
// summary, in bytes.
const maxEmbedBody = 1000

// embedText is what the embedder sees of a document as a whole: what it
// says it is about, its title and summary (or, without a summary, the
// start of its body). Its body is embedded by passage (passage.go):
// summed into one vector, a long body pulls the document toward the
// centroid of its topic, where every module and recap sits.
func embedText(n *graph.Node) string {
	s := summary(n)
	if s == "" {
		s = cut(n.Content, maxEmbedBody)
	}
	return n.Title() + "\n" + s
}

// fullText is all the text of a document, for training an embedder: its
// fields and passages.
func fullText(g *graph.Graph, n *graph.Node) string {
	var parts []string
	for f := range docFields {
		parts = append(parts, docField(n, f))
	}
	id, _ := g.Lookup(n.UID)
	for _, p := range docPassages(n, citedCode(g, id)) {
		parts = append(parts, p.text)
	}
	return strings.Join(parts, "\n")
}

// cut returns at most the first max bytes of s, ending on a rune boundary.
func cut(s string, max int) string {
	if len(s) <= max {
		return s
	}
	for max > 0 && !utf8.RuneStart(s[max]) {
		max--
	}
	return s[:max]
}

// uri is the resource URI of a node.
func uri(n *graph.Node) string { return graph.URI(n.Label, n.UID) }
