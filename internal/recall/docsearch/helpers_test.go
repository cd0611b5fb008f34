package docsearch

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// node makes a node; props are key, value pairs.
func node(uid string, label graph.Label, title, summary, body string, props ...any) graph.Node {
	n := graph.Node{UID: uid, Label: label, Content: body, Props: map[string]any{"title": title, "summary": summary}}
	for i := 0; i+1 < len(props); i += 2 {
		n.Props[props[i].(string)] = props[i+1]
	}
	return n
}

// edge is from, to and type.
type edge [3]string

func buildGraph(t testing.TB, nodes []graph.Node, edges []edge, monikers ...graph.Moniker) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder()
	b.SetMonikers(monikers)
	for _, n := range nodes {
		if _, err := b.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range edges {
		if err := b.AddEdge(e[0], e[1], graph.EdgeType(e[2]), 0); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

func buildIndex(t testing.TB, g *graph.Graph, emb embed.Embedder) *Index {
	t.Helper()
	ix, err := Build(context.Background(), g, emb, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func search(t testing.TB, ix *Index, q Query) *Results {
	t.Helper()
	res, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func uids(res *Results) []string {
	var out []string
	for _, r := range res.Results {
		out = append(out, r.UID)
	}
	return out
}

// hashEmbedder is a test model: a text's vector counts its terms hashed
// into dim buckets. failFrom > 0 makes that call and the later ones fail.
type hashEmbedder struct {
	name     string
	dim      int
	calls    int
	failFrom int
}

func (h *hashEmbedder) Name() string { return h.name }
func (h *hashEmbedder) Dim() int     { return h.dim }

func (h *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	h.calls++
	if h.failFrom > 0 && h.calls >= h.failFrom {
		return nil, errors.New("model server unreachable")
	}
	out := make([][]float32, len(texts))
	for i, s := range texts {
		v := make([]float32, h.dim)
		for _, term := range analyze.Terms(s) {
			f := fnv.New32a()
			f.Write([]byte(term))
			v[f.Sum32()%uint32(h.dim)]++
		}
		out[i] = v
	}
	return out, nil
}

// badEmbedder answers with vectors of the wrong shape.
type badEmbedder struct{ dims, count int }

func (b badEmbedder) Name() string { return "bad" }
func (b badEmbedder) Dim() int     { return 4 }
func (b badEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts)+b.count)
	for i := range out {
		out[i] = make([]float32, 4+b.dims)
	}
	return out, nil
}

// filler makes n documents of unrelated words, so that idf means
// something in small test graphs.
func filler(n int) []graph.Node {
	out := make([]graph.Node, n)
	for i := range out {
		out[i] = node(fmt.Sprintf("test.filler.%d", i), graph.Doc, fmt.Sprintf("Note %d on weather", i),
			"Clouds, rain and wind.", fmt.Sprintf("Weather report %d: sunshine, clouds and a little rain.", i))
	}
	return out
}
