// Package commit is the write path of the federation: contributions merged
// into an agent's manifest (commit_to_federation), staged writes of
// untrusted callers, and the version history that makes every change
// explainable and undoable.
//
// Every write to a manifest takes a cross-process lock, reads the manifest
// from disk under that lock (never a cached copy), writes the result
// atomically, archives the state it replaced and records who made the
// change. Readers (the library) see the new file on their next query.
package commit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Writer writes to one library directory. It is safe for concurrent use,
// also by several processes.
type Writer struct {
	root string
	// tree is root: every file the Writer reads or writes is reached
	// through it, so a symbolic link that leads out of the library (a
	// manifest, history/<id>, staging/<caller>, .bourdon/exports, .locks)
	// is refused instead of followed.
	tree fsutil.Tree
	// Now returns the current time; tests replace it.
	Now func() time.Time

	sweepMu sync.Mutex
	swept   map[string]time.Time // when stale temporary files were last removed, by directory

	cacheMu sync.Mutex
	cache   map[string]*parsed // the manifests this Writer wrote last, by agent id

	// st keeps what the Writer writes: the library directory (New) or
	// another backend (OnStore).
	st store.Store
}

// New returns a writer for the library directory at root (made absolute).
func New(root string) *Writer {
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	w := &Writer{root: root, tree: fsutil.NewTree(root), Now: time.Now, swept: map[string]time.Time{}, cache: map[string]*parsed{}}
	w.st = dirStore{w}
	return w
}

// OnStore returns a writer for a library kept in st (a PostgreSQL
// database, say). What only a directory has (export caches, temporary
// files to sweep) is then unavailable; a dry-run export reads in a
// transaction it rolls back.
func OnStore(st store.Store) *Writer {
	return &Writer{Now: time.Now, swept: map[string]time.Time{}, cache: map[string]*parsed{}, st: st}
}

// Store returns the store the Writer writes (the directory's, for New).
func (w *Writer) Store() store.Store { return w.st }

// ManifestPath returns where agent id's manifest lives.
func (w *Writer) ManifestPath(id string) string {
	if w.root == "" {
		return w.st.ManifestPath(id)
	}
	return filepath.Join(w.root, "agents", id+".l5.yaml")
}

func (w *Writer) lockPath(id string) string {
	return filepath.Join(w.root, ".locks", id+".lock")
}

// Modes of a commit.
const (
	ModeMerge   = "merge"
	ModeReplace = "replace"
)

// Request is one contribution to an agent's manifest. Rows are decoded
// JSON or YAML objects (map[string]any or *yaml11.Map).
type Request struct {
	AgentID       string
	AgentType     *string
	Instance      *string
	RoleNarrative *string
	Entities      []any
	Sessions      []any
	Workstreams   []any
	Notes         []any
	Mode          string // "" means merge
	// ExpectedDigest, when set, must equal the digest (or its first 8
	// characters) of the manifest on disk, or nothing is written.
	ExpectedDigest *string
	Provenance     Provenance
}

// Provenance says who made a change. Caller and CallerTier come from the
// verified identity; SessionID and TranscriptRef are whatever the caller
// asserted.
type Provenance struct {
	Caller        string
	CallerTier    string
	SessionID     string
	TranscriptRef string
}

// Result summarises a commit, in the reference's payload shape. The
// workstream and note counters are reported only when the request or the
// manifest has any.
type Result struct {
	AgentID            string `json:"agent_id"`
	Path               string `json:"path"`
	Mode               string `json:"mode"`
	EntitiesAdded      int    `json:"entities_added"`
	EntitiesUpdated    int    `json:"entities_updated"`
	SessionsAdded      int    `json:"sessions_added"`
	SessionsUpdated    int    `json:"sessions_updated"`
	WorkstreamsAdded   *int   `json:"workstreams_added,omitempty"`
	WorkstreamsUpdated *int   `json:"workstreams_updated,omitempty"`
	NotesAdded         *int   `json:"notes_added,omitempty"`
	NotesUpdated       *int   `json:"notes_updated,omitempty"`
	TotalEntities      int    `json:"total_entities"`
	TotalSessions      int    `json:"total_sessions"`
	TotalWorkstreams   *int   `json:"total_workstreams,omitempty"`
	TotalNotes         *int   `json:"total_notes,omitempty"`
	LastUpdated        string `json:"last_updated"`
	// NoOp is set when the merged manifest equals the stored one: nothing
	// was written, no version archived, and Digest is the unchanged one.
	NoOp   bool   `json:"no_op,omitempty"`
	Digest string `json:"digest,omitempty"`
}

