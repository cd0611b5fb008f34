package docsearch

import (
	"sort"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// The multiplicative boosts of the final score, by the name the signals
// log them under.
const (
	// boostSuperseded demotes a document that a supersededBy edge
	// replaces: its replacement should be read instead.
	boostSuperseded = 0.5
	// boostExactTitle favours the document whose title is the query (the
	// same terms in the same order): the caller named it.
	boostExactTitle = 1.25
	// boostMoniker favours, when a moniker is asked for, a document whose
	// range names it over one written for every version.
	boostMoniker = 1.1
)

// rerank sets the anchor prior, boosts and final score of the
// candidates and sorts them by it, best first (ties to the lower number).
func (ix *Index) rerank(cs []candidate, anchors []graph.NodeID, q Query, terms []string) {
	fromAnchors := ix.anchorPriors(cs, anchors)
	key := termKey(terms)
	for i := range cs {
		c := &cs[i]
		prior := 1.0
		if fromAnchors != nil {
			prior += anchorWeight * fromAnchors[i]
			c.pprAnchor = fromAnchors[i]
		}
		c.final = c.fused * prior
		c.boosts = ix.boosts(c.doc, q, key)
		for _, b := range c.boosts {
			c.final *= b
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].final != cs[j].final {
			return cs[i].final > cs[j].final
		}
		return cs[i].doc < cs[j].doc
	})
}

// boosts returns the boosts that apply to document d, or nil; key is the
// termKey of the query's terms.
func (ix *Index) boosts(d int32, q Query, key string) map[string]float64 {
	var b map[string]float64
	set := func(name string, f float64) {
		if b == nil {
			b = map[string]float64{}
		}
		b[name] = f
	}
	a := ix.attrs[d]
	if a.superseded {
		set("superseded", boostSuperseded)
	}
	if q.Moniker != "" && a.rng >= 0 {
		set("moniker", boostMoniker)
	}
	if a.titleKey == key {
		set("exactTitle", boostExactTitle)
	}
	return b
}
