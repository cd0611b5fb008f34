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
	// MaxAccessLevel is the highest access_level this caller reads at:
	// every read asking for more is served at this level.
	MaxAccessLevel string `json:"max_access_level" jsonschema:"The highest access level you read at: asking for more gives you this level (public for quarantined members, private for trusted ones and the operator)."`
}

func (s *Server) registerDescribeCaller(srv *mcp.Server) {
	addTool(srv, &mcp.Tool{
		Name: "describe_caller",
		Description: "Who this server takes you for: your identity, trust tier (operator, trusted, quarantined), the namespaces you were granted and the highest access level you read at. " +
			"An observation, not a permit: every call is checked again.",
	}, nil, func(ctx context.Context, req *mcp.CallToolRequest, _ describeCallerIn) (describeCallerOut, error) {
		d := s.authorize(req.Extra, "describe_caller", "")
		c := d.Caller
		grants := append([]string{}, c.Grants...)
		return describeCallerOut{AgentID: c.ID, Tier: c.Tier.String(), IsTrusted: c.IsTrusted(), Grants: grants, Transport: string(c.Transport),
			MaxAccessLevel: c.MaxAccess().String()}, nil
	})
}
