package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type describeCallerIn struct{}

type describeCallerOut struct {
	AgentID   string   `json:"agent_id"`
	Tier      string   `json:"tier"` // operator, trusted or quarantined
	IsTrusted bool     `json:"is_trusted"`
	Grants    []string `json:"grants"`
	Transport string   `json:"transport"`
}

func (s *Server) registerDescribeCaller(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name: "describe_caller",
		Description: "Who this server takes you for: your identity, trust tier (operator, trusted, quarantined) and the namespaces you were granted. " +
			"An observation, not a permit: every call is checked again.",
	}, nil, func(ctx context.Context, req *mcp.CallToolRequest, _ describeCallerIn) (describeCallerOut, error) {
		d := s.authorize(req.Extra, "describe_caller", "")
		c := d.Caller
		grants := append([]string{}, c.Grants...)
		return describeCallerOut{AgentID: c.ID, Tier: c.Tier.String(), IsTrusted: c.IsTrusted(), Grants: grants, Transport: string(c.Transport)}, nil
	})
}
