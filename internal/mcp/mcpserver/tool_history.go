package mcpserver

import (
	"context"
	"errors"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
)

type listVersionsIn struct {
	AgentID string `json:"agent_id" jsonschema:"Agent whose history to list."`
	Limit   int    `json:"limit,omitempty" jsonschema:"Most versions to return, newest first (default 20, at most 500)."`
}

type listVersionsOut struct {
	AgentID string `json:"agent_id"`
	// CurrentDigest is the digest of the manifest as it is now; pass it as
	// expected_digest to commit or roll back safely.
	CurrentDigest string           `json:"current_digest"`
	Versions      []commit.Version `json:"versions"`
}

type explainIn struct {
	AgentID string `json:"agent_id" jsonschema:"Agent whose memory changed."`
	Digest  string `json:"digest" jsonschema:"A manifest digest, or a version's digest8."`
}

type explainOut struct {
	AgentID string `json:"agent_id"`
	Digest  string `json:"digest"`
	Found   bool   `json:"found"`
	// Change is the write that produced the state: caller and tier
	// (verified), session_id and transcript_ref (asserted by the caller,
	// listed in caller_asserted), time, and what changed.
	Change *commit.Change `json:"change"`
}

type rollbackIn struct {
	AgentID        string  `json:"agent_id" jsonschema:"Agent whose memory to restore."`
	VersionID      string  `json:"version_id" jsonschema:"A version_id from list_memory_versions."`
	ExpectedDigest *string `json:"expected_digest,omitempty" jsonschema:"The current_digest you decided on; the rollback is refused if the memory changed since."`
	SessionID      *string `json:"session_id,omitempty" jsonschema:"Your session id, recorded (as your assertion) in the provenance."`
}

type rollbackOut struct {
	AgentID         string `json:"agent_id"`
	RolledBackTo    string `json:"rolled_back_to"`
	Digest          string `json:"digest"`
	Digest8         string `json:"digest8"`
	ArchivedVersion string `json:"archived_version,omitempty"`
	Path            string `json:"path"`
}

// historyError is the in-band error of the history tools.
type historyError struct {
	Error         string `json:"error"`
	AgentID       string `json:"agent_id"`
	CurrentDigest string `json:"current_digest,omitempty"`
}

const maxVersions = 500

func (s *Server) registerHistoryTools(srv *mcp.Server) {
	w := s.opts.Writer
	errSchema := schemaOf[historyError]()
	addTool(srv, &mcp.Tool{
		Name:        "list_memory_versions",
		Description: "Prior states of one agent's memory, newest first: each with an opaque version_id (for rollback_agent_memory), its digest8, and the write that replaced it.",
	}, map[string]any{"limit": 20}, func(ctx context.Context, req *mcp.CallToolRequest, in listVersionsIn) (listVersionsOut, error) {
		if d := s.authorize(req.Extra, "list_memory_versions", in.AgentID); !d.Allowed {
			return listVersionsOut{}, deny(d)
		}
		limit := min(max(in.Limit, 1), maxVersions)
		versions, err := w.Versions(in.AgentID, limit)
		if err != nil {
			return listVersionsOut{}, historyFailure(in.AgentID, err)
		}
		current, err := w.CurrentDigest(in.AgentID)
		if err != nil {
			return listVersionsOut{}, historyFailure(in.AgentID, err)
		}
		return listVersionsOut{AgentID: in.AgentID, CurrentDigest: current, Versions: nonNil(versions)}, nil
	}, errSchema)
	addTool(srv, &mcp.Tool{
		Name:        "explain_memory_change",
		Description: "Which write produced a given state of an agent's memory: pass a digest (or a version's digest8) and get the caller, session, transcript and what changed. session_id and transcript_ref are the caller's word; the caller identity is verified.",
	}, nil, func(ctx context.Context, req *mcp.CallToolRequest, in explainIn) (explainOut, error) {
		if d := s.authorize(req.Extra, "explain_memory_change", in.AgentID); !d.Allowed {
			return explainOut{}, deny(d)
		}
		ch, err := w.Explain(in.AgentID, in.Digest)
		if err != nil {
			return explainOut{}, historyFailure(in.AgentID, err)
		}
		return explainOut{AgentID: in.AgentID, Digest: in.Digest, Found: ch != nil, Change: ch}, nil
	}, errSchema)
	addTool(srv, &mcp.Tool{
		Name: "rollback_agent_memory",
		Description: "Restore an archived version of an agent's memory (trusted callers only). It discards every contribution made after that version, from every agent; " +
			"the current state is archived first, so the rollback can itself be undone. Pass expected_digest to refuse it if the memory changed meanwhile.",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(false)},
	}, nil, func(ctx context.Context, req *mcp.CallToolRequest, in rollbackIn) (rollbackOut, error) {
		d := s.authorize(req.Extra, "rollback_agent_memory", in.AgentID)
		if !d.Allowed {
			return rollbackOut{}, deny(d)
		}
		p := commit.Provenance{Caller: d.Caller.ID, CallerTier: d.Caller.Tier.String(), SessionID: deref(in.SessionID)}
		ch, err := w.Rollback(ctx, in.AgentID, in.VersionID, in.ExpectedDigest, p)
		if err != nil {
			return rollbackOut{}, historyFailure(in.AgentID, err)
		}
		return rollbackOut{AgentID: in.AgentID, RolledBackTo: ch.RolledBackTo, Digest: ch.Digest, Digest8: ch.Digest8,
			ArchivedVersion: ch.ArchivedVersion, Path: w.ManifestPath(in.AgentID)}, nil
	}, errSchema)
}

// historyFailure reports refusals (bad arguments, a stale digest) in the
// payload and anything else as a tool error.
func historyFailure(agent string, err error) error {
	var ve *commit.ValidationError
	var se *commit.StaleDigestError
	switch {
	case errors.As(err, &se):
		return inBand{historyError{Error: err.Error(), AgentID: agent, CurrentDigest: se.Current}}
	case errors.As(err, &ve):
		return inBand{historyError{Error: err.Error(), AgentID: agent}}
	}
	return err
}

func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
