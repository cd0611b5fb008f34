package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

type prepareRecognitionIn struct {
	Prompt string `json:"prompt" jsonschema:"The user's message at the start of the turn."`
	accessArgs
	hopArg
}

// prepareRecognitionOut is the local payload (built by the federation
// store, as "bourdon prepare-turn" prints it) and, when the call fanned out,
// the peer keys.
type prepareRecognitionOut struct {
	federation.RecognitionContext
	peerFields
}

func (s *Server) registerPrepareRecognitionContext() {
	addTool(s, tool[prepareRecognitionIn, prepareRecognitionOut]{
		def: &mcp.Tool{
			Name: "prepare_recognition_context",
			Description: "Call at the start of every turn: which known entities the prompt names, a one-line acknowledgement, " +
				"and a bounded prompt_context fragment to prepend to your own prompt. Never waits on retrieval; get_deeper_context is the slower companion.",
		},
		defaults: merge(s.accessDefaults(visibility.Team), hopDefault),
		handle: func(ctx context.Context, c call, in prepareRecognitionIn) (prepareRecognitionOut, error) {
			level, err := in.level()
			if err != nil {
				return prepareRecognitionOut{}, err
			}
			out := prepareRecognitionOut{RecognitionContext: s.store.RecognitionContext(federation.RecognitionRequest{
				Prompt: in.Prompt, AccessLevel: in.AccessLevel, Level: level, IncludePrivate: in.IncludePrivate, Reader: reader(c.d),
			})}
			if s.federates(c.d, in.FederationHop) {
				var rep peer.Report
				out.Result, rep = s.opts.Peers.Recognition(ctx, in.Prompt, peerAccess(level, in.accessArgs), out.Result)
				out.peerFields = reported(rep)
			}
			return out, nil
		},
	})
}

// LinesMetaKey names the _meta entry of a prepare_recognition_context
// result that says where each line of prompt_context came from: per line,
// its kind, and for an entity line the entity, the agents it is drawn
// from and the agent whose summary it quotes. It sits in _meta so that the
// payload stays the reference's.
const LinesMetaKey = "io.getbourdon/prompt_context_lines"

func (o prepareRecognitionOut) resultMeta() mcp.Meta {
	if len(o.Fragment.Lines) == 0 {
		return nil
	}
	return mcp.Meta{LinesMetaKey: o.Fragment.Lines}
}
