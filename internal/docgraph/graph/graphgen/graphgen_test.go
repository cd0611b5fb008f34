package graphgen

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// dump writes a graph's nodes and edges, one a line.
func dump(g *graph.Graph) string {
	var sb strings.Builder
	for id := range graph.NodeID(g.Len()) {
		n := g.Node(id)
		fmt.Fprintf(&sb, "%s %s %v\n", n.UID, n.Label, n.Props)
		for _, a := range g.Out(id) {
			fmt.Fprintf(&sb, "  -%s-> %s\n", a.Type, g.Node(a.Node).UID)
		}
	}
	return sb.String()
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, err := Generate(200, 800, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(200, 800, 7)
	c, _ := Generate(200, 800, 8)
	if dump(a) != dump(b) {
		t.Fatal("same seed, different graphs")
	}
	if dump(a) == dump(c) {
		t.Fatal("different seeds, same graph")
	}
}

func TestGenerateShape(t *testing.T) {
	g, err := Generate(1000, 5000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != 1000 || g.EdgeCount() != 5000 {
		t.Fatalf("%d nodes, %d edges; want 1000 and 5000", g.Len(), g.EdgeCount())
	}
	for _, s := range graph.Labels() {
		if len(g.ByLabel(s.Label)) == 0 {
			t.Errorf("no %s node", s.Label)
		}
	}
	if len(g.ByLabel(graph.Doc)) < len(g.ByLabel(graph.Org)) {
		t.Error("fewer docs than organisations")
	}
	specs := map[graph.EdgeType]graph.EdgeSpec{}
	for _, e := range graph.Edges() {
		specs[e.Type] = e
	}
	for id := range graph.NodeID(g.Len()) {
		n := g.Node(id)
		if n.UID != UID(n.Label, int(id)) || n.Title() == n.UID || len(n.Strings("products")) == 0 || n.Str("level") == "" {
			t.Fatalf("node %d: %+v", id, n)
		}
		for _, a := range g.Out(id) {
			s := specs[a.Type]
			if a.Node == id {
				t.Fatalf("self-loop on %s", n.UID)
			}
			if len(s.From) > 0 && !slices.Contains(s.From, n.Label) || len(s.To) > 0 && !slices.Contains(s.To, g.Node(a.Node).Label) {
				t.Fatalf("%s -%s-> %s does not fit the vocabulary", n.Label, a.Type, g.Node(a.Node).Label)
			}
		}
	}
}

func TestGenerateRefusesWhatCannotFit(t *testing.T) {
	if _, err := Generate(0, 0, 1); err == nil {
		t.Fatal("zero nodes accepted")
	}
	if _, err := Generate(2, 1000, 1); err == nil {
		t.Fatal("1000 distinct edges among two nodes accepted")
	}
	g, err := Generate(3, 0, 1)
	if err != nil || g.Len() != 3 || g.EdgeCount() != 0 {
		t.Fatalf("3 nodes, no edges: %v, %v", g, err)
	}
}

// BenchmarkGenerate times the graph the query benchmarks use.
func BenchmarkGenerate(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(100_000, 500_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}
