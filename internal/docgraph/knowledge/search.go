package knowledge

import (
	"context"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
)

// Search runs a documentation search within the view. q.Types must be
// labels of the vocabulary (graph.ErrUnknownLabel otherwise) and
// q.Anchors uids the viewer may see, as written or cited (an
// *UnknownUIDError otherwise); q.IncludeInternal is set from the viewer's
// level: internal documents are searched from team up.
func (v View) Search(ctx context.Context, q docsearch.Query) (*docsearch.Results, error) {
	for _, l := range q.Types {
		if _, err := graph.ParseLabel(string(l)); err != nil {
			return nil, err
		}
	}
	q.Anchors = slices.Clone(q.Anchors)
	for i, a := range q.Anchors {
		_, n, err := v.Find(a)
		if err != nil {
			return nil, err
		}
		q.Anchors[i] = n.UID
	}
	q.IncludeInternal = v.level >= visibility.Team
	return v.snap.Index.Search(ctx, q)
}
