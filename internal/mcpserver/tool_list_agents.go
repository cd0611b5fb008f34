package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type listAgentsIn struct {
	hopArg
}

type listAgentsOut struct {
	Agents []string `json:"agents"`
}

func (s *Server) registerListAgents(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name:        "list_agents",
		Description: "List the ids of the agents known to this library, sorted.",
	}, hopDefault, func(ctx context.Context, req *mcp.CallToolRequest, in listAgentsIn) (listAgentsOut, error) {
		d := s.authorize(req.Extra, "list_agents", "")
		return listAgentsOut{Agents: s.store.ListAgents(reader(d))}, nil
	})
}
