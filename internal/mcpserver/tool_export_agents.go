package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/federation"
	"github.com/getbourdon/bourdon-go/internal/visibility"
)

type exportAgentsIn struct{}

func (s *Server) registerExportAgents(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name:        "export_agents",
		Description: "Describe this machine's own agents (never a peer's) in the bourdon.agents/v1 envelope: type, role, counts and recent activity, with credential-like text redacted.",
	}, nil, func(ctx context.Context, _ *mcp.CallToolRequest, in exportAgentsIn) (federation.ExportEnvelope, error) {
		// Every caller is the trusted operator until trust tiers exist;
		// trusted callers see public and team sessions.
		return s.store.ExportAgents(s.opts.Machine, visibility.Team), nil
	})
}
