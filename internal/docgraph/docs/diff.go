package docs

import (
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Diff compares two graphs by uid and content hash: changed are the uids
// in both whose ContentHash (uid, label, properties and content) differs,
// added those only in new, removed those only in old. Edges are not
// compared. Each list is sorted; a nil graph is empty.
func Diff(old, new *graph.Graph) (changed, added, removed []string) {
	hashes := func(g *graph.Graph) map[string]string {
		m := map[string]string{}
		if g == nil {
			return m
		}
		for i := range g.Len() {
			n := g.Node(graph.NodeID(i))
			m[n.UID] = n.ContentHash
		}
		return m
	}
	o, n := hashes(old), hashes(new)
	for uid, h := range n {
		switch oh, ok := o[uid]; {
		case !ok:
			added = append(added, uid)
		case oh != h:
			changed = append(changed, uid)
		}
	}
	for uid := range o {
		if _, ok := n[uid]; !ok {
			removed = append(removed, uid)
		}
	}
	slices.Sort(changed)
	slices.Sort(added)
	slices.Sort(removed)
	return changed, added, removed
}
