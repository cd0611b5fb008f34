package demo

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestWriteDocsLoadsWithoutProblems(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docs") // WriteDocs creates it
	if err := WriteDocs(dir); err != nil {
		t.Fatal(err)
	}
	c, err := docs.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Problems {
		t.Errorf("problem: %s", p)
	}
	g := c.Graph
	for label, want := range map[graph.Label]int{
		graph.LearningPath: 1, graph.Module: 2, graph.Unit: 6, graph.Achievement: 3,
		graph.Doc: 4, graph.ADR: 2, graph.Skill: 4, graph.Repo: 1,
		graph.CodeSample: 2, graph.Role: 2, graph.Product: 1,
	} {
		if n := len(g.ByLabel(label)); n != want {
			t.Errorf("%d %s node(s), want %d", n, label, want)
		}
	}

	has := func(from, to string, typ graph.EdgeType) bool {
		f, ok1 := g.Lookup(from)
		to2, ok2 := g.Lookup(to)
		if !ok1 || !ok2 {
			return false
		}
		return slices.ContainsFunc(g.Out(f), func(a graph.Adj) bool { return a.Node == to2 && a.Type == typ })
	}
	for _, e := range []struct {
		from, to string
		typ      graph.EdgeType
	}{
		{"demo.docs.how-a-refund-reaches-the-ledger", "demo.docs.payments-api", graph.Xref},
		{"demo.docs.how-a-refund-reaches-the-ledger", "demo.decisions.ledger-migration", graph.Xref},
		{"demo.docs.retry-a-refund-safely", "snippets/payments/refund.sh#refund_v2", graph.Xref},
		{"demo.decisions.post-ledger-entries-from-handlers", "demo.decisions.ledger-migration", graph.SupersededBy},
		{"demo.decisions.ledger-migration", "demo.repos.payments-api", graph.ImplementedBy},
		{"demo.learn.ledger-outbox", "demo.learn.refunds-without-double-posting", graph.DependsOn},
		{"demo.learn.ledger-outbox", "demo.skills.replay-ledger-events", graph.TeachesSkill},
		{"demo.skills.replay-ledger-events", "demo.skills.write-through-an-outbox", graph.DependsOn},
	} {
		if !has(e.from, e.to, e.typ) {
			t.Errorf("no %s edge %s -> %s", e.typ, e.from, e.to)
		}
	}

	id, ok := g.Lookup("demo.docs.retry-a-refund-safely")
	if !ok || g.Node(id).Str("monikerRange") == "" {
		t.Errorf("retry-a-refund-safely has no monikerRange")
	}
}

// TestWriteDocsNamesDemoEntities checks that docs carry the names of the
// demo library's entities, which is what links the two in the federation.
func TestWriteDocsNamesDemoEntities(t *testing.T) {
	dir := t.TempDir()
	if err := WriteDocs(dir); err != nil {
		t.Fatal(err)
	}
	c, err := docs.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	titles := map[string]bool{}
	for i := range c.Graph.Len() {
		titles[c.Graph.Node(graph.NodeID(i)).Title()] = true
	}
	entities := map[string]bool{}
	for _, a := range agents(func(int) string { return "2026-01-01" }, "2026-01-01T00:00:00+00:00") {
		rows, _ := a.Value("known_entities").([]any)
		for _, r := range rows {
			name, _ := r.(*yaml11.Map).Value("name").(string)
			entities[name] = true
		}
	}
	for _, name := range []string{"Payments API", "Checkout page", "Ledger migration"} {
		if !entities[name] {
			t.Errorf("the demo library has no entity %q", name)
		}
		if !titles[name] {
			t.Errorf("the demo corpus has no node titled %q", name)
		}
	}
}

func TestWriteDocsStaysInsideDir(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "docs")); err != nil {
		t.Skipf("cannot make a symbolic link: %v", err)
	}
	if err := WriteDocs(dir); err == nil {
		t.Error("WriteDocs followed a symbolic link out of dir")
	}
	if ents, _ := os.ReadDir(outside); len(ents) > 0 {
		t.Errorf("WriteDocs wrote %d entries outside dir", len(ents))
	}
}

func TestWriteDocsTwice(t *testing.T) {
	dir := t.TempDir()
	for range 2 {
		if err := WriteDocs(dir); err != nil {
			t.Fatal(err)
		}
	}
	info, err := os.Stat(filepath.Join(dir, "docs", "payments-api.md"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm()&^0o644 != 0 {
		t.Errorf("mode %v, want at most 0644", info.Mode().Perm())
	}
}
