package knowledge

import (
	"fmt"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// View is what one viewer may see of a snapshot: the nodes Visible lets
// through, and nothing of the others. The docs queries (Find, Fetch,
// ResolveXref, Related, LearningPath, Search, Query) are its methods, so
// that each of them answers within the viewer's visibility; a node the
// viewer may not see does not exist for it, in results and in errors
// alike.
type View struct {
	snap    *Snapshot
	visible func(graph.NodeID) bool
	level   visibility.Level
}

// View returns the view of s that v may see.
func (s *Snapshot) View(v Viewer) View {
	return View{snap: s, visible: s.Visible(v), level: v.Level}
}

// Snapshot returns the snapshot the view is of.
func (v View) Snapshot() *Snapshot { return v.snap }

// CleanUID strips the forms a uid is cited in: @uid, <xref:uid> and
// xref:uid, and surrounding space.
func CleanUID(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "@")
	if rest, ok := strings.CutPrefix(s, "<xref:"); ok {
		s = strings.TrimSuffix(rest, ">")
	}
	return strings.TrimPrefix(s, "xref:")
}

// Lookup finds a visible node by uid, written as it is or as it is cited
// (CleanUID).
func (v View) Lookup(uid string) (graph.NodeID, *graph.Node, bool) {
	id, ok := v.snap.Graph.Lookup(CleanUID(uid))
	if !ok || !v.visible(id) {
		return 0, nil, false
	}
	return id, v.snap.Graph.Node(id), true
}

// suggestions is how many uids an UnknownUIDError names.
const suggestions = 3

// UnknownUIDError is a uid that names no node the viewer may see.
type UnknownUIDError struct {
	// UID is the uid asked for, cleaned of its citation form.
	UID string
	// Closest are up to three visible uids that come closest to it
	// (View.Closest).
	Closest []string
}

func (e *UnknownUIDError) Error() string {
	msg := fmt.Sprintf("unknown uid %q", e.UID)
	if len(e.Closest) > 0 {
		msg += ". Closest: " + strings.Join(e.Closest, ", ")
	}
	return msg
}

// Find is Lookup with an error: an *UnknownUIDError naming the closest
// visible uids when uid names no visible node.
func (v View) Find(uid string) (graph.NodeID, *graph.Node, error) {
	id, n, ok := v.Lookup(uid)
	if !ok {
		clean := CleanUID(uid)
		return 0, nil, &UnknownUIDError{UID: clean, Closest: v.Closest(clean, suggestions)}
	}
	return id, n, nil
}
