package mcpserver

import (
	"context"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

type commitIn struct {
	AgentID        string           `json:"agent_id" jsonschema:"Your own agent slug, e.g. claude-desktop; ^[a-z0-9][a-z0-9_-]*$."`
	AgentType      *string          `json:"agent_type,omitempty" jsonschema:"L5 agent type (code-assistant, note-capture, local-swarm, customer-support, research-assistant, creative-collaborator, project-manager, tutor, other); required for a new manifest and in replace mode."`
	Instance       *string          `json:"instance,omitempty" jsonschema:"Machine or deployment identifier."`
	RoleNarrative  *string          `json:"role_narrative,omitempty" jsonschema:"Free text: the agent's role in the fleet."`
	Entities       []map[string]any `json:"entities,omitempty" jsonschema:"Entities, each with at least a non-empty name; other L5 entity fields pass through."`
	Sessions       []map[string]any `json:"sessions,omitempty" jsonschema:"Sessions, each with a date (YYYY-MM-DD, or \"\" when unknown; never today's date in its place)."`
	Workstreams    []map[string]any `json:"workstreams,omitempty" jsonschema:"Workstreams, each with a non-empty name; status active, paused, done or archived (default active)."`
	Notes          []map[string]any `json:"notes,omitempty" jsonschema:"Notes, each with a date and non-empty text."`
	Mode           string           `json:"mode,omitempty" jsonschema:"merge (default) unions with the stored manifest; replace writes only what is sent."`
	SessionID      *string          `json:"session_id,omitempty" jsonschema:"Your session id, recorded (as your assertion) in the provenance."`
	TranscriptRef  *string          `json:"transcript_ref,omitempty" jsonschema:"Where the transcript of this session lives, recorded (as your assertion) in the provenance."`
	ExpectedDigest *string          `json:"expected_digest,omitempty" jsonschema:"The digest you last read (list_memory_versions current_digest, or a no_op answer); the commit is refused if the manifest changed since."`
}

// commitError is the in-band error of commit_to_federation, as the
// reference answers a refused write.
type commitError struct {
	Error         string `json:"error"`
	AgentID       string `json:"agent_id"`
	Mode          string `json:"mode"`
	CurrentDigest string `json:"current_digest,omitempty"`
}

func (s *Server) registerCommitToFederation() {
	w := s.opts.Writer
	addTool(s, tool[commitIn, commit.Result]{
		def: &mcp.Tool{
			Name: "commit_to_federation",
			Description: "Write a contribution (entities, sessions, workstreams, notes) to the federation under your agent_id. merge unions with the stored manifest " +
				"(entities by name, sessions by date and cwd; list fields unioned, other fields overwritten); replace writes only what is sent. " +
				"A write that changes nothing answers no_op. Quarantined callers' writes are staged for an operator to promote.",
			Annotations: &mcp.ToolAnnotations{DestructiveHint: new(false), OpenWorldHint: new(false)},
		},
		defaults:  map[string]any{"mode": commit.ModeMerge},
		namespace: func(in commitIn) string { return in.AgentID },
		handle: func(ctx context.Context, c call, in commitIn) (commit.Result, error) {
			caller := c.d.Caller
			creq := commit.Request{
				AgentID: in.AgentID, AgentType: in.AgentType, Instance: in.Instance, RoleNarrative: in.RoleNarrative,
				Entities: rows(in.Entities), Sessions: rows(in.Sessions), Workstreams: rows(in.Workstreams), Notes: rows(in.Notes),
				Mode: in.Mode, ExpectedDigest: in.ExpectedDigest,
				Provenance: commit.Provenance{Caller: caller.ID, CallerTier: caller.Tier.String(), SessionID: deref(in.SessionID), TranscriptRef: deref(in.TranscriptRef)},
			}
			out, err := w.Submit(ctx, creq, c.d.Staged)
			switch {
			case err != nil:
				return commit.Result{}, commitFailure(in, err)
			case out.Staged != nil:
				return commit.Result{}, inBand{*out.Staged}
			}
			return *out.Committed, nil
		},
		alts: []*jsonschema.Schema{schemaOf[commitError](), schemaOf[commit.StageResult]()},
	})
}

// commitFailure reports refused writes in the payload, as the reference
// does, and anything else (a disk failure) as a tool error.
func commitFailure(in commitIn, err error) error {
	var ve *commit.ValidationError
	var se *commit.StaleDigestError
	var ce *commit.CorruptError
	switch {
	case errors.As(err, &se):
		return inBand{commitError{Error: err.Error(), AgentID: in.AgentID, Mode: in.Mode, CurrentDigest: se.Current}}
	case errors.As(err, &ve), errors.As(err, &ce):
		return inBand{commitError{Error: err.Error(), AgentID: in.AgentID, Mode: in.Mode}}
	}
	return err
}

// rows turns decoded JSON objects into the row values commit expects.
func rows(in []map[string]any) []any {
	out := make([]any, len(in))
	for i, r := range in {
		out[i] = r
	}
	return out
}
