package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/peer"
)

type listAgentsIn struct {
	hopArg
}

type listAgentsOut struct {
	Agents []string `json:"agents"`
	peerFields
}

func (s *Server) registerListAgents(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name:        "list_agents",
		Description: "List the ids of the agents known to this library, sorted; with peers configured, the peers' agent ids too (untagged, as the reference lists them).",
	}, hopDefault, func(ctx context.Context, req *mcp.CallToolRequest, in listAgentsIn) (listAgentsOut, error) {
		d := s.authorize(req.Extra, "list_agents", "")
		out := listAgentsOut{Agents: s.store.ListAgents(reader(d))}
		if s.federates(d, in.FederationHop) {
			var rep peer.Report
			out.Agents, rep = s.opts.Peers.ListAgents(ctx, out.Agents)
			out.peerFields = reported(rep)
		}
		return out, nil
	})
}
