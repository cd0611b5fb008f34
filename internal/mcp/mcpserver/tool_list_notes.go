package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

type listNotesIn struct {
	pageArgs
	accessArgs
}

type listNotesOut struct {
	// Error is set, and the page empty, when the cursor or access level
	// cannot be used.
	Error string `json:"error,omitempty"`
	pageEcho
	Notes      []federation.NoteRef `json:"notes"`
	NextCursor *string              `json:"next_cursor"`
	HasMore    bool                 `json:"has_more"`
	Warnings   []string             `json:"warnings,omitempty"`
}

func (s *Server) registerListNotes(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name:        "list_notes",
		Description: "A page of free-standing notes (journal entries) across agents, newest first; windowed and paginated exactly like list_recent_work.",
	}, s.accessDefaults(visibility.Public), func(ctx context.Context, req *mcp.CallToolRequest, in listNotesIn) (listNotesOut, error) {
		out := listNotesOut{pageEcho: echo(in.pageArgs, in.accessArgs)}
		page, msg, err := listPage(s, req.Extra, "list_notes", in.pageArgs, in.accessArgs, func(q federation.PageQuery, _ trust.Decision) (federation.Page[federation.NoteRef], error) {
			return s.store.ListNotes(q)
		})
		out.Error, out.Notes, out.NextCursor, out.HasMore, out.Warnings = msg, page.Rows, page.NextCursor, page.HasMore, page.Warnings
		return out, err
	})
}
