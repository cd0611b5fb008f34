package commit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// The history of agent A lives in <library>/history/A/: versions/ holds
// every state a write replaced, byte for byte, as <version_id>.l5.yaml;
// provenance.jsonl has one line per write (Change).

// Change is the provenance record of one write.
type Change struct {
	Time            string              `json:"time"`
	Op              string              `json:"op"` // commit, rollback, promote or export
	AgentID         string              `json:"agent_id"`
	Mode            string              `json:"mode,omitempty"`
	Digest          string              `json:"digest"` // of the state this write produced
	Digest8         string              `json:"digest8"`
	PreviousDigest  string              `json:"previous_digest,omitempty"`
	ArchivedVersion string              `json:"archived_version,omitempty"` // where the replaced state went
	RolledBackTo    string              `json:"rolled_back_to,omitempty"`
	StagedBy        string              `json:"staged_by,omitempty"` // promote: the member whose staged write this was
	Caller          string              `json:"caller"`
	CallerTier      string              `json:"caller_tier,omitempty"`
	SessionID       string              `json:"session_id,omitempty"`
	TranscriptRef   string              `json:"transcript_ref,omitempty"`
	CallerAsserted  []string            `json:"caller_asserted"` // fields that are the caller's word, not verified
	Changes         map[string][]string `json:"changes,omitempty"`
}

// batch holds what one write added, updated and removed, by kind of row.
type batch perKind[counts]

// describe lists the dedupe keys a write added, updated and removed, by
// kind.
func (c batch) describe() map[string][]string {
	out := map[string][]string{}
	for k, kc := range c {
		key := rowKinds[k].key
		if len(kc.added) > 0 {
			out[key+"_added"] = readableKeys(kc.added)
		}
		if len(kc.updated) > 0 {
			out[key+"_updated"] = readableKeys(kc.updated)
		}
		if len(kc.removed) > 0 {
			out[key+"_removed"] = readableKeys(kc.removed)
		}
	}
	return out
}

func readableKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = strings.ReplaceAll(strings.TrimRight(k, "\x00"), "\x00", " @ ")
	}
	return out
}

func (w *Writer) historyDir(id string) string { return filepath.Join(w.root, "history", id) }

// replace archives the current state (if any), records the change and
// writes the new manifest, in tx, and returns the record.
//
// The provenance record is written before the manifest, so that every
// state a reader can ever observe has its record: in the directory
// backend, a process killed between the two leaves a record of a state
// that never became current (which nothing can ask about, since nobody
// saw its digest) rather than a current state that explain cannot
// explain; a transactional backend writes both or neither.
func (w *Writer) replace(tx store.Tx, id string, oldBytes []byte, oldDigest string, data []byte, now time.Time, ch Change, p Provenance) (Change, error) {
	if oldBytes != nil {
		v, err := tx.Archive(oldBytes, oldDigest, now)
		if err != nil {
			return Change{}, fmt.Errorf("archiving the current version: %w", err)
		}
		ch.ArchivedVersion = v
	}
	ch.Time = now.Format("2006-01-02T15:04:05.000000Z")
	ch.AgentID = id
	ch.Digest8 = ch.Digest[:8]
	ch.Caller, ch.CallerTier = p.Caller, p.CallerTier
	ch.SessionID, ch.TranscriptRef = p.SessionID, p.TranscriptRef
	ch.CallerAsserted = []string{}
	if p.SessionID != "" {
		ch.CallerAsserted = append(ch.CallerAsserted, "session_id")
	}
	if p.TranscriptRef != "" {
		ch.CallerAsserted = append(ch.CallerAsserted, "transcript_ref")
	}
	line, err := json.Marshal(ch)
	if err == nil {
		err = tx.Record(line)
	}
	if err != nil {
		return Change{}, fmt.Errorf("recording provenance: %w", err)
	}
	if err := tx.Put(data, ch.Digest); err != nil {
		return Change{}, err
	}
	return ch, nil
}

// appendProvenance appends one record to the directory's provenance.jsonl.
func (w *Writer) appendProvenance(id string, line []byte) error {
	path := filepath.Join(w.historyDir(id), "provenance.jsonl")
	f, created, err := w.tree.OpenAppend(path, 0o644)
	if err != nil {
		return err
	}
	// A process killed mid-append (or a full disk) can leave a last line
	// without its newline; the next record must not be glued to it, or it
	// would be unreadable too. Only the torn line is lost.
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			line = append([]byte{'\n'}, line...)
		}
	}
	_, werr := f.Write(append(line, '\n'))
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil && created {
		werr = w.tree.SyncDir(filepath.Dir(path)) // the new file's entry
	}
	return werr
}

// Version is one archived state of an agent's memory.
type Version struct {
	VersionID   string `json:"version_id"`
	Digest8     string `json:"digest8"`
	ArchivedAt  string `json:"archived_at"`
	Entities    int    `json:"entities"`
	Sessions    int    `json:"sessions"`
	Workstreams int    `json:"workstreams"`
	Notes       int    `json:"notes"`
	// ReplacedBy says which write replaced this state.
	ReplacedBy *Change `json:"replaced_by"`
}

