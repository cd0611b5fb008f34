package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
)

func TestCatalogueListsPublicDocumentationOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	kb := f.open(t)
	first := kb.Current()
	g := first.Graph
	for uid, want := range map[string]bool{
		pinDoc:                                true,
		"cogitave.learn.docs.authoring-guide": false, // internal
		"bourdon.agent.claude-code":           false,
		"bourdon.entity.claude-code.bourdon":  false, // public, but memory
	} {
		if got := knowledge.Listed(node(t, g, uid)); got != want {
			t.Errorf("Listed(%s) = %v", uid, got)
		}
	}
	added, removed := knowledge.CatalogueChanges(nil, first)
	if len(removed) != 0 || !slices.ContainsFunc(added, func(n *graph.Node) bool { return n.UID == pinDoc }) {
		t.Fatalf("from nothing: %d added, removed %v", len(added), removed)
	}
	for _, n := range added {
		if !knowledge.Listed(n) {
			t.Errorf("%s is not listed", n.UID)
		}
	}

	path := filepath.Join(f.overlay, "docs", "watch-test.md")
	writeFile(t, path, newDoc)
	second, err := kb.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	added, removed = knowledge.CatalogueChanges(first, second)
	if len(added) != 1 || added[0].UID != "cogitave.learn.docs.watch-test" || len(removed) != 0 {
		t.Errorf("a doc added: added %d, removed %v", len(added), removed)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	third, err := kb.Reload(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	added, removed = knowledge.CatalogueChanges(second, third)
	if len(added) != 0 || !slices.Equal(removed, []string{"cogitave://doc/cogitave.learn.docs.watch-test"}) {
		t.Errorf("a doc removed: added %d, removed %v", len(added), removed)
	}
}
