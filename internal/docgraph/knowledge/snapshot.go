package knowledge

import (
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
)

// Snapshot is one immutable state of the base.
type Snapshot struct {
	// Graph joins the corpus and the memory (see the package
	// documentation). Apply Visible before showing any of it.
	Graph *graph.Graph
	// Index searches the corpus's documents and code samples.
	Index *docsearch.Index
	// Problems are the corpus's validation problems.
	Problems []docs.Problem
	// Built is when the snapshot was made.
	Built time.Time
	// Version is 1 for the first snapshot of a Base and grows by one
	// with each rebuild.
	Version uint64

	access access
	// stamp and lib are what the snapshot was built from: the corpus
	// roots' fingerprint and the library snapshot (nil without a store).
	stamp uint64
	lib   *library.Snapshot
	// reqStamp is the request store's stamp (requests.Store.Stamp).
	reqStamp uint64
}

// access holds, by NodeID, what visibility tests read.
type access struct {
	// level is the visibility of each node: a memory row's own, team for
	// an internal document, public for the rest.
	level []visibility.Level
	// agent is the position in agents of a memory node's agent (or of a
	// request's area, its namespace), -1 for a documentation node.
	agent  []int32
	agents []string
}

// Viewer says which nodes a caller may see: memory rows up to Level from
// the agents Reader accepts (a nil Reader accepts every agent), and
// internal documents from team up.
type Viewer struct {
	Level  visibility.Level
	Reader federation.Reader
}

// Visible returns the test of whether v may see a node of s.Graph, for
// cypher.Options.Visible, graph.NeighbourhoodFunc and any listing. A
// NodeID outside the graph is not visible.
func (s *Snapshot) Visible(v Viewer) func(graph.NodeID) bool {
	acc := &s.access
	readable := make([]bool, len(acc.agents))
	for i, a := range acc.agents {
		readable[i] = v.Reader == nil || v.Reader(a)
	}
	return func(id graph.NodeID) bool {
		if id < 0 || int(id) >= len(acc.level) || !visibility.Visible(acc.level[id], v.Level) {
			return false
		}
		a := acc.agent[id]
		return a < 0 || readable[a]
	}
}
