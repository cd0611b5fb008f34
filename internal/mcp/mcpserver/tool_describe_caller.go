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

func (s *Server) registerDescribeCaller() {
	addTool(s, tool[describeCallerIn, describeCallerOut]{
		def: &mcp.Tool{
			Name: "describe_caller",
			Description: "Who this server takes you for: your identity, trust tier (operator, trusted, quarantined), the namespaces you were granted and the highest access level you read at. " +
				"An observation, not a permit: every call is checked again.",
		},
		handle: func(ctx context.Context, c call, _ describeCallerIn) (describeCallerOut, error) {
			caller := c.d.Caller
			grants := append([]string{}, caller.Grants...)
			return describeCallerOut{AgentID: caller.ID, Tier: caller.Tier.String(), IsTrusted: caller.IsTrusted(), Grants: grants, Transport: string(caller.Transport),
				MaxAccessLevel: caller.MaxAccess().String()}, nil
		},
	})
}
