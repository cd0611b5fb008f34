package knowledge_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
)

func TestOpenJoinsMemory(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	kb := f.open(t)
	s := kb.Current()
	if s.Version != 1 || s.Index == nil || s.Built.IsZero() {
		t.Fatalf("first snapshot: version %d, index %v, built %v", s.Version, s.Index, s.Built)
	}
	if name, _ := s.Index.Embedder(); name != testEmbedder.Name() {
		t.Errorf("index embedded by %q, want the given embedder %q", name, testEmbedder.Name())
	}
	corpus, err := docs.Load(f.dirs()...)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems) != len(corpus.Problems) {
		t.Errorf("%d problems, want the corpus's %d", len(s.Problems), len(corpus.Problems))
	}
	g := s.Graph
	// Every corpus node is there, unchanged, with its edges.
	outs := func(g *graph.Graph, id graph.NodeID) []string {
		var out []string
		for _, a := range g.Out(id) {
			out = append(out, fmt.Sprintf("%s %s %g", a.Type, g.Node(a.Node).UID, a.Weight))
		}
		return out
	}
	for id := range graph.NodeID(corpus.Graph.Len()) {
		want := corpus.Graph.Node(id)
		got := node(t, g, want.UID)
		if got.ContentHash != want.ContentHash {
			t.Errorf("%s: hash %s, want %s", want.UID, got.ContentHash, want.ContentHash)
		}
		gotID, _ := g.Lookup(want.UID)
		if diff := cmp.Diff(outs(corpus.Graph, id), outs(g, gotID)); diff != "" {
			t.Errorf("%s: edges (-want +got):\n%s", want.UID, diff)
		}
	}
	if diff := cmp.Diff(corpus.Graph.Monikers(), g.Monikers()); diff != "" {
		t.Errorf("monikers (-want +got):\n%s", diff)
	}
	memory := len(g.ByLabel(graph.Agent)) + len(g.ByLabel(graph.Entity))
	if g.Len() != corpus.Graph.Len()+memory {
		t.Errorf("%d nodes, want %d of the corpus and %d of memory", g.Len(), corpus.Graph.Len(), memory)
	}
	memoryEdges := 0
	for _, id := range g.ByLabel(graph.Entity) {
		memoryEdges += len(g.Out(id))
	}
	if g.EdgeCount() != corpus.Graph.EdgeCount()+memoryEdges {
		t.Errorf("%d edges, want %d of the corpus and %d of memory", g.EdgeCount(), corpus.Graph.EdgeCount(), memoryEdges)
	}

	var agents []string
	for _, id := range g.ByLabel(graph.Agent) {
		agents = append(agents, g.Node(id).UID)
	}
	if want := []string{"bourdon.agent.claude-code", "bourdon.agent.codex", "bourdon.agent.librarian"}; !slices.Equal(agents, want) {
		t.Errorf("agents %v, want %v", agents, want)
	}
	lib := node(t, g, "bourdon.agent.librarian")
	if diff := cmp.Diff(map[string]any{"title": "librarian", "agent": "librarian", "agentType": "docs-assistant", "visibility": "public", "roleNarrative": "Keeps the documentation in mind."}, lib.Props); diff != "" {
		t.Errorf("librarian's properties (-want +got):\n%s", diff)
	}
	if _, ok := node(t, g, "bourdon.agent.codex").Props["roleNarrative"]; ok {
		t.Error("codex has no role narrative, but its node has the property")
	}

	pin := node(t, g, "bourdon.entity.librarian.pin-a-namzu-release")
	wantPin := map[string]any{
		"title": "Pin a Namzu release", "agents": []any{"librarian"}, "agent": "librarian", "type": "doc",
		"summary": "The how-to every Namzu user starts from.", "aliases": []any{}, "tags": []any{"namzu"}, "visibility": "public",
	}
	if diff := cmp.Diff(wantPin, pin.Props); diff != "" {
		t.Errorf("entity properties (-want +got):\n%s", diff)
	}
	if pin.Label != graph.Entity || pin.Content != "The how-to every Namzu user starts from." || pin.Source != "librarian" || !pin.LastModified.Equal(time.Date(2026, 6, 20, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("entity node: label %s, content %q, source %q, modified %v", pin.Label, pin.Content, pin.Source, pin.LastModified)
	}
	if pin.ContentHash != graph.ContentHash(pin) {
		t.Error("entity content hash is not graph.ContentHash")
	}

	sum := sha256.Sum256([]byte("数据"))
	cases := []struct {
		uid        string
		visibility string
		xref       []string
	}{
		{"bourdon.entity.librarian.pin-a-namzu-release", "public", []string{pinDoc}}, // by title
		{"bourdon.entity.librarian.namzu-pinning", "private", []string{pinDoc}},      // by an alias naming the uid
		{"bourdon.entity.librarian.foo-bar", "team", nil},
		{"bourdon.entity.librarian.foo-bar-2", "public", nil},
		{fmt.Sprintf("bourdon.entity.librarian.x%x", sum[:4]), "public", nil},
		{"bourdon.entity.librarian.payroll", "private", nil},    // a private tag family
		{"bourdon.entity.librarian.leak", "private", nil},       // an unknown visibility fails closed
		{"bourdon.entity.librarian.claude-code", "public", nil}, // memory nodes never xref memory nodes
		{"bourdon.entity.claude-code.quarterly-revenue", "private", nil},
		{"bourdon.entity.claude-code.roadmap", "team", nil},
		{"bourdon.entity.codex.bourdon", "public", nil},
	}
	for _, tc := range cases {
		n := node(t, g, tc.uid)
		if v := n.Str("visibility"); v != tc.visibility {
			t.Errorf("%s: visibility %q, want %q", tc.uid, v, tc.visibility)
		}
		if got := edges(t, g, tc.uid, graph.Xref); !slices.Equal(got, tc.xref) {
			t.Errorf("%s: xref %v, want %v", tc.uid, got, tc.xref)
		}
		agent := "bourdon.agent." + n.Str("agent")
		if got := edges(t, g, tc.uid, graph.DerivedFrom); !slices.Equal(got, []string{agent}) {
			t.Errorf("%s: derivedFrom %v, want %s", tc.uid, got, agent)
		}
	}
	if n := len(g.ByLabel(graph.Entity)); n != 6+8 {
		t.Errorf("%d entities, want 14 (the one without a name left out)", n)
	}
}

