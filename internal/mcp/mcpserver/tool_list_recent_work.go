package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// pageArgs are the arguments of the date-windowed, paginated lists.
type pageArgs struct {
	Since  *string `json:"since,omitempty" jsonschema:"Earliest calendar day to include: YYYY-MM-DD, optionally followed by T or a space, HH:MM[:SS[.fff]] and a zone (Z, +HH:MM, +HHMM). When since and cursor are both omitted, the last 14 days are returned."`
	Agent  *string `json:"agent,omitempty" jsonschema:"Only this agent's rows. An unknown agent has none."`
	Limit  *int    `json:"limit,omitempty" jsonschema:"Page size: default 20, clamped to 1..100."`
	Cursor *string `json:"cursor,omitempty" jsonschema:"The next_cursor of the previous page. Keep calling with the latest next_cursor until has_more is false; re-send since and agent each time."`
}

func (p pageArgs) query(level visibility.Level, r federation.Reader) federation.PageQuery {
	q := federation.PageQuery{Since: p.Since, Level: level, Limit: p.Limit, Cursor: p.Cursor, Reader: r}
	if p.Agent != nil {
		q.Agent = *p.Agent
	}
	return q
}

// pageEcho is the part of a page payload that echoes the request.
type pageEcho struct {
	Since          *string `json:"since"`
	Agent          *string `json:"agent"`
	AccessLevel    string  `json:"access_level"`
	IncludePrivate bool    `json:"include_private"`
	Limit          *int    `json:"limit"`
	Cursor         *string `json:"cursor"`
}

func echo(p pageArgs, a accessArgs) pageEcho {
	return pageEcho{Since: p.Since, Agent: p.Agent, AccessLevel: a.AccessLevel, IncludePrivate: a.IncludePrivate, Limit: p.Limit, Cursor: p.Cursor}
}

type listRecentWorkIn struct {
	pageArgs
	accessArgs
	Summary bool `json:"summary,omitempty" jsonschema:"Leave key_actions and files_touched out of each session."`
	hopArg
}

type listRecentWorkOut struct {
	// Error is set, and the page empty, when the cursor or access level
	// cannot be used; the reference reports these in the payload.
	Error string `json:"error,omitempty"`
	pageEcho
	Summary    bool                    `json:"summary"`
	Sessions   []federation.SessionRef `json:"sessions"`
	NextCursor *string                 `json:"next_cursor"`
	HasMore    bool                    `json:"has_more"`
	Warnings   []string                `json:"warnings,omitempty"`
	peerFields
}

func (s *Server) registerListRecentWork() {
	addTool(s, tool[listRecentWorkIn, listRecentWorkOut]{
		def: &mcp.Tool{
			Name:        "list_recent_work",
			Description: "A page of sessions across agents (or one agent), newest first. Without since or cursor it covers the last 14 days. Paginate with cursor until has_more is false. With peers configured, peer servers' sessions are merged in (agents tagged peer:<peer>:<agent>) and the cursor pages through all of them.",
		},
		defaults:  merge(s.accessDefaults(visibility.Public), hopDefault, map[string]any{"summary": false}),
		namespace: func(in listRecentWorkIn) string { return deref(in.Agent) },
		handle: func(ctx context.Context, c call, in listRecentWorkIn) (listRecentWorkOut, error) {
			out := listRecentWorkOut{pageEcho: echo(in.pageArgs, in.accessArgs), Summary: in.Summary}
			page, msg := listPage(c.d, in.pageArgs, in.accessArgs, func(q federation.PageQuery) (federation.Page[federation.SessionRef], error) {
				local := func(q federation.PageQuery) (federation.Page[federation.SessionRef], error) {
					return s.store.ListRecentWork(federation.RecentWorkQuery{PageQuery: q, Summary: in.Summary})
				}
				if !s.federates(c.d, in.FederationHop) {
					return local(q)
				}
				fq := peer.RecentWork{Since: q.Since, Agent: in.Agent, Limit: federation.PageLimit(q.Limit), Cursor: deref(q.Cursor), Summary: in.Summary, Access: peerAccess(q.Level, in.accessArgs)}
				page, rep, err := s.opts.Peers.RecentWork(ctx, fq, func(cursor string, limit int) (federation.Page[federation.SessionRef], error) {
					lq := q
					lq.Cursor, lq.Limit = &cursor, &limit
					return local(lq)
				})
				out.peerFields = reported(rep)
				return page, err
			})
			out.Error, out.Sessions, out.NextCursor, out.HasMore, out.Warnings = msg, page.Rows, page.NextCursor, page.HasMore, page.Warnings
			return out, nil
		},
	})
}

// listPage runs what the windowed, paginated lists share once the access
// step allowed the call (a refusal carries the empty page, see
// trust.Denial): the access level, and the query. A bad access level or
// cursor is reported in the payload, as the reference does: msg is then
// set and the page is empty. Rows are never nil, so the payload shows [].
func listPage[T any](d trust.Decision, p pageArgs, a accessArgs, fetch func(federation.PageQuery) (federation.Page[T], error)) (page federation.Page[T], msg string) {
	page.Rows = []T{}
	level, err := a.level()
	if err != nil {
		return page, err.Error()
	}
	got, err := fetch(p.query(level, reader(d)))
	if err != nil {
		return page, err.Error()
	}
	got.Rows = nonNil(got.Rows)
	return got, ""
}
