package peer

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

// RecentWork is a federated list_recent_work request.
type RecentWork struct {
	Since   *string
	Agent   *string
	Limit   int // 1..federation.MaxLimit
	Cursor  string
	Summary bool
	Access
}

// LocalPage fetches a page of the local store from cursor, limit rows.
type LocalPage func(cursor string, limit int) (federation.Page[federation.SessionRef], error)

// position is where a federated listing stands in one peer's list: the
// peer's own cursor C, of which Skip rows were already listed; Done once
// the peer has nothing more.
type position struct {
	C    string `json:"c,omitempty"`
	Skip int    `json:"skip,omitempty"`
	Done bool   `json:"done,omitempty"`
}

// source is one list taking part in a merged page: its rows for this
// page (those not yet listed), whether it has rows beyond them, and how
// many of them the page took.
type source struct {
	rows  []federation.SessionRef
	more  bool
	taken int
}

// RecentWork merges the local list of sessions with the peers' lists into
// one list, newest first (date, then agent, descending), and returns a page
// of it. Unlike the reference (whose federated pages have no cursor), the
// pages chain: the cursor records the position in the local list (as the
// local cursor does) and in each peer's list, so following next_cursor
// until has_more is false lists every row once, in order. A page is cut
// short rather than put a row out of order when a peer's window runs out
// first. A peer that fails (the page's report names it) is left out of
// the rest of the listing, so the listing always ends.
func (s *Set) RecentWork(ctx context.Context, q RecentWork, local LocalPage) (federation.Page[federation.SessionRef], Report, error) {
	cur, err := federation.DecodeCursor(q.Cursor)
	var state map[string]position
	if err == nil && len(cur.Peers) > 0 && json.Unmarshal(cur.Peers, &state) != nil {
		err = &federation.CursorError{Cursor: q.Cursor}
	}
	if err != nil {
		return federation.Page[federation.SessionRef]{Rows: []federation.SessionRef{}}, Report{Latencies: map[string]*float64{}}, err
	}
	onlyPeer, agent := s.route(q.Agent)

	// The local list, from its offset.
	var mine *source
	var localPage federation.Page[federation.SessionRef]
	if onlyPeer == "" {
		localPage, err = local(federation.Cursor{Offset: cur.Offset, Since: cur.Since}.Encode(), q.Limit)
		if err != nil {
			return localPage, Report{Latencies: map[string]*float64{}}, err
		}
		mine = &source{rows: localPage.Rows, more: localPage.HasMore}
	}

	// Each peer's list, from its position.
	asked := map[string]position{}
	outs, rep := s.fanOut(ctx, s.opts.Timeout, "list_recent_work", func(p Peer) (map[string]any, bool) {
		pos := state[p.Name]
		if pos.Done || (onlyPeer != "" && onlyPeer != p.Name) {
			return nil, false
		}
		asked[p.Name] = pos
		args := q.Access.args(map[string]any{"summary": q.Summary, "limit": min(federation.MaxLimit, pos.Skip+q.Limit)})
		if q.Since != nil {
			args["since"] = *q.Since
		}
		if agent != nil {
			args["agent"] = *agent
		}
		if pos.C != "" {
			args["cursor"] = pos.C
		}
		return args, true
	})
	peers := map[string]*source{}
	nextCursors := map[string]string{}
	for _, o := range outs {
		got := sessionRows(o.peer.Name, rows(o.payload["sessions"]))
		skip := min(asked[o.peer.Name].Skip, len(got))
		more, _ := o.payload["has_more"].(bool)
		peers[o.peer.Name] = &source{rows: got[skip:], more: more}
		nextCursors[o.peer.Name] = str(o.payload["next_cursor"])
	}

	page := merge(q.Limit, mine, peers)

	// Where the next page starts.
	next := federation.Cursor{Offset: cur.Offset, Since: cur.Since}
	hasMore := false
	if mine != nil {
		next.Offset += mine.taken
		next.Since = localPage.Cutoff
		hasMore = mine.more || mine.taken < len(mine.rows)
	}
	newState := map[string]position{}
	for _, p := range s.Peers() {
		pos := state[p.Name]
		src, answered := peers[p.Name]
		switch {
		case pos.Done, onlyPeer != "" && onlyPeer != p.Name:
			pos = position{Done: true}
		case !answered:
			// It failed, and the report says so: leave it out of the rest
			// of this listing rather than page forever after a dead peer.
			pos = position{Done: true}
		case src.taken < len(src.rows):
			pos.Skip += src.taken
		case src.more && nextCursors[p.Name] != "":
			pos = position{C: nextCursors[p.Name]}
		default:
			pos = position{Done: true}
		}
		if !pos.Done {
			hasMore = true
		}
		newState[p.Name] = pos
	}
	out := federation.Page[federation.SessionRef]{Rows: page, HasMore: hasMore, Warnings: localPage.Warnings, Cutoff: next.Since}
	if hasMore {
		next.Peers, _ = json.Marshal(newState)
		enc := next.Encode()
		out.NextCursor = &enc
	}
	return out, rep, nil
}

// route reads an agent filter: a tagged peer agent (peer:<name>:<agent>)
// selects that peer alone and its untagged agent; anything else is asked
// of every list as it is.
func (s *Set) route(agent *string) (onlyPeer string, peerAgent *string) {
	if agent == nil {
		return "", nil
	}
	for _, p := range s.Peers() {
		if rest, ok := strings.CutPrefix(*agent, "peer:"+p.Name+":"); ok {
			return p.Name, &rest
		}
	}
	return "", agent
}

// merge takes up to limit rows from the sources, newest first. It stops
// early when a source that has more rows than it brought runs out of
// rows, since the next row overall might be one of those.
func merge(limit int, local *source, peers map[string]*source) []federation.SessionRef {
	all := make([]*source, 0, len(peers)+1)
	if local != nil {
		all = append(all, local)
	}
	names := make([]string, 0, len(peers))
	for name := range peers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		all = append(all, peers[name])
	}
	page := []federation.SessionRef{}
	seen := map[[3]string]bool{}
	for len(page) < limit {
		var best *source
		for _, src := range all {
			if src.taken == len(src.rows) {
				if src.more {
					return page
				}
				continue
			}
			if best == nil || newestFirst(src.rows[src.taken], best.rows[best.taken]) < 0 {
				best = src
			}
		}
		if best == nil {
			return page
		}
		row := best.rows[best.taken]
		best.taken++
		if k := sessionKey(row); !seen[k] {
			seen[k] = true
			page = append(page, row)
		}
	}
	return page
}
