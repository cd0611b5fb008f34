package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

type queryAgentMemoryIn struct {
	Agent string `json:"agent" jsonschema:"Agent id, for example claude-code or codex."`
	Topic string `json:"topic" jsonschema:"Entity name or alias to look for in that agent's memory; case-insensitive."`
	accessArgs
}

type queryAgentMemoryOut struct {
	Agent          string                   `json:"agent"`
	Topic          string                   `json:"topic"`
	AccessLevel    string                   `json:"access_level"`
	IncludePrivate bool                     `json:"include_private"`
	Matches        []federation.EntityMatch `json:"matches"`
}

func (s *Server) registerQueryAgentMemory() {
	addTool(s, tool[queryAgentMemoryIn, queryAgentMemoryOut]{
		def: &mcp.Tool{
			Name:        "query_agent_memory",
			Description: "Look up a topic in one agent's memory. Returns the entity matches that agent contributes to (an unknown agent or topic gives no matches).",
		},
		defaults:  s.accessDefaults(visibility.Public),
		namespace: func(in queryAgentMemoryIn) string { return in.Agent },
		memoized:  func(trust.Decision, queryAgentMemoryIn) bool { return true },
		handle: func(ctx context.Context, c call, in queryAgentMemoryIn) (queryAgentMemoryOut, error) {
			level, err := in.level()
			if err != nil {
				return queryAgentMemoryOut{}, err
			}
			return queryAgentMemoryOut{
				Agent:          in.Agent,
				Topic:          in.Topic,
				AccessLevel:    in.AccessLevel,
				IncludePrivate: in.IncludePrivate,
				Matches:        s.store.QueryAgentMemory(in.Agent, in.Topic, level, reader(c.d)),
			}, nil
		},
	})
}