// ValidationError is a request the write path refuses; its message is the
// reference's where it has one.
type ValidationError struct{ Msg string }

func (e *ValidationError) Error() string { return e.Msg }

// StaleDigestError is a commit made against a manifest that has changed
// since the caller read it.
type StaleDigestError struct{ Expected, Current string }

func (e *StaleDigestError) Error() string {
	return fmt.Sprintf("expected_digest %s does not match the manifest's current digest %s: it changed since you read it; read it again and retry", pyfmt.Quote(e.Expected), pyfmt.Quote(e.Current))
}

func invalid(format string, args ...any) error {
	return &ValidationError{Msg: fmt.Sprintf(format, args...)}
}

// Commit merges (or, in replace mode, writes) a contribution into the
// agent's manifest. See the package documentation for the guarantees.
func (w *Writer) Commit(ctx context.Context, req Request) (Result, error) {
	return w.commit(ctx, req, OpCommit, "")
}

// Operations recorded in provenance (Change.Op).
const (
	OpCommit   = "commit"
	OpPromote  = "promote"
	OpRollback = "rollback"
	OpExport   = "export"
)

// commit is Commit, recording the write as op; stagedBy names the member
// whose staged write a promote commits.
func (w *Writer) commit(ctx context.Context, req Request, op, stagedBy string) (Result, error) {
	rows, err := validate(&req)
	if err != nil {
		return Result{}, err
	}
	var res Result
	err = w.st.Update(ctx, req.AgentID, func(tx store.Tx) error {
		var err error
		res, err = w.commitIn(tx, req, rows, op, stagedBy)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// commitIn is commit under the agent's lock, in tx.
func (w *Writer) commitIn(tx store.Tx, req Request, rows perKind[[]*yaml11.Map], op, stagedBy string) (Result, error) {
	path := w.ManifestPath(req.AgentID)
	before, beforeBytes, currentDigest, err := w.readReplaced(tx, req.AgentID, req.Mode == ModeReplace)
	if err != nil {
		return Result{}, err
	}
	previousUpdate := ""
	if before != nil {
		previousUpdate = textOf(before.Value(l5.KeyLastUpdated))
	}
	if err := checkExpected(req.ExpectedDigest, currentDigest); err != nil {
		return Result{}, err
	}
	now := w.Now().UTC()
	m, c, err := apply(req, rows, before, isoNow(now))
	if err != nil {
		return Result{}, err
	}
	res := Result{AgentID: req.AgentID, Path: path, Mode: req.Mode}
	res.fill(m, rows, c)
	after := Digest(m)
	if before != nil && after == currentDigest {
		res.NoOp, res.Digest, res.LastUpdated = true, currentDigest, previousUpdate
		return res, nil
	}
	res.LastUpdated = textOf(m.Value(l5.KeyLastUpdated))
	ch := Change{Op: op, Mode: req.Mode, StagedBy: stagedBy, Changes: c.describe()}
	if err := w.writeManifest(tx, req.AgentID, m, after, beforeBytes, currentDigest, now, ch, req.Provenance); err != nil {
		return Result{}, err
	}
	return res, nil
}

// readReplaced reads agent id's manifest as a write that replaces it
// sees it (see readCurrent), except that a manifest that cannot be
// parsed, when the write may overwrite it (overwriteCorrupt), is no
// manifest, its bytes and their raw digest.
func (w *Writer) readReplaced(tx store.Tx, id string, overwriteCorrupt bool) (*yaml11.Map, []byte, string, error) {
	m, data, digest, err := w.readCurrent(tx.Manifest, id)
	var corrupt *CorruptError
	if overwriteCorrupt && errors.As(err, &corrupt) {
		return nil, corrupt.Data, rawDigest(corrupt.Data), nil
	}
	return m, data, digest, err
}

// checkExpected refuses a write whose caller expected a state other than
// the current one (whose digest is current); expected nil expects none.
func checkExpected(expected *string, current string) error {
	if expected != nil && !digestMatches(*expected, current) {
		return &StaleDigestError{Expected: *expected, Current: current}
	}
	return nil
}

// writeManifest writes m (whose digest is digest) as agent id's manifest:
// it archives the state it replaces (oldBytes, nil when there was none),
// records ch as the change with the caller p, and remembers m for the next
// read. The caller holds the agent's lock; m must not be modified after.
func (w *Writer) writeManifest(tx store.Tx, id string, m *yaml11.Map, digest string, oldBytes []byte, oldDigest string, now time.Time, ch Change, p Provenance) error {
	data, err := yaml11.Encode(m)
	if err != nil {
		return err
	}
	ch.Digest, ch.PreviousDigest = digest, oldDigest
	if _, err := w.replace(tx, id, oldBytes, oldDigest, data, now, ch, p); err != nil {
		w.forget(id)
		return err
	}
	w.remember(id, data, m, digest)
	return nil
}

// apply builds the manifest a validated request produces from before (the
// stored manifest, which it modifies in merge mode; nil when there is
// none) and counts what it added and updated.
func apply(req Request, rows perKind[[]*yaml11.Map], before *yaml11.Map, now string) (*yaml11.Map, batch, error) {
	m, err := build(req, before, now)
	if err != nil {
		return nil, batch{}, err
	}
	return m, mergeRows(m, rows), nil
}

// rowLists returns the request's lists of rows, by kind.
func (req *Request) rowLists() perKind[*[]any] {
	return perKind[*[]any]{
		entityRows:     &req.Entities,
		sessionRows:    &req.Sessions,
		workstreamRows: &req.Workstreams,
		noteRows:       &req.Notes,
	}
}

// validate checks a request and converts its rows, in the reference's
// order and with its messages.
func validate(req *Request) (perKind[[]*yaml11.Map], error) {
	var rows perKind[[]*yaml11.Map]
	if err := checkID(req.AgentID); err != nil {
		return rows, err
	}
	if req.Mode == "" {
		req.Mode = ModeMerge
	}
	if req.Mode != ModeMerge && req.Mode != ModeReplace {
		return rows, invalid("invalid mode %s: must be 'merge' or 'replace'", pyfmt.Quote(req.Mode))
	}
	lists := req.rowLists()
	for k := range kindCount {
		var err error
		if rows[k], err = rowKinds[k].convert(*lists[k]); err != nil {
			return rows, err
		}
	}
	return rows, nil
}

// convert turns decoded rows of this kind into ordered maps, checking
// that each is an object with the required fields, then each row's field
// values.
func (kind rowKind) convert(in []any) ([]*yaml11.Map, error) {
	out := make([]*yaml11.Map, 0, len(in))
	for _, r := range in {
		row, isMap := toValue(r).(*yaml11.Map)
		if !isMap {
			return nil, invalid("%s is not a dict: %s", kind.name, pyfmt.Repr(toValue(r)))
		}
		if !kind.required(row) {
			return nil, invalid("%s missing non-empty '%s': %s", kind.name, kind.requiredWhat, pyfmt.Repr(row))
		}
		out = append(out, row)
	}
	if kind.check != nil {
		for _, row := range out {
			if err := kind.check(row); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// checkStatus refuses a workstream status outside the schema enum.
func checkStatus(r *yaml11.Map) error {
	if s, ok := r.Value("status").(string); ok && !slices.Contains(l5.WorkstreamStatuses, s) {
		return invalid("workstream status %s is not one of %s", pyfmt.Quote(s), strings.Join(l5.WorkstreamStatuses, ", "))
	}
	return nil
}

// checkDate accepts a calendar date YYYY-MM-DD, or "" for a source that
// carried no recognisable date (never today's date in its place).
func checkDate(kind string, v any) error {
	s, _ := v.(string)
	if s == "" {
		return nil
	}
	if len(s) == 10 {
		if _, ok := l5.ParseDay(s); ok {
			return nil
		}
	}
	return invalid("%s date %s is not a calendar date: send YYYY-MM-DD, or \"\" when the date is unknown", kind, pyfmt.Quote(s))
}

func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

func nonBlank(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) != ""
}

// toValue converts decoded JSON (map[string]any, float64 numbers) into the
// YAML value model. Object keys of a Go map have no order; they are
// sorted, and new rows are re-ordered by schema anyway. A *yaml11.Map is
// copied with its values as they are (a YAML float 1.0 stays a float).
// Text that is not valid UTF-8 (which JSON cannot carry, but a Go caller
// can) gets U+FFFD for each bad byte, as it would once written and read
// back, so that the digest of what is written is the digest of what is
// read.
func toValue(v any) any { return convert(v, true) }

func convert(v any, fromJSON bool) any {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		m := yaml11.NewMap(len(keys))
		for _, k := range keys {
			m.Set(validText(k), convert(x[k], true))
		}
		return m
	case *yaml11.Map:
		m := yaml11.NewMap(x.Len())
		for _, e := range x.Entries() {
			m.Set(validText(e.Key), convert(e.Value, false))
		}
		return m
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = convert(item, fromJSON)
		}
		return out
	case string:
		return validText(x)
	case float64:
		if fromJSON && x == float64(int64(x)) && x >= -1<<53 && x <= 1<<53 {
			return int64(x)
		}
	case int:
		return int64(x)
	}
	return v
}

// validText replaces each byte of s that is not valid UTF-8 with U+FFFD.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// CorruptError is a manifest on disk that cannot be parsed. A merge
// refuses it (merging could silently drop what it holds); a replace
// archives its bytes and writes over it.
type CorruptError struct {
	Path string
	Data []byte
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the manifest on disk (%s) cannot be read, so nothing was merged into it: %v; fix it, or write it whole with mode 'replace'", e.Path, e.Err)
}

// readManifest reads the manifest file at path through the library's tree
// (see loadManifest).
func (w *Writer) readManifest(path string) (*yaml11.Map, []byte, error) {
	return loadManifest(path, func() ([]byte, error) { return w.tree.ReadRegular(path, l5.MaxManifestBytes) })
}

// loadManifest reads a manifest with read, which names it path in
// messages; a missing one is (nil, nil, nil), an unparseable one a
// *CorruptError, one reached through a link out of the library an
// *fsutil.OutsideError.
func loadManifest(path string, read func() ([]byte, error)) (*yaml11.Map, []byte, error) {
	data, err := read()
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	m, err := decodeManifest(path, data)
	if err != nil {
		return nil, nil, err
	}
	return m, data, nil
}

// decodeManifest parses the bytes of the manifest at path; what is not a
// YAML mapping is a *CorruptError.
func decodeManifest(path string, data []byte) (*yaml11.Map, error) {
	doc, err := yaml11.Decode(data)
	if err != nil {
		return nil, &CorruptError{Path: path, Data: data, Err: err}
	}
	m, ok := doc.(*yaml11.Map)
	if !ok {
		return nil, &CorruptError{Path: path, Data: data, Err: errors.New("not a mapping")}
	}
	return m, nil
}

// build starts the new manifest: the stored one in merge mode, a fresh
// one otherwise, with the agent block and timestamps set.
func build(req Request, before *yaml11.Map, now string) (*yaml11.Map, error) {
	var existingType string
	if before != nil && req.Mode == ModeMerge {
		if a, ok := before.Value(l5.KeyAgent).(*yaml11.Map); ok {
			existingType, _ = a.Value("type").(string)
		}
	}
	agentType := existingType
	if req.AgentType != nil && *req.AgentType != "" {
		agentType = *req.AgentType
	}
	if agentType == "" {
		return nil, invalid("agent_type is required for a new manifest (agent_id=%s, mode=%s)", pyfmt.Quote(req.AgentID), pyfmt.Quote(req.Mode))
	}
	if err := checkAgentType(agentType); err != nil {
		return nil, err
	}
	if before != nil && req.Mode == ModeMerge {
		setAgent(before, req, agentType)
		if _, ok := before.Get(l5.KeySpecVersion); !ok {
			before.Set(l5.KeySpecVersion, "0.1")
		}
		before.Set(l5.KeyLastUpdated, now)
		return before, nil
	}
	m := yaml11.NewMap(6)
	m.Set(l5.KeySpecVersion, "0.1")
	setAgent(m, req, agentType)
	m.Set(l5.KeyLastUpdated, now)
	m.Set(l5.KeySessions, []any{})
	m.Set(l5.KeyEntities, []any{})
	return m, nil
}

// setAgent sets the agent block of m (made when missing) as a write sets
// it, a commit and a staged write alike: the id, the type unless
// agentType is empty, and instance and role_narrative when the request
// gives them.
func setAgent(m *yaml11.Map, req Request, agentType string) {
	agent, ok := m.Value(l5.KeyAgent).(*yaml11.Map)
	if !ok {
		agent = yaml11.NewMap(4)
		m.Set(l5.KeyAgent, agent)
	}
	agent.Set("id", req.AgentID)
	if agentType != "" {
		agent.Set("type", agentType)
	}
	if req.Instance != nil {
		agent.Set("instance", validText(*req.Instance))
	}
	if req.RoleNarrative != nil {
		agent.Set("role_narrative", validText(*req.RoleNarrative))
	}
}

// checkAgentType refuses an agent type outside the schema enum.
func checkAgentType(agentType string) error {
	if slices.Contains(l5.AgentTypes, agentType) {
		return nil
	}
	sorted := slices.Clone(l5.AgentTypes)
	slices.Sort(sorted)
	quoted := make([]string, len(sorted))
	for i, t := range sorted {
		quoted[i] = pyfmt.Quote(t)
	}
	return invalid("agent_type %s is not in the L5 schema enum: [%s]", pyfmt.Quote(agentType), strings.Join(quoted, ", "))
}

// isoNow renders a time as Python's datetime.isoformat() does for UTC.
func isoNow(t time.Time) string {
	return yaml11.Timestamp{Time: t.UTC(), HasZone: true}.ISOFormat()
}

// Digest identifies the content of a manifest: the SHA-256, in hex, of the
// JSON of its canonical form (l5.Canonical: no nulls or empty lists) with
// object keys sorted, compact, UTF-8, and without last_updated, so that a
// rewrite of the same content has the same digest.
func Digest(m *yaml11.Map) string {
	c := l5.Canonical(m)
	c.Delete(l5.KeyLastUpdated)
	sum := sha256.Sum256(canonicalJSON(c))
	return hex.EncodeToString(sum[:])
}

// rawDigest identifies a manifest that cannot be parsed: the SHA-256 of
// its bytes.
func rawDigest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// digestMatches accepts the full digest or a prefix of at least 8 hex
// characters (a digest8).
func digestMatches(given, current string) bool {
	given = strings.ToLower(strings.TrimSpace(given))
	return len(given) >= 8 && current != "" && strings.HasPrefix(current, given)
}

func listOf(m *yaml11.Map, key string) []any {
	l, _ := m.Value(key).([]any)
	return l
}

func textOf(v any) string {
	if t, ok := v.(yaml11.Timestamp); ok {
		return t.ISOFormat()
	}
	return pyStrOr(v)
}

// fill sets the counters of a result from the manifest m that merging
// the rows sent produced, and what the merge counted.
func (r *Result) fill(m *yaml11.Map, sent perKind[[]*yaml11.Map], c batch) {
	r.EntitiesAdded, r.EntitiesUpdated = len(c[entityRows].added), len(c[entityRows].updated)
	r.SessionsAdded, r.SessionsUpdated = len(c[sessionRows].added), len(c[sessionRows].updated)
	r.TotalEntities, r.TotalSessions = len(listOf(m, l5.KeyEntities)), len(listOf(m, l5.KeySessions))
	r.WorkstreamsAdded, r.WorkstreamsUpdated, r.TotalWorkstreams = optionalCounts(m, workstreamRows, sent, c)
	r.NotesAdded, r.NotesUpdated, r.TotalNotes = optionalCounts(m, noteRows, sent, c)
}

// optionalCounts returns the counters of an optional kind of row: none
// when the request sent no such row and the manifest holds none.
func optionalCounts(m *yaml11.Map, k kind, sent perKind[[]*yaml11.Map], c batch) (added, updated, total *int) {
	n := len(listOf(m, rowKinds[k].key))
	if len(sent[k]) == 0 && n == 0 {
		return nil, nil, nil
	}
	a, u := len(c[k].added), len(c[k].updated)
	return &a, &u, &n
}
