package knowledge_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// testEmbedder stands in for the offline embedder, whose training on the
// corpus takes seconds under the race detector.
var testEmbedder = embed.TrainCorpus([]string{
	"pin a namzu release line", "agent memory federation", "query the estate graph", "documentation search index",
}, 4)

// corpusDirs are the corpus and the overlay the benchmarks load.
var corpusDirs = []string{"../../../testdata/learn", "../../../testdata/learn-overlay"}

// pinDoc is a document of the overlay that the librarian's entities name.
const pinDoc = "cogitave.learn.docs.pin-a-namzu-release"

// librarian is a manifest added to the seed library: entities that name
// documents by title and by uid, slugs that collide or come out empty,
// and visibilities raised by a private tag family or failing closed.
const librarian = `spec_version: '0.1'
agent:
  id: librarian
  type: docs-assistant
  role_narrative: Keeps the documentation in mind.
last_updated: '2026-06-29T12:00:00+00:00'
known_entities:
- name: ' Pin a Namzu release '
  type: doc
  summary: The how-to every Namzu user starts from.
  tags: [namzu]
  last_touched: '2026-06-20'
  visibility: public
- name: Namzu pinning
  aliases: [COGITAVE.LEARN.DOCS.PIN-A-NAMZU-RELEASE, Pinning]
  summary: Private notes on pinning.
  visibility: private
- name: Foo Bar
  visibility: team
- name: foo-bar
- name: 数据
- name: Payroll
  tags: [financial]
  visibility: public
- name: Leak
  visibility: confidential
- name: claude-code
  summary: Names an agent, not a document.
- name: '  '
  summary: No name.
`

// fixture is a memory library (the conformance seed library and the
// librarian) and a corpus (testdata/learn and a copy of the overlay), in
// temporary directories the test may change.
type fixture struct {
	lib     string // the library directory
	overlay string // the overlay's copy
	store   *federation.Store
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{
		lib:     mcptest.CopyDir(t, "../../../testdata/conformance/fed_seed_library"),
		overlay: mcptest.CopyDir(t, "../../../testdata/learn-overlay"),
	}
	writeFile(t, f.manifest("librarian"), librarian)
	lib, err := library.Open(f.lib, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	f.store = federation.New(lib)
	return f
}

// dirs returns the corpus roots.
func (f *fixture) dirs() []string { return []string{"../../../testdata/learn", f.overlay} }

// manifest returns the path of an agent's manifest.
func (f *fixture) manifest(agent string) string {
	return filepath.Join(f.lib, "agents", agent+library.ManifestSuffix)
}

// options are the options of a base over the fixture, polling often.
func (f *fixture) options() knowledge.Options {
	return knowledge.Options{Dirs: f.dirs(), Store: f.store, Embedder: testEmbedder, Poll: 10 * time.Millisecond}
}

// open opens a base over the fixture.
func (f *fixture) open(t *testing.T) *knowledge.Base {
	t.Helper()
	kb, err := knowledge.Open(context.Background(), f.options())
	if err != nil {
		t.Fatal(err)
	}
	return kb
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// node returns the node with the uid, failing the test without one.
func node(t *testing.T, g *graph.Graph, uid string) *graph.Node {
	t.Helper()
	id, ok := g.Lookup(uid)
	if !ok {
		t.Fatalf("no node %s", uid)
	}
	return g.Node(id)
}

// edges returns the uids an edge of type typ leads to from uid.
func edges(t *testing.T, g *graph.Graph, uid string, typ graph.EdgeType) []string {
	t.Helper()
	id, ok := g.Lookup(uid)
	if !ok {
		t.Fatalf("no node %s", uid)
	}
	var out []string
	for _, a := range g.Out(id) {
		if a.Type == typ {
			out = append(out, g.Node(a.Node).UID)
		}
	}
	return out
}
