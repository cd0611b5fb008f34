package docsearch

import (
	"fmt"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Passages: the body of a document is scored by its passages, not as one
// text. Whole-document length normalization sinks a long document that
// answers in one paragraph under short ones that mention the words once;
// scored by passage, a document is as good as its best passage. The
// passages of a document are every prose field it shows beyond title,
// summary and headings:
//
//   - its markdown body, cut at headings and blank lines into blocks
//     that are joined until a passage holds at least passageWords words
//     (a heading always starts a new passage);
//   - each knowledge-check question, with its choices and explanations;
//   - its prerequisites;
//   - the code of each sample it cites with :::code.
const passageWords = 60

// passage is one passage of a document: its text for the index and its
// plain text for snippets ("" when it has none, such as code).
type passage struct {
	text, plain string
}

// docPassages returns the passages of a document node, given the code of
// the samples it cites.
func docPassages(n *graph.Node, cited []string) []passage {
	var out []passage
	var cur []string
	words := 0
	flush := func() {
		if len(cur) > 0 {
			text := strings.Join(cur, "\n\n")
			out = append(out, passage{text, strings.Join(paragraphs(text), " ")})
			cur, words = cur[:0], 0
		}
	}
	for _, b := range blocks(n.Content) {
		if strings.HasPrefix(strings.TrimSpace(b), "#") {
			flush()
		}
		cur = append(cur, b)
		if words += len(strings.Fields(b)); words >= passageWords {
			flush()
		}
	}
	flush()
	for _, q := range quizText(n) {
		out = append(out, passage{q, plain(q)})
	}
	if p := strings.TrimSpace(n.Str("prerequisites")); p != "" {
		out = append(out, passage{p, strings.Join(paragraphs(p), " ")})
	}
	for _, code := range cited {
		out = append(out, passage{code, ""})
	}
	return out
}

// blocks splits markdown at blank lines, keeping fenced code blocks
// whole.
func blocks(md string) []string {
	var out []string
	var cur strings.Builder
	fenced := false
	for line := range strings.Lines(md) {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fenced = !fenced
		}
		if !fenced && (l == "" || strings.HasPrefix(l, "#")) && cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
		if l != "" || fenced {
			cur.WriteString(line)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// quizText returns the text of each question of a knowledge check's quiz
// property: the question, then each choice and its explanation.
func quizText(n *graph.Node) []string {
	quiz, _ := n.Props["quiz"].(map[string]any)
	qs, _ := quiz["questions"].([]any)
	var out []string
	for _, q := range qs {
		q, _ := q.(map[string]any)
		var b strings.Builder
		str(&b, q["content"])
		choices, _ := q["choices"].([]any)
		for _, c := range choices {
			c, _ := c.(map[string]any)
			str(&b, c["content"])
			str(&b, c["explanation"])
		}
		if b.Len() > 0 {
			out = append(out, b.String())
		}
	}
	return out
}

// str writes v, a string, and a space to b.
func str(b *strings.Builder, v any) {
	if s, ok := v.(string); ok && s != "" {
		fmt.Fprintf(b, "%s ", s)
	}
}

// citedCode returns the code of the samples a node cites (its xref edges
// to CodeSample nodes), in edge order.
func citedCode(g *graph.Graph, id graph.NodeID) []string {
	var out []string
	for _, e := range g.Out(id) {
		if m := g.Node(e.Node); e.Type == graph.Xref && m.Label == graph.CodeSample {
			out = append(out, m.Str("code"))
		}
	}
	return out
}

// passageIndex is the BM25 index of the documents' passages, one field,
// with the passages of document d numbered first[d] to first[d+1]-1,
// and their vectors when the index has an embedder.
type passageIndex struct {
	lex   *bm25
	vec   *vectors // nil without an embedder
	doc   []int32  // document of each passage
	first []int32
	plain []string // plain text of each passage
}

// passageSpec is BM25's usual length normalization, over passages.
var passageSpec = []fieldSpec{{1, 0.75}}

// buildPassages indexes the passages of the documents, and returns the
// index and the text of each passage (to embed).
func buildPassages(g *graph.Graph, nodes []graph.NodeID) (*passageIndex, []string) {
	per := make([][]passage, len(nodes))
	parallel(len(nodes), func(d int) { per[d] = docPassages(g.Node(nodes[d]), citedCode(g, nodes[d])) })
	pi := &passageIndex{first: make([]int32, len(nodes)+1)}
	var texts []string
	for d, ps := range per {
		for _, p := range ps {
			texts = append(texts, p.text)
			pi.plain = append(pi.plain, p.plain)
			pi.doc = append(pi.doc, int32(d))
		}
		pi.first[d+1] = int32(len(texts))
	}
	pi.lex = buildBM25(len(texts), passageSpec, func(p, _ int) string { return texts[p] }, analyzer)
	return pi, texts
}

// score adds w·impact of each query term to acc for the passages of
// the documents numbered from lo to hi (excluded), and returns touched
// extended by the passages it scored first. It scores the passages of
// every document: the caller drops those of documents not allowed, once
// per passage rather than once per posting.
func (pi *passageIndex) score(qs []qterm, lo, hi int32, acc []float32, touched []int32) []int32 {
	ix := pi.lex
	for _, q := range qs {
		ps, imps := ix.doc[ix.start[q.id]:ix.start[q.id+1]], ix.imp[ix.start[q.id]:ix.start[q.id+1]]
		i, j := within(ps, pi.first[lo], pi.first[hi])
		ps, imps = ps[i:j], imps[i:j]
		for i, p := range ps {
			if acc[p] == 0 {
				touched = append(touched, p)
			}
			acc[p] += q.w * imps[i]
		}
	}
	return touched
}

// best returns the passage of document d that scores best for the query
// terms, and its score; -1 and 0 when none matches.
func (pi *passageIndex) best(qs []qterm, d int32) (int32, float32) {
	bestP, bestS := int32(-1), float32(0)
	for p := pi.first[d]; p < pi.first[d+1]; p++ {
		if s := pi.lex.scoreDoc(qs, p); s > bestS {
			bestP, bestS = p, s
		}
	}
	return bestP, bestS
}
