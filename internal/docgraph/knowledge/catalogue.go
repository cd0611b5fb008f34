package knowledge

import (
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Listed reports whether a node belongs in the catalogue that every
// caller may list: a documentation node that is neither internal nor
// above public. Memory nodes and requests belong to namespaces and are
// never listed (those allowed read them by uid).
func Listed(n *graph.Node) bool {
	return n.Label != graph.Entity && n.Label != graph.Agent && n.Label != graph.Request && n.Str("visibility") != "internal" &&
		(n.Str("visibility") == "" || n.Str("visibility") == "public")
}

// CatalogueChanges compares the catalogues (Listed) of two snapshots by
// resource URI (graph.URI): the listed nodes of cur that old did not list,
// in graph order, and the URIs old listed that cur does not, sorted. A nil
// old lists nothing.
func CatalogueChanges(old, cur *Snapshot) (added []*graph.Node, removed []string) {
	was := map[string]bool{}
	if old != nil {
		for i := range old.Graph.Len() {
			if n := old.Graph.Node(graph.NodeID(i)); Listed(n) {
				was[graph.URI(n.Label, n.UID)] = true
			}
		}
	}
	for i := range cur.Graph.Len() {
		n := cur.Graph.Node(graph.NodeID(i))
		if !Listed(n) {
			continue
		}
		if uri := graph.URI(n.Label, n.UID); was[uri] {
			delete(was, uri)
		} else {
			added = append(added, n)
		}
	}
	for uri := range was {
		removed = append(removed, uri)
	}
	slices.Sort(removed)
	return added, removed
}
