package docsearch

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

func TestTopK(t *testing.T) {
	top := newTopK(3)
	for i, s := range []float32{0.5, 0.9, 0.1, 0.9, 0.7, 0.2} {
		top.push(int32(i), s)
	}
	want := []hit{{1, 0.9}, {3, 0.9}, {4, 0.7}}
	if got := top.best(); !slices.Equal(got, want) {
		t.Errorf("best %v, want %v", got, want)
	}
	if got := newTopK(0); len(got.best()) != 0 {
		t.Error("a top 0 keeps hits")
	}
}

func TestFuseRanksTiesTogether(t *testing.T) {
	lex := []hit{{1, 3}, {2, 3}, {3, 1}}
	vec := []hit{{3, 0.9}, {4, 0.5}}
	cs := fuse(lex, vec)
	got := map[int32]candidate{}
	for _, c := range cs {
		got[c.doc] = c
	}
	if got[1].bm25Rank != 1 || got[2].bm25Rank != 1 || got[3].bm25Rank != 3 || got[3].vecRank != 1 || got[4].vecRank != 2 {
		t.Errorf("ranks %+v", cs)
	}
	if want := 1.0/63 + 1.0/61; got[3].rrf != want || math.Abs(got[3].fused-(1.0/3+0.7/0.8)/2) > 1e-6 || cs[0].doc != 3 {
		t.Errorf("doc 3: rrf %v, want %v and first", got[3].rrf, want)
	}
	if cs[1].doc != 1 || cs[2].doc != 2 {
		t.Errorf("order %v: ties go to the lower number", cs)
	}
}

func TestTrim(t *testing.T) {
	hits := []hit{{1, 10}, {2, 5}, {3, 2}, {4, 1.9}}
	if got := trim(hits, 0.2); len(got) != 3 {
		t.Errorf("trim kept %v", got)
	}
	if got := trim(nil, 0.5); got != nil {
		t.Errorf("trim(nil) = %v", got)
	}
}

