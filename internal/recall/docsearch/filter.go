package docsearch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// allowedDocs returns the documents that pass the query's filters.
func (ix *Index) allowedDocs(q Query) (bitset, error) {
	m := -1
	if q.Moniker != "" {
		var ok bool
		if m, ok = ix.monikers[q.Moniker]; !ok {
			return nil, fmt.Errorf("docsearch: unknown moniker %q", q.Moniker)
		}
	}
	base := ix.public
	if q.IncludeInternal {
		base = ix.all
	}
	if len(q.Types) == 0 && q.Product == "" && m < 0 {
		return base, nil
	}
	product := strings.ToLower(strings.TrimSpace(q.Product))
	out := newBitset(len(ix.attrs))
	for d, a := range ix.attrs {
		ok := base.has(d) &&
			(len(q.Types) == 0 || slices.Contains(q.Types, a.label)) &&
			(product == "" || slices.Contains(a.products, product)) &&
			(m < 0 || a.rng < 0 || ix.ranges[a.rng][m])
		if ok {
			out.set(d)
		}
	}
	return out, nil
}

// anchors resolves the query's anchor uids.
func (ix *Index) anchors(q Query) ([]graph.NodeID, error) {
	var out []graph.NodeID
	for _, uid := range q.Anchors {
		id, ok := ix.g.Lookup(uid)
		if !ok {
			return nil, fmt.Errorf("docsearch: anchor %q is not a node", uid)
		}
		out = append(out, id)
	}
	return out, nil
}
