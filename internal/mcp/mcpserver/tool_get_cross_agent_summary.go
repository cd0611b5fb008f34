package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

type crossAgentSummaryIn struct {
	Project string `json:"project" jsonschema:"Project (entity) name; matched against entity names and aliases, and against sessions' project_focus."`
	accessArgs
	hopArg
	Limit int `json:"limit,omitempty" jsonschema:"Most sessions to return, newest first (default 100, at most 500). When sessions are left out the payload says truncated and total_sessions."`
}

type crossAgentSummaryOut struct {
	federation.ProjectSummary
	peerFields
}

func (s *Server) registerGetCrossAgentSummary() {
	addTool(s, tool[crossAgentSummaryIn, crossAgentSummaryOut]{
		def: &mcp.Tool{
			Name:        "get_cross_agent_summary",
			Description: "Everything the federation knows about a project: the agents that touched it, their sessions on it (newest first) and the entity matches for its name.",
		},
		defaults: merge(s.accessDefaults(visibility.Public), hopDefault, map[string]any{"limit": federation.DefaultSummarySessions}),
		handle: func(ctx context.Context, c call, in crossAgentSummaryIn) (crossAgentSummaryOut, error) {
			level, err := in.level()
			if err != nil {
				return crossAgentSummaryOut{}, err
			}
			out := crossAgentSummaryOut{ProjectSummary: s.store.CrossAgentSummary(in.Project, level, in.Limit)}
			if s.federates(c.d, in.FederationHop) {
				var rep peer.Report
				out.ProjectSummary, rep = s.opts.Peers.CrossAgentSummary(ctx, in.Project, in.Limit, peerAccess(level, in.accessArgs), out.ProjectSummary)
				out.peerFields = reported(rep)
			}
			return out, nil
		},
	})
}
