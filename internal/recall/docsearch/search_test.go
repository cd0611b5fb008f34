package docsearch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

func TestSearchWeighsTheTitle(t *testing.T) {
	g := buildGraph(t, append(filler(20),
		node("test.a", graph.Doc, "Rotating credentials", "How secrets move.", "Nothing about the subject here."),
		node("test.b", graph.Doc, "Operations handbook", "Day to day work.", "Sometimes rotating credentials comes up in passing, among many other chores of the day."),
	), nil)
	res := search(t, buildIndex(t, g, nil), Query{Text: "rotating credentials"})
	if got := uids(res); !slices.Equal(got, []string{"test.a", "test.b"}) {
		t.Errorf("order %q, want the title match first", got)
	}
}

func TestSearchResultShape(t *testing.T) {
	body := "# Heading\n\n" + strings.Repeat("Filler words about nothing in particular. ", 12) +
		"The **idempotency** key makes a [replayed request](https://example.com/x) safe, see <xref:test.other>.\n\n```go\nidempotency := true\n```\n"
	g := buildGraph(t, append(filler(10),
		node("test.doc", graph.Unit, "Safe retries", "Retrying with an idempotency key.", body, "headings", []any{"Heading"}),
	), nil)
	ix := buildIndex(t, g, &hashEmbedder{name: "hash", dim: 32})
	res := search(t, ix, Query{Text: "idempotency key"})
	if len(res.Results) == 0 {
		t.Fatal("no results")
	}
	r := res.Results[0]
	if r.UID != "test.doc" || r.Label != graph.Unit || r.Title != "Safe retries" || r.URI != "cogitave://unit/test.doc" {
		t.Errorf("result %+v", r)
	}
	if n := utf8.RuneCountInString(r.Snippet); n > maxSnippet || !strings.Contains(r.Snippet, "The idempotency key makes a replayed request safe, see test.other.") || !strings.HasPrefix(r.Snippet, "…") {
		t.Errorf("snippet (%d characters) %q", n, r.Snippet)
	}
	s := r.Signals
	if s.BM25 <= 0 || s.BM25Rank != 1 || s.Cosine <= 0 || s.VectorRank != 1 || s.RRF != round(2.0/61) || s.Final <= 0 || r.Score != s.Final {
		t.Errorf("signals %+v", s)
	}
	if res.Truncated || res.Dropped != 0 || res.Warnings != nil {
		t.Errorf("results %+v", res)
	}
}

func filterGraph(t *testing.T) *graph.Graph {
	return buildGraph(t, append(filler(10),
		node("test.mod", graph.Module, "Widgets module", "All about widgets.", "Widgets.", "products", []any{"Alpha"}),
		node("test.mod.unit", graph.Unit, "Configure widgets", "Widget settings.", "Widgets are configured."),
		node("test.beta", graph.Doc, "Beta widgets", "Widgets of beta.", "Widgets.", "products", []any{"beta"}),
		node("test.secret", graph.Doc, "Internal widgets", "Widgets, privately.", "Widgets.", "visibility", "internal"),
		node("test.v2", graph.Doc, "Widgets from two", "Newer widgets.", "Widgets.", "monikerRange", ">=alpha-2.0"),
		node("test.v1", graph.Doc, "Widgets of one", "Older widgets.", "Widgets.", "monikerRange", "alpha-1.0"),
		node("test.bad", graph.Doc, "Widgets nowhere", "Broken range.", "Widgets.", "monikerRange", ">= || <"),
		node("test.article", graph.Article, "Widgets article", "An article on widgets.", "Widgets."),
	), []edge{{"test.mod.unit", "test.mod", "partOf"}},
		graph.Moniker{Name: "alpha-1.0", Product: "alpha", Order: 100},
		graph.Moniker{Name: "alpha-2.0", Product: "alpha", Order: 200},
		graph.Moniker{Name: "alpha-3.0", Product: "alpha", Order: 300},
		graph.Moniker{Name: "beta-1.0", Product: "beta", Order: 100},
	)
}

