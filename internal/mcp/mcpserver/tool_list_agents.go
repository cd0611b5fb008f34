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

func (s *Server) registerListAgents() {
	addTool(s, tool[listAgentsIn, listAgentsOut]{
		def: &mcp.Tool{
			Name:        "list_agents",
			Description: "List the ids of the agents known to this library, sorted; with peers configured, the peers' agent ids too (untagged, as the reference lists them).",
		},
		defaults: hopDefault,
		handle: func(ctx context.Context, c call, in listAgentsIn) (listAgentsOut, error) {
			out := listAgentsOut{Agents: s.store.ListAgents(reader(c.d))}
			if s.federates(c.d, in.FederationHop) {
				var rep peer.Report
				out.Agents, rep = s.opts.Peers.ListAgents(ctx, out.Agents)
				out.peerFields = reported(rep)
			}
			return out, nil
		},
	})
}
