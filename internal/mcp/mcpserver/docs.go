package mcpserver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The documentation knowledge graph: tools over the one graph that holds
// the docs corpus and the memory federation (package knowledge), and
// every node as a cogitave://{type}/{uid} resource. They are offered when
// the server has a knowledge base (serve --docs).

// nodeRef names a node in a tool result.
type nodeRef struct {
	UID   string      `json:"uid"`
	Label graph.Label `json:"label"`
	Title string      `json:"title"`
	URI   string      `json:"uri"`
}

func refOf(n *graph.Node) nodeRef {
	return nodeRef{UID: n.UID, Label: n.Label, Title: n.Title(), URI: graph.URI(n.Label, n.UID)}
}

// view is what one caller may see of the current snapshot.
type view struct {
	snap    *knowledge.Snapshot
	visible func(graph.NodeID) bool
	level   visibility.Level
}

// viewFor returns the caller's view: nodes above its access level, and
// memory nodes of agents a quarantined caller was not granted, do not
// exist for it.
func (s *Server) viewFor(d trust.Decision, level visibility.Level) view {
	snap := s.opts.Knowledge.Current()
	return view{snap: snap, visible: snap.Visible(knowledge.Viewer{Level: level, Reader: reader(d)}), level: level}
}

// lookup finds a visible node by uid. A uid may be written as it is cited:
// @uid, <xref:uid> or xref:uid.
func (v view) lookup(raw string) (graph.NodeID, *graph.Node, bool) {
	uid := cleanUID(raw)
	id, ok := v.snap.Graph.Lookup(uid)
	if !ok || !v.visible(id) {
		return 0, nil, false
	}
	return id, v.snap.Graph.Node(id), true
}

// cleanUID strips the citation forms of a uid.
func cleanUID(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "@")
	if rest, ok := strings.CutPrefix(s, "<xref:"); ok {
		s = strings.TrimSuffix(rest, ">")
	}
	s = strings.TrimPrefix(s, "xref:")
	return s
}

// unknownUID is the error of a uid that names no visible node: it names up
// to three visible uids that come closest.
func (v view) unknownUID(raw string) error {
	uid := cleanUID(raw)
	msg := fmt.Sprintf("unknown uid %q", uid)
	if close := v.closest(uid, 3); len(close) > 0 {
		msg += ". Closest: " + strings.Join(close, ", ")
	}
	return fmt.Errorf("%s (describe_schema lists the node types; docs_search finds uids by text)", msg)
}

// Bounds of the "closest uids" suggestion: distances are capped at
// maxSuggestDistance, and uids longer than maxSuggestLen are as far as that.
const (
	maxSuggestDistance = 64
	maxSuggestLen      = 4 * maxSuggestDistance
)

// closest returns the n visible uids nearest to uid: by edit distance
// (case ignored, capped at maxSuggestDistance), then the longest common
// prefix, then uid order. It keeps only the n best while scanning, and a
// candidate that cannot beat the n-th best (its length alone puts it too
// far) costs no distance computation, so an unknown uid stays cheap on a
// large graph.
func (v view) closest(uid string, n int) []string {
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
			if d := len(lu) - len(low); d >= limit || -d >= limit {
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

// docsAccess is the access_level argument of the docs tools: internal
// docs need team, and memory nodes their row's level.
type docsAccess struct {
	AccessLevel string `json:"access_level,omitempty" jsonschema:"Visibility to read at: public, team or private. Internal docs need team; memory entities need their own level."`
}

func (a docsAccess) level() (visibility.Level, error) {
	return accessArgs{AccessLevel: a.AccessLevel}.level()
}

// docsTool registers a docs tool, which names no namespace: the access
// step decides and audits every call, and the handler gets the caller's
// view at its access level. Its results are redacted as prose
// (redaction.go).
func docsTool[In interface {
	level() (visibility.Level, error)
}, Out any](s *Server, t *mcp.Tool, defaults map[string]any, h func(ctx context.Context, in In, v view) (Out, error)) {
	addTool(s, tool[In, Out]{
		def:      t,
		kind:     redact.Prose,
		defaults: merge(map[string]any{"access_level": s.defaultAccess(visibility.Public).String()}, defaults),
		handle: func(ctx context.Context, c call, in In) (Out, error) {
			level, err := in.level()
			if err != nil {
				var zero Out
				return zero, err
			}
			return h(ctx, in, s.viewFor(c.d, level))
		},
	})
}
