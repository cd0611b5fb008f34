package docsearch

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// docAttrs is what the filters and boosts test of a document, resolved
// once at build.
type docAttrs struct {
	label graph.Label
	// products are lowercased: the node's own, or else those of the
	// nearest partOf ancestor that has some (units inherit their module's).
	products []string
	internal bool // visibility: internal
	// rng numbers the node's moniker range in Index.ranges; -1 when the
	// node has no monikerRange (it matches every moniker). Ranges are read
	// by docs.ParseMonikerRange: monikers ordered by their registry order
	// within their product.
	rng        int32
	superseded bool // has a supersededBy edge
	// titleKey is the title's distinct terms, in order, joined by NUL: a
	// query with the same key names the document.
	titleKey string
}

// codeAttrs is what the filters test of a code sample.
type codeAttrs struct {
	language string // lowercased
	// products are lowercased: the sample's own, or else those of the
	// documents that cite it.
	products []string
}

// maxInherit bounds the partOf ancestors searched for products.
const maxInherit = 4

// resolveDocAttrs fills ix.attrs, ix.ranges and the public and all sets.
func (ix *Index) resolveDocAttrs() {
	registry := ix.g.Monikers()
	byExpr := map[string]int32{}
	bad := map[int32]bool{}
	ix.attrs = make([]docAttrs, len(ix.docs.nodes))
	ix.public, ix.all = newBitset(len(ix.docs.nodes)), newBitset(len(ix.docs.nodes))
	for d, id := range ix.docs.nodes {
		n := ix.g.Node(id)
		a := docAttrs{
			label: n.Label, products: ix.products(id), internal: n.Str("visibility") == "internal", rng: -1,
			titleKey: termKey(queryTerms(n.Title())),
		}
		a.superseded = slices.ContainsFunc(ix.g.Out(id), func(e graph.Adj) bool { return e.Type == graph.SupersededBy })
		if expr := strings.TrimSpace(n.Str("monikerRange")); expr != "" {
			r, ok := byExpr[expr]
			if !ok {
				r = int32(len(ix.ranges))
				in := make([]bool, len(registry))
				if rng, err := docs.ParseMonikerRange(expr); err != nil {
					bad[r] = true
				} else {
					for m, mk := range registry {
						in[m] = rng.Includes(mk.Name, registry)
					}
				}
				ix.ranges = append(ix.ranges, in)
				byExpr[expr] = r
			}
			if bad[r] {
				ix.stats.BadMonikerRanges++
			}
			a.rng = r
		}
		ix.attrs[d] = a
		ix.all.set(d)
		if !a.internal {
			ix.public.set(d)
		}
	}
}

// resolveCodeAttrs fills ix.cattr.
func (ix *Index) resolveCodeAttrs() {
	ix.cattr = make([]codeAttrs, len(ix.code.nodes))
	for d, id := range ix.code.nodes {
		n := ix.g.Node(id)
		products := lowered(n.Strings("products"))
		if len(products) == 0 {
			for _, e := range ix.g.In(id) {
				if e.Type == graph.Xref {
					products = append(products, ix.products(e.Node)...)
				}
			}
			slices.Sort(products)
			products = slices.Compact(products)
		}
		ix.cattr[d] = codeAttrs{language: strings.ToLower(n.Str("language")), products: products}
	}
}

// products returns the lowercased products of a node, or of its nearest
// partOf ancestor that has some.
func (ix *Index) products(id graph.NodeID) []string {
	for range maxInherit {
		if p := ix.g.Node(id).Strings("products"); len(p) > 0 {
			return lowered(p)
		}
		i := slices.IndexFunc(ix.g.Out(id), func(e graph.Adj) bool { return e.Type == graph.PartOf })
		if i < 0 {
			return nil
		}
		id = ix.g.Out(id)[i].Node
	}
	return nil
}

// lowered returns the non-empty strings of ss, trimmed and lowercased.
func lowered(ss []string) []string {
	out := make([]string, 0, len(ss))
	for _, s := range ss {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// termKey joins terms by NUL.
func termKey(terms []string) string { return strings.Join(terms, "\x00") }
