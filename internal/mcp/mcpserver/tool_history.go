package mcpserver

import (
	"context"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"
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
	CurrentDigest string        `json:"current_digest"`
	Versions      []versionWire `json:"versions"`
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
	Change *changeWire `json:"change"`
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

func (s *Server) registerHistoryTools() {
	w := s.opts.Writer
	errSchema := []*jsonschema.Schema{schemaOf[historyError]()}
	addTool(s, tool[listVersionsIn, listVersionsOut]{
		def: &mcp.Tool{
			Name:        "list_memory_versions",
			Description: "Prior states of one agent's memory, newest first: each with an opaque version_id (for rollback_agent_memory), its digest8, and the write that replaced it.",
		},
		defaults:  map[string]any{"limit": commit.DefaultListedVersions},
		namespace: func(in listVersionsIn) string { return in.AgentID },
		handle: func(ctx context.Context, _ call, in listVersionsIn) (listVersionsOut, error) {
			versions, err := w.ListedVersions(in.AgentID, in.Limit)
			if err != nil {
				return listVersionsOut{}, historyFailure(in.AgentID, err)
			}
			current, err := w.CurrentDigest(in.AgentID)
			if err != nil {
				return listVersionsOut{}, historyFailure(in.AgentID, err)
			}
			return listVersionsOut{AgentID: in.AgentID, CurrentDigest: current, Versions: nonNil(wireList(versions, versionOf))}, nil
		},
		alts: errSchema,
	})
	addTool(s, tool[explainIn, explainOut]{
		def: &mcp.Tool{
			Name:        "explain_memory_change",
			Description: "Which write produced a given state of an agent's memory: pass a digest (or a version's digest8) and get the caller, session, transcript and what changed. session_id and transcript_ref are the caller's word; the caller identity is verified.",
		},
		namespace: func(in explainIn) string { return in.AgentID },
		handle: func(ctx context.Context, _ call, in explainIn) (explainOut, error) {
			ch, err := w.Explain(in.AgentID, in.Digest)
			if err != nil {
				return explainOut{}, historyFailure(in.AgentID, err)
			}
			return explainOut{AgentID: in.AgentID, Digest: in.Digest, Found: ch != nil, Change: changeOf(ch)}, nil
		},
		alts: errSchema,
	})
	addTool(s, tool[rollbackIn, rollbackOut]{
		def: &mcp.Tool{
			Name: "rollback_agent_memory",
			Description: "Restore an archived version of an agent's memory (trusted callers only). It discards every contribution made after that version, from every agent; " +
				"the current state is archived first, so the rollback can itself be undone. Pass expected_digest to refuse it if the memory changed meanwhile.",
			Annotations: &mcp.ToolAnnotations{DestructiveHint: new(true), OpenWorldHint: new(false)},
		},
		namespace: func(in rollbackIn) string { return in.AgentID },
		handle: func(ctx context.Context, c call, in rollbackIn) (rollbackOut, error) {
			p := commit.Provenance{Caller: c.d.Caller.ID, CallerTier: c.d.Caller.Tier.String(), SessionID: deref(in.SessionID)}
			ch, err := w.Rollback(ctx, in.AgentID, in.VersionID, in.ExpectedDigest, p)
			if err != nil {
				return rollbackOut{}, historyFailure(in.AgentID, err)
			}
			return rollbackOut{AgentID: in.AgentID, RolledBackTo: ch.RolledBackTo, Digest: ch.Digest, Digest8: ch.Digest8,
				ArchivedVersion: ch.ArchivedVersion, Path: w.ManifestPath(in.AgentID)}, nil
		},
		alts: errSchema,
	})
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