func TestSearchFilters(t *testing.T) {
	ix := buildIndex(t, filterGraph(t), nil)
	all := []string{"test.article", "test.bad", "test.beta", "test.mod", "test.mod.unit", "test.v1", "test.v2"}
	for _, tc := range []struct {
		name string
		q    Query
		want []string
	}{
		{"public", Query{}, all},
		{"internal", Query{IncludeInternal: true}, []string{"test.article", "test.bad", "test.beta", "test.mod", "test.mod.unit", "test.secret", "test.v1", "test.v2"}},
		{"types", Query{Types: []graph.Label{graph.Article, graph.Module}}, []string{"test.article", "test.mod"}},
		{"product inherited", Query{Product: "ALPHA"}, []string{"test.mod", "test.mod.unit"}},
		{"moniker 2.0", Query{Moniker: "alpha-2.0"}, []string{"test.article", "test.beta", "test.mod", "test.mod.unit", "test.v2"}},
		{"moniker 3.0", Query{Moniker: "alpha-3.0"}, []string{"test.article", "test.beta", "test.mod", "test.mod.unit", "test.v2"}},
		{"moniker 1.0", Query{Moniker: "alpha-1.0"}, []string{"test.article", "test.beta", "test.mod", "test.mod.unit", "test.v1"}},
		{"other product's moniker", Query{Moniker: "beta-1.0"}, []string{"test.article", "test.beta", "test.mod", "test.mod.unit"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.q.Text = "widgets"
			got := uids(search(t, ix, tc.q))
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if n := ix.Stats().BadMonikerRanges; n != 1 {
		t.Errorf("%d bad moniker ranges, want 1", n)
	}
	res := search(t, ix, Query{Text: "widgets", Moniker: "alpha-2.0"})
	for _, r := range res.Results {
		if b := r.Signals.Boosts["moniker"]; (r.UID == "test.v2") != (b == boostMoniker) {
			t.Errorf("%s has moniker boost %v", r.UID, b)
		}
	}
}

func TestSearchRejectsBadQueries(t *testing.T) {
	ix := buildIndex(t, filterGraph(t), nil)
	for _, q := range []Query{
		{Text: "  "},
		{Text: "widgets", TopK: MaxTopK + 1},
		{Text: "widgets", TopK: -1},
		{Text: "widgets", TokenBudget: -5},
		{Text: "widgets", Types: []graph.Label{graph.Person}},
		{Text: "widgets", Moniker: "gamma-9"},
		{Text: "widgets", Anchors: []string{"test.nosuch"}},
	} {
		if _, err := ix.Search(context.Background(), q); err == nil {
			t.Errorf("query %+v accepted", q)
		}
	}
	if _, err := ix.SearchCode(context.Background(), CodeQuery{Text: "x", TopK: MaxCodeTopK + 1}); err == nil {
		t.Error("code query with topK 21 accepted")
	}
}

func TestSearchDemotesSuperseded(t *testing.T) {
	g := buildGraph(t, append(filler(10),
		node("test.old", graph.ADR, "Choose the datastore", "Which database to run.", "We choose a datastore."),
		node("test.new", graph.ADR, "Datastore selection, revised", "Which database to run now.", "We choose the datastore anew."),
	), []edge{{"test.old", "test.new", "supersededBy"}})
	res := search(t, buildIndex(t, g, nil), Query{Text: "choose the datastore"})
	if got := uids(res); !slices.Equal(got, []string{"test.new", "test.old"}) {
		t.Fatalf("order %q, want the replacement first", got)
	}
	old := res.Results[1]
	if old.Signals.Boosts["superseded"] != boostSuperseded || old.Signals.Boosts["exactTitle"] != boostExactTitle {
		t.Errorf("boosts of the superseded ADR: %v", old.Signals.Boosts)
	}
	if old.Signals.BM25Rank != 1 {
		t.Errorf("the superseded ADR should lead BM25, signals %+v", old.Signals)
	}
}

func TestSearchTokenBudget(t *testing.T) {
	ix := buildIndex(t, filterGraph(t), nil)
	full := search(t, ix, Query{Text: "widgets"})
	cut := search(t, ix, Query{Text: "widgets", TokenBudget: 250})
	if full.Truncated || !cut.Truncated || cut.Dropped == 0 || len(cut.Results)+cut.Dropped != len(full.Results) {
		t.Fatalf("full %d (truncated %v), cut %d + %d dropped", len(full.Results), full.Truncated, len(cut.Results), cut.Dropped)
	}
	if !slices.Equal(uids(cut), uids(full)[:len(cut.Results)]) {
		t.Error("the budget changed the order")
	}
	none := search(t, ix, Query{Text: "widgets", TokenBudget: 1})
	if len(none.Results) != 0 || none.Dropped != len(full.Results) {
		t.Errorf("a one-token budget kept %d results", len(none.Results))
	}
}

func TestSearchTopK(t *testing.T) {
	ix := buildIndex(t, buildGraph(t, filler(60), nil), nil)
	if n := len(search(t, ix, Query{Text: "weather"}).Results); n != DefaultTopK {
		t.Errorf("%d results by default", n)
	}
	if n := len(search(t, ix, Query{Text: "weather", TopK: 3}).Results); n != 3 {
		t.Errorf("%d results for topK 3", n)
	}
	if n := len(search(t, ix, Query{Text: "zebra"}).Results); n != 0 {
		t.Errorf("%d results for an unknown word", n)
	}
}

func TestSearchEmbedders(t *testing.T) {
	g := filterGraph(t)
	emb := &hashEmbedder{name: "hash:a", dim: 16}
	ix := buildIndex(t, g, emb)
	if name, dim := ix.Embedder(); name != "hash:a" || dim != 16 {
		t.Errorf("Embedder() = %s, %d", name, dim)
	}
	for _, other := range []*hashEmbedder{{name: "hash:b", dim: 16}, {name: "hash:a", dim: 8}} {
		_, err := ix.Search(context.Background(), Query{Text: "widgets", Embedder: other})
		if !errors.Is(err, ErrEmbedderMismatch) {
			t.Errorf("query by %s/%d: %v", other.name, other.dim, err)
		}
	}
	if _, err := ix.Search(context.Background(), Query{Text: "widgets", Embedder: &hashEmbedder{name: "hash:a", dim: 16}}); err != nil {
		t.Errorf("the same model: %v", err)
	}

	lexical := buildIndex(t, g, nil)
	if name, _ := lexical.Embedder(); name != "" {
		t.Errorf("lexical index has embedder %q", name)
	}
	if _, err := lexical.Search(context.Background(), Query{Text: "widgets", Embedder: emb}); !errors.Is(err, ErrEmbedderMismatch) {
		t.Errorf("query vector for an index without vectors: %v", err)
	}
	if r := search(t, lexical, Query{Text: "widgets"}); len(r.Results) == 0 || r.Results[0].Signals.VectorRank != 0 {
		t.Errorf("lexical index: %+v", r)
	}
}

func TestSearchDegradesWhenTheEmbedderFails(t *testing.T) {
	emb := &hashEmbedder{name: "flaky", dim: 16, failFrom: 3} // the build makes two calls (titles, passages)
	ix := buildIndex(t, filterGraph(t), emb)
	res := search(t, ix, Query{Text: "widgets"})
	if len(res.Results) == 0 || len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "unreachable") {
		t.Errorf("results %d, warnings %q", len(res.Results), res.Warnings)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Search(ctx, Query{Text: "widgets"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

func TestBuildRejectsBadVectors(t *testing.T) {
	g := filterGraph(t)
	for _, emb := range []badEmbedder{{dims: 1}, {count: 1}} {
		if _, err := Build(context.Background(), g, emb, Options{}); err == nil {
			t.Errorf("Build accepted %+v", emb)
		}
	}
	if _, err := Build(context.Background(), g, &hashEmbedder{name: "down", dim: 4, failFrom: 1}, Options{}); err == nil {
		t.Error("Build accepted a failing embedder")
	}
}

func TestSearchIsDeterministic(t *testing.T) {
	ix := learnIndex(t)
	q := Query{Text: "how do I roll back a bad release", TopK: 20}
	a, b := search(t, ix, q), search(t, ix, q)
	if !slices.EqualFunc(a.Results, b.Results, func(x, y Result) bool { return x.UID == y.UID && x.Score == y.Score }) {
		t.Error("the same query ranks differently")
	}
}

// TestAnchorsDecide: "Summary" names thirty units; the caller's anchor
// picks the one of its module.
func TestAnchorsDecide(t *testing.T) {
	ix := learnIndex(t)
	for anchor, want := range map[string]string{
		"cogitave.learn.reliability-and-sre":                  "cogitave.learn.reliability-and-sre.summary",
		"cogitave.learn.understand-massar.the-dial-out-model": "cogitave.learn.understand-massar.summary",
		"cogitave.learn.api-design.design-a-clean-api":        "cogitave.learn.api-design.summary",
	} {
		res := search(t, ix, Query{Text: "Summary", Anchors: []string{anchor}})
		if len(res.Results) == 0 || res.Results[0].UID != want {
			t.Errorf("anchored on %s: %q, want %s first", anchor, uids(res), want)
		} else if res.Results[0].Signals.PPRAnchor != 1 {
			t.Errorf("signals %+v", res.Results[0].Signals)
		}
	}
}

func TestSearchCode(t *testing.T) {
	code := func(uid, lang, region, source, text string, props ...any) graph.Node {
		n := node(uid, graph.CodeSample, region+" ("+source+")", "", "", append([]any{"language", lang, "region", region, "source", source, "code", text}, props...)...)
		return n
	}
	g := buildGraph(t, []graph.Node{
		code("test.code.tool", "typescript", "snippet_tool", "greeter/agent.ts", "export const GreetTool = defineTool({ name: \"greet\" });"),
		code("test.code.py", "python", "register", "greeter/agent.py", "registry.register(greet_tool)", "products", []any{"namzu"}),
		code("test.code.go", "go", "serve", "server/main.go", "http.ListenAndServe(addr, mux)"),
		node("test.doc", graph.Doc, "Declare a tool", "Tools.", "See the code.", "products", []any{"Yuva"}),
	}, []edge{{"test.doc", "test.code.tool", "xref"}})
	ix := buildIndex(t, g, &hashEmbedder{name: "hash", dim: 16})
	codeUIDs := func(q CodeQuery) []string {
		res, err := ix.SearchCode(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range res.Results {
			out = append(out, r.UID)
		}
		return out
	}
	if got := codeUIDs(CodeQuery{Text: "define tool"}); len(got) == 0 || got[0] != "test.code.tool" {
		t.Errorf("camelCase query: %q", got)
	}
	if got := codeUIDs(CodeQuery{Text: "greet", Language: "ts"}); !slices.Equal(got, []string{"test.code.tool"}) {
		t.Errorf("language alias: %q", got)
	}
	if got := codeUIDs(CodeQuery{Text: "greet", Product: "yuva"}); !slices.Equal(got, []string{"test.code.tool"}) {
		t.Errorf("product of the citing doc: %q", got)
	}
	if got := codeUIDs(CodeQuery{Text: "register greet", Product: "namzu"}); !slices.Equal(got, []string{"test.code.py"}) {
		t.Errorf("own product: %q", got)
	}
	res, _ := ix.SearchCode(context.Background(), CodeQuery{Text: "ListenAndServe"})
	if len(res.Results) == 0 || res.Results[0].Language != "go" || res.Results[0].Source != "server/main.go" ||
		res.Results[0].URI != "cogitave://codesample/test.code.go" || res.Results[0].Code != "http.ListenAndServe(addr, mux)" {
		t.Errorf("code result %+v", res.Results)
	}
}

func TestSearchConcurrently(t *testing.T) {
	ix := learnIndex(t)
	queries := []string{"idempotency key", "rollback a deploy", "Summary", "obervability", "MCP tools"}
	want := make([][]string, len(queries))
	for i, q := range queries {
		want[i] = uids(search(t, ix, Query{Text: q}))
	}
	done := make(chan error)
	for w := range 4 {
		go func() {
			for i := range 20 {
				q := (w + i) % len(queries)
				res, err := ix.Search(context.Background(), Query{Text: queries[q]})
				if err == nil && !slices.Equal(uids(res), want[q]) {
					err = errors.New("a concurrent search ranks differently: " + queries[q])
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestDictionaryKeepsRealWords: a query word that the index lacks is
// repaired into the indexed word nearest in spelling only when the
// dictionary does not know it.
func TestDictionaryKeepsRealWords(t *testing.T) {
	nodes := append(filler(10), node("test.safe", graph.Doc, "Safe mode", "How safe mode starts.", "Safe mode starts with the watchdog."))
	g := buildGraph(t, nodes, nil)
	plain := buildIndex(t, g, nil)
	if got := uids(search(t, plain, Query{Text: "unsafe"})); !slices.Equal(got, []string{"test.safe"}) {
		t.Fatalf("without a dictionary: %v, want the repair to find test.safe", got)
	}
	ix, err := Build(context.Background(), g, nil, Options{Dictionary: dictionary{"unsafe": true}})
	if err != nil {
		t.Fatal(err)
	}
	if got := uids(search(t, ix, Query{Text: "unsafe"})); len(got) != 0 {
		t.Errorf("a real word was repaired: %v", got)
	}
	if got := uids(search(t, ix, Query{Text: "watchdgo"})); !slices.Equal(got, []string{"test.safe"}) {
		t.Errorf("a misspelt word: %v, want test.safe", got)
	}
}

// dictionary knows the words listed.
type dictionary map[string]bool

func (d dictionary) Known(word string) bool { return d[word] }

// TestCachedEmbedder: the second start reads the model the first one
// trained; another corpus replaces the entry; a corrupt entry is trained
// again and replaced.
func TestCachedEmbedder(t *testing.T) {
	dir := t.TempDir()
	g := buildGraph(t, filler(20), nil)
	first, err := CachedEmbedder(g, 8, dir)
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "lsa-*.bin"))
	if len(files) != 1 {
		t.Fatalf("cache holds %v", files)
	}
	again, err := CachedEmbedder(g, 8, dir)
	if err != nil || again.Name() != first.Name() || first.Name() != TrainEmbedder(g, 8).Name() {
		t.Errorf("read back %s (%v), want %s", again.Name(), err, first.Name())
	}
	other := buildGraph(t, append(filler(20), node("test.x", graph.Doc, "Extra", "", "")), nil)
	if _, err := CachedEmbedder(other, 8, dir); err != nil {
		t.Fatal(err)
	}
	if now, _ := filepath.Glob(filepath.Join(dir, "lsa-*.bin")); len(now) != 1 || now[0] == files[0] {
		t.Errorf("cache holds %v, want the new corpus's entry only", now)
	}
	for _, f := range files {
		if err := os.WriteFile(f, []byte("garbage"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if m, err := CachedEmbedder(g, 8, dir); err != nil || m.Name() != first.Name() {
			t.Errorf("after corruption: %v, %v", m.Name(), err)
		}
	}
	if _, err := CachedEmbedder(g, 8, filepath.Join(files[0], "not-a-dir")); err == nil {
		t.Error("an unwritable cache reports no error")
	}
}
