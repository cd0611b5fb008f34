package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

type listWorkstreamsIn struct {
	Status *string `json:"status,omitempty" jsonschema:"Only workstreams in this state: active, paused, done or archived."`
	Agent  *string `json:"agent,omitempty" jsonschema:"Only this agent's workstreams."`
	accessArgs
	Limit  *int    `json:"limit,omitempty" jsonschema:"Most workstreams per page: default 200, at most 1000."`
	Cursor *string `json:"cursor,omitempty" jsonschema:"The next_cursor of the previous page."`
}

type listWorkstreamsOut struct {
	Status         *string                      `json:"status"`
	Agent          *string                      `json:"agent"`
	AccessLevel    string                       `json:"access_level"`
	IncludePrivate bool                         `json:"include_private"`
	Workstreams    []federation.WorkstreamMatch `json:"workstreams"`
	NextCursor     *string                      `json:"next_cursor"`
	HasMore        bool                         `json:"has_more"`
}

func (s *Server) registerListWorkstreams() {
	addTool(s, tool[listWorkstreamsIn, listWorkstreamsOut]{
		def: &mcp.Tool{
			Name:        "list_workstreams",
			Description: "Ongoing multi-session initiatives, grouped by name across agents, most recently touched first. Filter by status (active, paused, done, archived) or agent.",
		},
		defaults:  s.accessDefaults(visibility.Public),
		namespace: func(in listWorkstreamsIn) string { return deref(in.Agent) },
		handle: func(ctx context.Context, c call, in listWorkstreamsIn) (listWorkstreamsOut, error) {
			level, err := in.level()
			if err != nil {
				return listWorkstreamsOut{}, err
			}
			q := federation.WorkstreamQuery{Level: level, Limit: in.Limit, Cursor: in.Cursor, Reader: reader(c.d)}
			if in.Status != nil {
				q.Status = *in.Status
			}
			if in.Agent != nil {
				q.Agent = *in.Agent
			}
			page, err := s.store.ListWorkstreams(q)
			if err != nil {
				return listWorkstreamsOut{}, err
			}
			return listWorkstreamsOut{
				Status: in.Status, Agent: in.Agent, AccessLevel: in.AccessLevel, IncludePrivate: in.IncludePrivate,
				Workstreams: page.Rows, NextCursor: page.NextCursor, HasMore: page.HasMore,
			}, nil
		},
	})
}