// Versions returns the archived states of an agent's memory, newest first,
// at most limit (all when limit <= 0).
func (w *Writer) Versions(id string, limit int) ([]Version, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	ctx := context.Background()
	ids, err := w.st.VersionIDs(ctx, id)
	if err != nil {
		return nil, err
	}
	slices.Reverse(ids)
	if limit > 0 && len(ids) > limit {
		ids = ids[:limit]
	}
	changes, err := w.Changes(id)
	if err != nil {
		return nil, err
	}
	byArchive := map[string]*Change{}
	for i := range changes {
		if v := changes[i].ArchivedVersion; v != "" {
			byArchive[v] = &changes[i]
		}
	}
	out := make([]Version, 0, len(ids))
	for _, v := range ids {
		ver := Version{VersionID: v, ReplacedBy: byArchive[v]}
		stamp, digest8, _ := strings.Cut(v, "-")
		ver.Digest8 = digest8
		if t, err := time.Parse("20060102T150405.000000Z", stamp); err == nil {
			ver.ArchivedAt = t.Format("2006-01-02T15:04:05.000000Z")
		}
		read := func() ([]byte, error) { return w.st.Version(ctx, id, v) }
		if m, _, err := loadManifest(v, read); err == nil && m != nil {
			ver.Entities, ver.Sessions = len(listOf(m, l5.KeyEntities)), len(listOf(m, l5.KeySessions))
			ver.Workstreams, ver.Notes = len(listOf(m, l5.KeyWorkstreams)), len(listOf(m, l5.KeyNotes))
		}
		out = append(out, ver)
	}
	return out, nil
}

func (w *Writer) versionPath(id, version string) string {
	return filepath.Join(w.historyDir(id), "versions", version+".l5.yaml")
}

// checkID refuses an agent id that cannot name an agent (and so could
// name a path elsewhere, such as ../../x): every reader of an agent's
// history calls it first, whoever its caller is.
func checkID(id string) error {
	if !l5.ValidAgentID(id) {
		return invalid("invalid agent_id %s: %s", pyfmt.Quote(id), l5.AgentIDRule)
	}
	return nil
}

// Changes returns the provenance records of an agent, oldest first. A torn
// last line (a crash mid-append) is skipped. An invalid id is a
// *ValidationError.
func (w *Writer) Changes(id string) ([]Change, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	records, err := w.st.Provenance(context.Background(), id)
	var out []Change
	for _, r := range records {
		var ch Change
		if json.Unmarshal(r, &ch) == nil && ch.Digest != "" {
			out = append(out, ch)
		}
	}
	return out, err
}

// Explain returns the write that produced the state with the given digest
// (full, or at least its first 8 characters): caller, session, transcript
// and what changed. The newest such write wins when a state recurs.
func (w *Writer) Explain(id, digest string) (*Change, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if len(strings.TrimSpace(digest)) < 8 {
		return nil, invalid("digest %s is too short: send a full digest or a digest8", pyfmt.Quote(digest))
	}
	changes, err := w.Changes(id)
	if err != nil {
		return nil, err
	}
	for i := len(changes) - 1; i >= 0; i-- {
		if digestMatches(digest, changes[i].Digest) {
			return &changes[i], nil
		}
	}
	return nil, nil
}

// CurrentDigest returns the digest of an agent's manifest on disk, or ""
// when it has none.
func (w *Writer) CurrentDigest(id string) (string, error) {
	if err := checkID(id); err != nil {
		return "", err
	}
	m, _, err := loadManifest(w.ManifestPath(id), func() ([]byte, error) { return w.st.Manifest(context.Background(), id) })
	if err != nil || m == nil {
		return "", err
	}
	return Digest(m), nil
}

// Rollback restores an archived version of an agent's manifest, byte for
// byte. The current state is archived first, so a rollback can itself be
// rolled back. With expectedDigest set, the rollback happens only if the
// manifest has not changed since the caller looked.
func (w *Writer) Rollback(ctx context.Context, id, version string, expectedDigest *string, p Provenance) (*Change, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	if strings.ContainsAny(version, `/\`) || strings.HasPrefix(version, ".") || version == "" {
		return nil, invalid("invalid version_id %s: pass a version_id from list_memory_versions", pyfmt.Quote(version))
	}
	var ch Change
	err := w.st.Update(ctx, id, func(tx store.Tx) error {
		var err error
		ch, err = w.rollbackIn(tx, id, version, expectedDigest, p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &ch, nil
}

// rollbackIn is Rollback under the agent's lock, in tx.
func (w *Writer) rollbackIn(tx store.Tx, id, version string, expectedDigest *string, p Provenance) (Change, error) {
	data, err := tx.Version(version)
	if errors.Is(err, os.ErrNotExist) {
		return Change{}, invalid("no version %s of %s: pass a version_id from list_memory_versions", pyfmt.Quote(version), pyfmt.Quote(id))
	}
	if err != nil {
		return Change{}, err
	}
	restored, err := yaml11.Decode(data)
	rm, ok := restored.(*yaml11.Map)
	if err != nil || !ok {
		return Change{}, fmt.Errorf("version %s of %s cannot be read; it was not restored", version, id)
	}
	// Restoring a good version is how an unreadable manifest gets
	// repaired; its bytes are archived like any replaced state.
	_, currentBytes, currentDigest, err := w.readReplaced(tx, id, true)
	if err != nil {
		return Change{}, err
	}
	if err := checkExpected(expectedDigest, currentDigest); err != nil {
		return Change{}, err
	}
	ch := Change{Op: OpRollback, Digest: Digest(rm), PreviousDigest: currentDigest, RolledBackTo: version}
	return w.replace(tx, id, currentBytes, currentDigest, data, w.Now().UTC(), ch, p)
}
