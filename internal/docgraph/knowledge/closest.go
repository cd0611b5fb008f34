package knowledge

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Bounds of the "closest uids" suggestion: distances are capped at
// maxSuggestDistance, and uids longer than maxSuggestLen are as far as that.
const (
	maxSuggestDistance = 64
	maxSuggestLen      = 4 * maxSuggestDistance
)

// Closest returns the n visible uids nearest to uid: by edit distance
// (case ignored, capped at maxSuggestDistance), then the longest common
// prefix, then uid order. It keeps only the n best while scanning, and a
// candidate that cannot beat the n-th best (its length or its bytes alone
// put it too far: analyze.Distance.Bound) costs no distance computation,
// so an unknown uid stays cheap on a large graph. uids longer than
// maxSuggestLen are maxSuggestDistance away. n of zero or less gives none.
func (v View) Closest(uid string, n int) []string {
	if n <= 0 {
		return nil
	}
	type cand struct {
		uid    string
		prefix int
		dist   int
	}
	better := func(a, b cand) bool {
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.prefix != b.prefix {
			return a.prefix > b.prefix
		}
		return a.uid < b.uid
	}
	g := v.snap.Graph
	low := strings.ToLower(uid)
	var dist analyze.Distance
	top := make([]cand, 0, n+1)
	for i := range g.Len() {
		id := graph.NodeID(i)
		if !v.visible(id) {
			continue
		}
		u := g.Node(id).UID
		lu := strings.ToLower(u)
		limit := maxSuggestDistance
		if len(top) == n && top[n-1].dist < maxSuggestDistance {
			// Only a distance up to the n-th best's can still enter.
			limit = top[n-1].dist + 1
			if d := len(lu) - len(low); d >= limit || -d >= limit || dist.Bound(low, lu) >= limit {
				continue
			}
		}
		c := cand{u, commonPrefix(low, lu), limit}
		if len(low) <= maxSuggestLen && len(lu) <= maxSuggestLen {
			c.dist = dist.Edit(low, lu, limit)
		}
		if len(top) == n && !better(c, top[n-1]) {
			continue
		}
		at := len(top)
		for at > 0 && better(c, top[at-1]) {
			at--
		}
		top = slices.Insert(top, at, c)
		if len(top) > n {
			top = top[:n]
		}
	}
	out := make([]string, len(top))
	for i, c := range top {
		out[i] = c.uid
	}
	return out
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
