package knowledge

import (
	"errors"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Content is a node's content as read in one product version.
type Content struct {
	Node *graph.Node
	// Text is the node's content with the moniker blocks of other
	// versions left out (docs.ContentFor); as written without a moniker.
	Text    string
	Moniker string
	// LocaleFallback says that another locale than docs.Locale was asked
	// for: the content is served in docs.Locale.
	LocaleFallback bool
}

// Fetch returns a visible node's content as read in moniker ("" for as
// written) and locale ("" for docs.Locale). It fails with an
// *UnknownUIDError, a *docs.UnknownMonikerError, or a
// *docs.NotApplicableError when the node's monikerRange leaves moniker
// out.
func (v View) Fetch(uid, moniker, locale string) (Content, error) {
	_, n, err := v.Find(uid)
	if err != nil {
		return Content{}, err
	}
	registry := v.snap.Graph.Monikers()
	if err := docs.AppliesTo(n, moniker, registry); err != nil {
		return Content{}, err
	}
	return Content{
		Node: n, Text: docs.ContentFor(n.Content, moniker, registry), Moniker: moniker,
		LocaleFallback: locale != "" && !strings.EqualFold(locale, docs.Locale),
	}, nil
}

// Xref is what a cross-reference resolves to.
type Xref struct {
	Node *graph.Node
	// SupersededBy is the visible node that replaces this one, nil for
	// none.
	SupersededBy *graph.Node
	// Backlinks are the visible nodes with an edge to this one (other
	// than supersededBy), in edge order.
	Backlinks []Backlink
	// AppliesToMoniker is false when the node's monikerRange leaves the
	// requested moniker out.
	AppliesToMoniker bool
}

// Backlink is a node that cites or contains another, and by which edge.
type Backlink struct {
	Node *graph.Node
	Type graph.EdgeType
}

// ResolveXref resolves a uid as cited, read in moniker ("" for any
// version). It fails with an *UnknownUIDError or a
// *docs.UnknownMonikerError; a node that does not apply to moniker
// resolves, with AppliesToMoniker false.
func (v View) ResolveXref(uid, moniker string) (*Xref, error) {
	id, n, err := v.Find(uid)
	if err != nil {
		return nil, err
	}
	g := v.snap.Graph
	out := &Xref{Node: n, AppliesToMoniker: true}
	var unknown *docs.UnknownMonikerError
	if err := docs.AppliesTo(n, moniker, g.Monikers()); errors.As(err, &unknown) {
		return nil, err
	} else if err != nil {
		out.AppliesToMoniker = false
	}
	for _, e := range g.Out(id) {
		if e.Type == graph.SupersededBy && v.visible(e.Node) {
			out.SupersededBy = g.Node(e.Node)
			break
		}
	}
	for _, e := range g.In(id) {
		if v.visible(e.Node) && e.Type != graph.SupersededBy {
			out.Backlinks = append(out.Backlinks, Backlink{Node: g.Node(e.Node), Type: e.Type})
		}
	}
	return out, nil
}
