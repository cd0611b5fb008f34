package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

type exportAgentsIn struct{}

func (s *Server) registerExportAgents(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name:        "export_agents",
		Description: "Describe this machine's own agents (never a peer's) in the bourdon.agents/v1 envelope: type, role, counts and recent activity, with credential-like text redacted.",
	}, nil, func(ctx context.Context, req *mcp.CallToolRequest, in exportAgentsIn) (federation.ExportEnvelope, error) {
		d := s.authorize(req.Extra, "export_agents", "")
		return s.store.ExportAgents(s.opts.Machine, egress(d), reader(d)), nil
	})
}
