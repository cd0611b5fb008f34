package knowledge

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
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
// put it too far: bagDistance) costs no distance computation, so an
// unknown uid stays cheap on a large graph. n of zero or less gives none.
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
	var rows [2][]int
	var counts [256]int
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
			if d := len(lu) - len(low); d >= limit || -d >= limit || bagDistance(low, lu, &counts) >= limit {
				continue
			}
		}
		c := cand{u, commonPrefix(low, lu), editDistance(low, lu, limit, &rows)}
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

// bagDistance is a lower bound of the edit distance of a and b: the
// larger of the number of bytes a has more of than b, and b more of than
// a (each edit changes either count by one at most). counts is scratch
// space, all zero before and after.
func bagDistance(a, b string, counts *[256]int) int {
	for i := range len(a) {
		counts[a[i]]++
	}
	for i := range len(b) {
		counts[b[i]]--
	}
	more, fewer := 0, 0
	for _, s := range [2]string{a, b} {
		for i := range len(s) {
			if c := counts[s[i]]; c > 0 {
				more += c
			} else {
				fewer -= c
			}
			counts[s[i]] = 0
		}
	}
	return max(more, fewer)
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// editDistance is the Levenshtein distance of a and b, capped at limit:
// it stops as soon as every way on is at least limit. Strings longer than
// maxSuggestLen are limit apart. rows is scratch space reused across
// calls.
func editDistance(a, b string, limit int, rows *[2][]int) int {
	if len(a) > maxSuggestLen || len(b) > maxSuggestLen {
		return limit
	}
	for k := range rows {
		if cap(rows[k]) < len(b)+1 {
			rows[k] = make([]int, len(b)+1)
		}
		rows[k] = rows[k][:len(b)+1]
	}
	prev, cur := rows[0], rows[1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			best = min(best, cur[j])
		}
		if best >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
