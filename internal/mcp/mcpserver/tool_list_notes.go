package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
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

func (s *Server) registerListNotes() {
	addTool(s, tool[listNotesIn, listNotesOut]{
		def: &mcp.Tool{
			Name:        "list_notes",
			Description: "A page of free-standing notes (journal entries) across agents, newest first; windowed and paginated exactly like list_recent_work.",
		},
		defaults:  s.accessDefaults(visibility.Public),
		namespace: func(in listNotesIn) string { return deref(in.Agent) },
		handle: func(ctx context.Context, c call, in listNotesIn) (listNotesOut, error) {
			out := listNotesOut{pageEcho: echo(in.pageArgs, in.accessArgs)}
			page, msg := listPage(c.d, in.pageArgs, in.accessArgs, s.store.ListNotes)
			out.Error, out.Notes, out.NextCursor, out.HasMore, out.Warnings = msg, page.Rows, page.NextCursor, page.HasMore, page.Warnings
			return out, nil
		},
	})
}
