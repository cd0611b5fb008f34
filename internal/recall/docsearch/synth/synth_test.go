package synth

import (
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

func TestGraph(t *testing.T) {
	g, err := Graph(1000, 1)
	if err != nil {
		t.Fatal(err)
	}
	count := map[graph.Label]int{}
	for i := range g.Len() {
		count[g.Node(graph.NodeID(i)).Label]++
	}
	searchable := count[graph.Doc] + count[graph.Unit] + count[graph.Module] + count[graph.LearningPath]
	if searchable != 1000 || count[graph.Doc] != 100 || count[graph.Product] != products || count[graph.Module] == 0 || count[graph.LearningPath] == 0 {
		t.Errorf("labels %v", count)
	}
	id := g.ByLabel(graph.Unit)[0]
	unit := g.Node(id)
	if words := len(strings.Fields(unit.Content)); words < bodyWordsMin || len(g.Out(id)) != 1 || g.Out(id)[0].Type != graph.PartOf {
		t.Errorf("unit %s: %d words, edges %v", unit.UID, words, g.Out(id))
	}
	again, _ := Graph(1000, 1)
	if again.EdgeCount() != g.EdgeCount() || again.Node(500).ContentHash != g.Node(500).ContentHash {
		t.Error("the same seed gives another graph")
	}
	other, _ := Graph(1000, 2)
	if other.Node(500).ContentHash == g.Node(500).ContentHash {
		t.Error("another seed gives the same graph")
	}
}

func TestQueries(t *testing.T) {
	g, _ := Graph(300, 1)
	qs := Queries(g, 40, 3)
	if len(qs) != 40 || slices.Contains(qs, "") {
		t.Fatalf("queries %q", qs)
	}
	if !slices.Equal(qs, Queries(g, 40, 3)) {
		t.Error("the same seed gives other queries")
	}
}