func TestOpenWithoutStoreOrCorpus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	// The overlay alone: the offline embedder trains in a moment on it.
	docsOnly, err := knowledge.Open(ctx, knowledge.Options{Dirs: []string{f.overlay}})
	if err != nil {
		t.Fatal(err)
	}
	if name, dim := docsOnly.Current().Index.Embedder(); !strings.HasPrefix(name, "lsa:") || dim != 128 {
		t.Errorf("without an embedder the index is embedded by %q, %d dimensions; want the offline one, 128", name, dim)
	}
	if g := docsOnly.Current().Graph; len(g.ByLabel(graph.Entity))+len(g.ByLabel(graph.Agent)) != 0 || g.Len() == 0 {
		t.Errorf("documentation only: %d nodes, %d entities", g.Len(), len(g.ByLabel(graph.Entity)))
	}
	// With a cache, the second open reads the model the first one trained.
	cache := t.TempDir()
	var names []string
	for range 2 {
		kb, err := knowledge.Open(ctx, knowledge.Options{Dirs: []string{f.overlay}, EmbedderCache: cache})
		if err != nil {
			t.Fatal(err)
		}
		name, _ := kb.Current().Index.Embedder()
		names = append(names, name)
	}
	if entries, _ := filepath.Glob(filepath.Join(cache, "lsa-*.bin")); len(entries) != 1 || names[0] != names[1] {
		t.Errorf("cache %v, models %v: want one entry and the same model twice", entries, names)
	}
	memoryOnly, err := knowledge.Open(ctx, knowledge.Options{Store: f.store, Embedder: testEmbedder})
	if err != nil {
		t.Fatal(err)
	}
	s := memoryOnly.Current()
	if g := s.Graph; g.Len() != len(g.ByLabel(graph.Entity))+len(g.ByLabel(graph.Agent)) || g.Len() == 0 {
		t.Errorf("memory only: %d nodes, %d entities", g.Len(), len(g.ByLabel(graph.Entity)))
	}
	if s.Index == nil || s.Index.Stats().Docs != 0 {
		t.Errorf("memory only: index %+v, want an empty one", s.Index)
	}
	if _, err := knowledge.Open(ctx, knowledge.Options{Dirs: []string{filepath.Join(t.TempDir(), "missing")}, Embedder: testEmbedder}); err == nil {
		t.Error("Open with a missing corpus root succeeded")
	}
}

func TestReload(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	kb := f.open(t)
	ctx := context.Background()
	first := kb.Current()
	same, err := kb.Reload(ctx)
	if err != nil || same != first {
		t.Fatalf("Reload without a change: %v, snapshot %d (want the first back)", err, same.Version)
	}

	// A manifest change joins the memory again and keeps the corpus's index.
	writeFile(t, f.manifest("librarian"), librarian+"- name: Fresh\n")
	mem, err := kb.Reload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if mem.Version != 2 || mem.Index != first.Index {
		t.Errorf("after a manifest change: version %d, same index %v", mem.Version, mem.Index == first.Index)
	}
	node(t, mem.Graph, "bourdon.entity.librarian.fresh")

	// A corpus change loads the corpus again.
	doc := filepath.Join(f.overlay, "docs", "pin-a-namzu-release.md")
	appendFile(t, doc, "\nOne more line.\n")
	next, err := kb.Reload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if next.Version != 3 || next.Index == first.Index {
		t.Errorf("after a corpus change: version %d, same index %v", next.Version, next.Index == first.Index)
	}
	if changed, _, _ := docs.Diff(mem.Graph, next.Graph); !slices.Equal(changed, []string{pinDoc}) {
		t.Errorf("changed %v, want [%s]", changed, pinDoc)
	}

	// A root that cannot be read fails the rebuild and keeps the snapshot.
	if err := os.Rename(f.overlay, f.overlay+".gone"); err != nil {
		t.Fatal(err)
	}
	if _, err := kb.Reload(ctx); err == nil {
		t.Error("Reload without the overlay succeeded")
	}
	if kb.Current() != next {
		t.Error("a failed Reload replaced the snapshot")
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(old)+text)
}
