package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
)

type deeperIn struct {
	Prompt string `json:"prompt" jsonschema:"The user's message."`
	// Agents is an extension of this server (the reference has no such
	// argument): see docs/compatibility.md.
	Agents []string `json:"agents,omitempty" jsonschema:"Only these agents' rows (agent ids); omitted or empty for every agent the caller may read."`
	accessArgs
}

func (s *Server) registerGetDeeperContext() {
	addTool(s, tool[deeperIn, deeper.Payload]{
		def: &mcp.Tool{
			Name: "get_deeper_context",
			Description: "The slower companion of prepare_recognition_context: context for the prompt assembled from the library (entity summaries, sessions' key actions, workstreams, notes), " +
				"ranked, bounded and redacted, with its provenance (source, entities, doors, truncated, reason when empty), plus an external L2 backend when one is configured. Extension: agents limits the context to the given agents' rows.",
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(s.opts.DeeperL2 != nil)},
		},
		defaults: s.accessDefaults(visibility.Team),
		handle: func(ctx context.Context, c call, in deeperIn) (deeper.Payload, error) {
			level, err := in.level()
			if err != nil {
				return deeper.Payload{}, err
			}
			if len(in.Agents) > deeper.MaxAgents {
				return deeper.Payload{}, fmt.Errorf("agents: at most %d agent ids, got %d", deeper.MaxAgents, len(in.Agents))
			}
			return s.deeper.DeeperContext(ctx, deeper.Request{
				Prompt: in.Prompt, AccessLevel: in.AccessLevel, Level: level, IncludePrivate: in.IncludePrivate, Reader: reader(c.d), Agents: in.Agents,
			}), nil
		},
	})
}
