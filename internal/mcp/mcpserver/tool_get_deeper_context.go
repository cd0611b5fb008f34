package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
)

type deeperIn struct {
	Prompt string `json:"prompt" jsonschema:"The user's message."`
	accessArgs
}

func (s *Server) registerGetDeeperContext() {
	addTool(s, tool[deeperIn, deeper.Payload]{
		def: &mcp.Tool{
			Name: "get_deeper_context",
			Description: "The slower companion of prepare_recognition_context: context for the prompt assembled from the library (entity summaries, sessions' key actions, workstreams, notes), " +
				"ranked, bounded and redacted, with its provenance (source, entities, doors, truncated, reason when empty), plus an external L2 backend when one is configured.",
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(s.opts.DeeperL2 != nil)},
		},
		defaults: s.accessDefaults(visibility.Team),
		handle: func(ctx context.Context, c call, in deeperIn) (deeper.Payload, error) {
			level, err := in.level()
			if err != nil {
				return deeper.Payload{}, err
			}
			return s.deeper.DeeperContext(ctx, deeper.Request{
				Prompt: in.Prompt, AccessLevel: in.AccessLevel, Level: level, IncludePrivate: in.IncludePrivate, Reader: reader(c.d),
			}), nil
		},
	})
}
