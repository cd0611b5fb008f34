// Package store is the seam between the write path (internal/memory/commit)
// and where a library is kept: a directory (the default, in commit) or
// PostgreSQL (store/postgres). A Store only stores and locks; every rule
// about what is written (merging, digests, expected_digest, no_op,
// provenance records) stays in commit, shared by both backends.
//
// What a Store keeps per agent: the current manifest (its YAML bytes),
// the archived versions (bytes, by version id, never changed once
// written), the provenance records (JSON, append-only) and the record of
// the rows its exporter owns. Per (caller, agent): a staged manifest.
//
// The rest of a federation's state is kept through Documents, small named
// documents with a cheap revision and a cross-process lock: the member
// registry and the OAuth server's state (internal/trust), requests and
// proposals (internal/requests) and the drift watermarks
// (internal/memory/drift). The audit log, an append-only stream rather
// than documents, has a seam of its own, trust.AuditLog. Each has a
// directory backend here or beside its user, byte-compatible with the
// reference, and a PostgreSQL one in store/postgres.
package store

import (
	"context"
	"errors"
	"time"
)

// Store keeps a library's manifests, their history and staged writes.
// Reads outside Update see committed state only. Missing things read as
// os.ErrNotExist (Manifest, Version, Staged) or as empty lists.
type Store interface {
	// ManifestPath names agent id's manifest in payloads and messages.
	ManifestPath(id string) string
	// Agents returns the ids of the agents with a manifest or a history,
	// sorted.
	Agents(ctx context.Context) ([]string, error)
	// Manifest returns agent id's current manifest.
	Manifest(ctx context.Context, id string) ([]byte, error)
	// Update runs fn with agent id's state locked against every other
	// writer (in any process): one transaction where the backend has them.
	// fn's writes take effect only if it returns nil, except in the
	// directory backend, which writes each step at once, in the order the
	// write path gives them (provenance first, so that every state a reader
	// sees has its record).
	Update(ctx context.Context, id string, fn func(Tx) error) error
	// VersionIDs returns agent id's archived version ids, oldest first.
	VersionIDs(ctx context.Context, id string) ([]string, error)
	// Version returns the bytes of one archived version.
	Version(ctx context.Context, id, version string) ([]byte, error)
	// Provenance returns agent id's provenance records, oldest first; each
	// is one JSON object (a torn one is the caller's to skip).
	Provenance(ctx context.Context, id string) ([][]byte, error)

	// StagedPath names caller's staged manifest of agent id in payloads.
	StagedPath(caller, id string) string
	// UpdateStaged runs fn with caller's staged manifest of agent id locked.
	UpdateStaged(ctx context.Context, caller, id string, fn func(StagedTx) error) error
	// ListStaged returns every staged manifest, by caller then agent id.
	ListStaged(ctx context.Context) ([]StagedEntry, error)
	// Staged returns the bytes of one staged manifest.
	Staged(ctx context.Context, caller, id string) ([]byte, error)
}

// Tx is one agent's state under its write lock.
type Tx interface {
	// Manifest returns the current manifest, read under the lock.
	Manifest() ([]byte, error)
	// Archive stores data (the state being replaced, whose digest is
	// digest) as a new version and returns its id (see VersionID).
	Archive(data []byte, digest string, now time.Time) (string, error)
	// Version returns the bytes of one archived version.
	Version(version string) ([]byte, error)
	// Restore stores data as the archived version with the given id, as
	// it is (a copy between stores keeps the ids).
	Restore(version string, data []byte) error
	// Record appends one provenance record (JSON, no newline).
	Record(change []byte) error
	// Put makes data (whose digest is digest) the current manifest.
	Put(data []byte, digest string) error
	// Owned returns the record of the rows the agent's exporter owns.
	Owned() ([]byte, error)
	// PutOwned replaces that record.
	PutOwned(data []byte) error
}

// StagedTx is one staged manifest under its lock.
type StagedTx interface {
	// Data returns the staged manifest (os.ErrNotExist when none).
	Data() ([]byte, error)
	// Put replaces it.
	Put(data []byte) error
	// Remove deletes it.
	Remove() error
}

// StagedEntry is one staged manifest as listed.
type StagedEntry struct {
	Caller, AgentID string
	Path            string    // for payloads and messages
	Time            time.Time // when it was last written
}

// VersionID names an archived version: the UTC time of the write and the
// digest8 of the archived state, so that ids sort oldest to newest. A
// backend that finds the id taken tries the next microsecond.
func VersionID(t time.Time, digest string) string {
	return t.UTC().Format("20060102T150405.000000Z") + "-" + digest[:8]
}

// ErrUnsupported is an operation a backend does not offer (yet).
var ErrUnsupported = errors.New("not available on this store")
