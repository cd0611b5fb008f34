package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
)

type exportAgentsIn struct{}

func (s *Server) registerExportAgents() {
	addTool(s, tool[exportAgentsIn, federation.ExportEnvelope]{
		def: &mcp.Tool{
			Name:        "export_agents",
			Description: "Describe this machine's own agents (never a peer's) in the bourdon.agents/v1 envelope: type, role, counts and recent activity, with credential-like text redacted.",
		},
		handle: func(ctx context.Context, c call, _ exportAgentsIn) (federation.ExportEnvelope, error) {
			return s.store.ExportAgents(s.opts.Machine, egress(c.d), reader(c.d)), nil
		},
	})
}
