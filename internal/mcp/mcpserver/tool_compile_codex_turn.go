package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/recall/turn"
)

type compileTurnIn struct {
	Prompt string  `json:"prompt" jsonschema:"The user's message for this turn."`
	Cwd    *string `json:"cwd,omitempty" jsonschema:"Working directory of the turn; omitted means the server's own, an empty string means none."`
	// AccessLevel is exact lower case, as the reference requires (no
	// accessArgs: those fold case).
	AccessLevel string `json:"access_level,omitempty" jsonschema:"public, team or private, in lower case."`
	MaxItems    int    `json:"max_items,omitempty" jsonschema:"Most items in the brief, 1 to 20."`
	MaxChars    int    `json:"max_chars,omitempty" jsonschema:"Longest rendered brief, 400 to 6000 characters."`
}

func (s *Server) registerCompileCodexTurn() {
	addTool(s, tool[compileTurnIn, turn.Brief]{
		def: &mcp.Tool{
			Name: "compile_codex_turn",
			Description: "A turn-scoped recognition brief for Codex: ranks the prompt's entities, the working directory's repository identity, recent Codex threads and the federation " +
				"into a compact fragment within max_items and max_chars, and says how to deliver it.",
		},
		defaults: map[string]any{"access_level": s.defaultAccess(turnDefaultAccess).String(), "max_items": turn.DefaultMaxItems, "max_chars": turn.DefaultMaxChars},
		handle: func(ctx context.Context, c call, in compileTurnIn) (turn.Brief, error) {
			brief, err := s.turn.Compile(ctx, turn.Request{
				Prompt: in.Prompt, Cwd: in.Cwd, AccessLevel: in.AccessLevel, MaxItems: in.MaxItems, MaxChars: in.MaxChars,
				Delivery: "all", Reader: reader(c.d),
			})
			if err != nil {
				return turn.Brief{}, err
			}
			return *brief, nil
		},
	})
}