func TestFitBudget(t *testing.T) {
	rs := []Result{{UID: strings.Repeat("a", 100)}, {UID: strings.Repeat("b", 100)}, {UID: "c"}}
	kept, dropped := fitBudget(rs, 90, (*Result).jsonSize)
	if len(kept) != 1 || dropped != 2 {
		t.Errorf("kept %d, dropped %d", len(kept), dropped)
	}
	if kept, dropped := fitBudget(rs, 1000, (*Result).jsonSize); len(kept) != 3 || dropped != 0 {
		t.Errorf("kept %d, dropped %d", len(kept), dropped)
	}
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"A **bold** and __strong__ `code <x>` word":             "A bold and strong code <x> word",
		"See [the guide](../guide.md) and ![a diagram](d.png).": "See the guide and a diagram.",
		"Cites <xref:cogitave.core.query> and <b>tags</b>.":     "Cites cogitave.core.query and tags.",
		"a < b and [not a link] stay":                           "a < b and [not a link] stay",
		"snake_case stays,  spaces   collapse":                  "snake_case stays, spaces collapse",
	} {
		if got := plain(in); got != want {
			t.Errorf("plain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParagraphs(t *testing.T) {
	md := "# Title\n\nFirst line\ncontinues here.\n\n> [!NOTE]\n> A note.\n\n- one\n- two\n\n1. numbered\n\n```go\ncode is skipped\n```\n\n:::code source=\"x\":::\n| a | b |\n\nLast."
	want := []string{"First line continues here.", "A note.", "one two", "numbered", "Last."}
	if got := paragraphs(md); !slices.Equal(got, want) {
		t.Errorf("paragraphs = %q, want %q", got, want)
	}
}

func TestSnippet(t *testing.T) {
	long := strings.Repeat("lorem ipsum dolor sit amet ", 20)
	body := "Intro paragraph.\n\n" + long + "the needle is here " + long + "\n\nAnother paragraph."
	snip := func(body, summary, query string) string {
		ix := buildIndex(t, buildGraph(t, []graph.Node{node("test.doc", graph.Doc, "Doc", summary, body)}, nil), nil)
		return ix.snippet(0, ix.docs.resolve(queryTerms(query), nil))
	}
	s := snip(body, "the summary", "needles")
	if utf8.RuneCountInString(s) > maxSnippet || !strings.Contains(s, "the needle is here") || !strings.HasPrefix(s, "…") || !strings.HasSuffix(s, "…") {
		t.Errorf("snippet %q", s)
	}
	if s := snip(body, "The **summary**.", "absent"); s != "The summary." {
		t.Errorf("without a match: %q, want the summary", s)
	}
	if s := snip(body, "", "absent"); !strings.HasPrefix(s, "Intro paragraph. lorem") {
		t.Errorf("without a match or summary: %q, want the first passage", s)
	}
	if s := snip("ümlaut "+strings.Repeat("ß", 400), "", "zzz"); utf8.RuneCountInString(s) > maxSnippet || !utf8.ValidString(s) {
		t.Errorf("long runes: %d runes, valid %v", utf8.RuneCountInString(s), utf8.ValidString(s))
	}
}

func TestRunesExceed(t *testing.T) {
	pieces := []string{"a", " ", "é", "ß", "日", "😀", "e\u0301", "\xff", "\xc3", "\xe2\x80", "\xf0\x9f\x98"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		for n := range len(s) + 3 {
			if got, want := runesExceed(s, n), utf8.RuneCountInString(s) > n; got != want {
				t.Fatalf("runesExceed(%q, %d) = %v, want %v", s, n, got, want)
			}
		}
	}
}

func TestPassages(t *testing.T) {
	quiz := map[string]any{"questions": []any{map[string]any{"content": "Which gate blocks?", "choices": []any{
		map[string]any{"content": "The docs gate.", "explanation": "Correct: it fails the PR."},
		map[string]any{"content": "None.", "explanation": "Incorrect."},
	}}}}
	n := node("test.kc", graph.Unit, "Knowledge check", "", "# Part\n\nShort.\n\n## Next\n\nOther words.", "quiz", quiz, "prerequisites", "Know **git**.")
	ps := docPassages(&n, []string{"const x = defineTool()"})
	var texts []string
	for _, p := range ps {
		texts = append(texts, p.plain)
	}
	want := []string{"Short.", "Other words.", "Which gate blocks? The docs gate. Correct: it fails the PR. None. Incorrect.", "Know git.", ""}
	if !slices.Equal(texts, want) || ps[4].text != "const x = defineTool()" {
		t.Errorf("passages %q, want %q", texts, want)
	}
	// A fenced block stays whole across its blank lines, and short blocks
	// join until a passage has passageWords words.
	fence := "Intro.\n\n```go\nx := 1\n\ny := 2\n```\n\n" + strings.Repeat("word ", passageWords) + "\n\nTail."
	n = node("test.f", graph.Doc, "F", "", fence, "quiz", "not a quiz")
	ps = docPassages(&n, nil)
	if len(ps) != 2 || !strings.Contains(ps[0].text, "x := 1\n\ny := 2") || ps[1].plain != "Tail." {
		t.Errorf("passages %q", ps)
	}
}

// TestGraphPriors: the walk from the results lifts the candidate the
// others link to; the walk from an anchor lifts its neighbour and not
// the far side; a hub is walked from its other ends only.
func TestGraphPriors(t *testing.T) {
	nodes := []graph.Node{
		node("test.mod", graph.Module, "m", "", ""),
		node("test.u1", graph.Unit, "u1", "", ""),
		node("test.u2", graph.Unit, "u2", "", ""),
		node("test.lone", graph.Doc, "lone", "", ""),
		node("test.hub", graph.Role, "everyone", "", ""),
	}
	edges := []edge{{"test.u1", "test.mod", "partOf"}, {"test.u2", "test.mod", "partOf"}}
	for i := range hubDegree + 1 {
		uid := fmt.Sprintf("test.extra.%d", i)
		nodes = append(nodes, node(uid, graph.Doc, uid, "", ""))
		edges = append(edges, edge{uid, "test.hub", "forRole"})
	}
	edges = append(edges, edge{"test.lone", "test.hub", "forRole"})
	ix := buildIndex(t, buildGraph(t, nodes, edges), nil)
	doc := func(uid string) int32 {
		id, _ := ix.g.Lookup(uid)
		return int32(slices.Index(ix.docs.nodes, id))
	}
	cs := []candidate{{doc: doc("test.u1"), fused: 1}, {doc: doc("test.u2"), fused: 1}, {doc: doc("test.mod"), fused: 1}, {doc: doc("test.lone"), fused: 1}}
	hub, _ := ix.g.Lookup("test.hub")
	sg := ix.subgraph(cs, nil)
	if _, ok := sg.local[hub]; !ok {
		t.Fatal("the hub next to a candidate is not in the subgraph")
	}
	if n := len(sg.moves); n != 5 {
		t.Errorf("subgraph of %d nodes, want the 4 candidates and the hub (whose edges are not walked)", n)
	}
	if ix.anchorPriors(cs, nil) != nil {
		t.Error("priors without anchors")
	}
	u1, _ := ix.g.Lookup("test.u1")
	fromAnchors := ix.anchorPriors(cs, []graph.NodeID{u1})
	if fromAnchors[0] != 0 || fromAnchors[2] != 1 || fromAnchors[1] <= fromAnchors[3] {
		t.Errorf("from u1: %v, want the module 1, u2 above the lone doc, u1 itself 0", fromAnchors)
	}
}
