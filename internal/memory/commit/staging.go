package commit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Staging holds the writes of quarantined callers until an operator
// reviews them: <library>/staging/<caller>/<agent_id>.l5.yaml, one L5
// manifest per (caller, agent) into which repeated writes accumulate. The
// library never reads staging/ (it reads only agents/), so staged content
// is invisible to every read until Promote commits it.
//
// A staged file is locked with its own lock (.locks/staging/<caller>/
// <agent_id>.lock). Promote holds it while it commits the file and removes
// it, and takes the agent's lock inside it (through Commit); nothing takes
// the two the other way round.

// stagedSuffix ends the name of every staged manifest.
const stagedSuffix = ".l5.yaml"

// ForeignNamespaceError is a staged write to a namespace other than the
// caller's own.
type ForeignNamespaceError struct{ Caller, AgentID string }

func (e *ForeignNamespaceError) Error() string {
	return "quarantined members may only write their own namespace (" + pyfmt.Quote(e.Caller) + ")"
}

// NoStagedError is a promote, reject or diff of an agent that has no
// staged writes.
type NoStagedError struct{ AgentID string }

func (e *NoStagedError) Error() string {
	return "no staged writes for agent " + pyfmt.Quote(e.AgentID)
}

// StageResult is what a staged write answers, in the reference's payload
// shape.
type StageResult struct {
	Staged  bool   `json:"staged"`
	AgentID string `json:"agent_id"`
	Path    string `json:"path"`
	Note    string `json:"note"`
}

// StagingDir returns the directory of staged writes.
func (w *Writer) StagingDir() string { return filepath.Join(w.root, "staging") }

func (w *Writer) stagedPath(caller, id string) string {
	return filepath.Join(w.StagingDir(), caller, id+stagedSuffix)
}

func (w *Writer) stagedLockPath(caller, id string) string {
	return filepath.Join(w.root, ".locks", "staging", caller, id+".lock")
}

// Stage merges a quarantined caller's contribution into its staged
// manifest instead of the live one. A caller may only stage into its own
// namespace (req.AgentID == caller); anything else is a
// *ForeignNamespaceError and nothing is written.
//
// Rows are validated as Commit validates them (so that whatever is staged
// can be promoted), and repeated staged writes merge with Commit's rules:
// a row whose key matches a staged row updates it, list fields unioned and
// null values ignored. The reference instead dict.update()s a colliding
// staged row, so a later write's tags replace the earlier ones and its
// nulls erase fields, and it keys entities by name.lower() without the
// strip Commit applies. That is a quirk we do not copy: staging then
// promoting two writes gives the same manifest as committing them.
//
// The agent block also follows Commit: a given agent_type (checked against
// the schema enum, which the reference does not do at staging time)
// replaces the staged one, and instance and role_narrative are set when
// given. agent_type is not required: the live manifest may exist by the
// time the write is promoted. Mode "replace" is refused: a staged write is
// always merged on promotion, and a quarantined caller must not believe it
// wiped its namespace. ExpectedDigest is ignored (the operator decides
// when to promote; the live manifest will have moved on anyway), and the
// Provenance is not kept: the staging directory records who staged it,
// and Promote records that.
//
// The staged file gets last_updated in the reference's staging format
// (%Y-%m-%dT%H:%M:%SZ); a write that changes nothing is not written.
func (w *Writer) Stage(ctx context.Context, caller string, req Request) (StageResult, error) {
	if req.AgentID != caller {
		return StageResult{}, &ForeignNamespaceError{Caller: caller, AgentID: req.AgentID}
	}
	rows, err := validate(&req)
	if err != nil {
		return StageResult{}, err
	}
	if req.Mode != ModeMerge {
		return StageResult{}, invalid("mode %s is not available to a quarantined caller: staged writes are merged when an operator promotes them", pyfmt.Quote(req.Mode))
	}
	if req.AgentType != nil && *req.AgentType != "" {
		if err := checkAgentType(*req.AgentType); err != nil {
			return StageResult{}, err
		}
	}
	id := req.AgentID
	unlock, err := w.tree.Lock(ctx, w.stagedLockPath(caller, id))
	if err != nil {
		return StageResult{}, err
	}
	defer unlock()
	path := w.stagedPath(caller, id)
	w.sweep(filepath.Dir(path), id+stagedSuffix+".")

	m, _, err := w.readManifest(path)
	var corrupt *CorruptError
	if errors.As(err, &corrupt) {
		return StageResult{}, fmt.Errorf("the staged manifest (%s) cannot be read, so nothing was merged into it: %v; an operator can remove it with `bourdon staging reject %s`", path, corrupt.Err, id)
	}
	if err != nil {
		return StageResult{}, err
	}
	before := ""
	if m == nil {
		m = yaml11.NewMap(5)
	} else {
		before = Digest(m)
	}
	stagedManifest(m, req, w.Now().UTC())
	mergeRows(m, rows)
	res := StageResult{
		Staged: true, AgentID: id, Path: path,
		Note: "quarantined write staged for review; an operator must run `bourdon staging promote " + id + "` before it propagates to the federation",
	}
	if before != "" && Digest(m) == before {
		return res, nil
	}
	data, err := yaml11.Encode(m)
	if err != nil {
		return StageResult{}, err
	}
	err = w.tree.WriteAtomic(path, data, 0o644)
	if errors.Is(err, os.ErrNotExist) {
		// A promote or reject of another agent staged by the same caller
		// pruned the directory between WriteAtomic's mkdir and its create.
		err = w.tree.WriteAtomic(path, data, 0o644)
	}
	if err != nil {
		return StageResult{}, err
	}
	return res, nil
}

// stagedManifest sets the top of a staged manifest (modified in place):
// spec_version kept or "0.1", the agent block with Commit's rules, and
// last_updated; both row lists exist.
func stagedManifest(m *yaml11.Map, req Request, now time.Time) {
	if v, _ := m.Value(l5.KeySpecVersion).(string); v == "" {
		m.Set(l5.KeySpecVersion, "0.1")
	}
	var agentType string
	if req.AgentType != nil {
		agentType = *req.AgentType
	}
	setAgent(m, req, agentType)
	m.Set(l5.KeyLastUpdated, now.Format("2006-01-02T15:04:05Z"))
	for _, key := range []string{l5.KeyEntities, l5.KeySessions} {
		if _, ok := m.Value(key).([]any); !ok {
			m.Set(key, []any{})
		}
	}
}

// Staged is one staged write awaiting review.
type Staged struct {
	Caller  string `json:"caller"`
	AgentID string `json:"agent_id"`
	Path    string `json:"path"`
	// StagedAt is the file's modification time, %Y-%m-%dT%H:%M:%SZ.
	StagedAt string `json:"staged_at"`
	// AgeDays is the time since StagedAt in days, rounded to 0.1.
	AgeDays     float64 `json:"age_days"`
	Entities    int     `json:"entities"`
	Sessions    int     `json:"sessions"`
	Workstreams int     `json:"workstreams"`
	Notes       int     `json:"notes"`
	// Problem is set when the file cannot be read; its counts are then 0.
	Problem string `json:"problem,omitempty"`

	age time.Duration
}

// Age returns the time since the write was staged.
func (s Staged) Age() time.Duration { return s.age }

// ListStaged returns every staged write, in path order (caller, then
// agent id), as the reference's list_staged does. An unreadable file is
// listed with zero counts and its Problem.
func (w *Writer) ListStaged() ([]Staged, error) {
	callers, err := w.tree.ReadDir(w.StagingDir())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	now := w.Now()
	var out []Staged
	for _, c := range callers {
		if !c.IsDir() || strings.HasPrefix(c.Name(), ".") {
			continue
		}
		dir := filepath.Join(w.StagingDir(), c.Name())
		files, err := w.tree.ReadDir(dir)
		if err != nil {
			continue // pruned meanwhile
		}
		for _, f := range files {
			id, ok := strings.CutSuffix(f.Name(), stagedSuffix)
			if !ok || strings.HasPrefix(f.Name(), ".") || f.IsDir() {
				continue
			}
			s := Staged{Caller: c.Name(), AgentID: id, Path: filepath.Join(dir, f.Name())}
			mtime := now
			if info, err := f.Info(); err == nil {
				mtime = info.ModTime()
			}
			s.StagedAt = mtime.UTC().Format("2006-01-02T15:04:05Z")
			s.age = now.Sub(mtime)
			s.AgeDays = math.Round(s.age.Hours()/24*10) / 10
			m, _, err := w.readManifest(s.Path)
			switch {
			case err != nil:
				s.Problem = err.Error()
			case m != nil:
				s.Entities, s.Sessions = len(listOf(m, l5.KeyEntities)), len(listOf(m, l5.KeySessions))
				s.Workstreams, s.Notes = len(listOf(m, l5.KeyWorkstreams)), len(listOf(m, l5.KeyNotes))
			}
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b Staged) int {
		return cmp.Or(cmp.Compare(a.Caller, b.Caller), cmp.Compare(a.AgentID, b.AgentID))
	})
	return out, nil
}

// stagedFor returns the staged writes for one agent, or a *NoStagedError.
func (w *Writer) stagedFor(id string) ([]Staged, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	all, err := w.ListStaged()
	if err != nil {
		return nil, err
	}
	var out []Staged
	for _, s := range all {
		if s.AgentID == id {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, &NoStagedError{AgentID: id}
	}
	return out, nil
}

// stagedRequest reads a staged manifest and turns it into the merge
// request that promotes it, as the reference does: the staged agent type,
// instance and role_narrative (when present) and all four kinds of rows.
// Dates that a hand-edited file left unquoted are read as strings.
func (w *Writer) stagedRequest(path, id string) (Request, error) {
	m, _, err := w.readManifest(path)
	if err != nil {
		return Request{}, err
	}
	if m == nil {
		return Request{}, fmt.Errorf("%s: %w", path, os.ErrNotExist)
	}
	req := Request{AgentID: id, Mode: ModeMerge}
	if agent, ok := m.Value(l5.KeyAgent).(*yaml11.Map); ok {
		if t, ok := agent.Value("type").(string); ok && t != "" {
			req.AgentType = &t
		}
		if v, ok := agent.Get("instance"); ok && v != nil {
			s := yaml11.Str(v)
			req.Instance = &s
		}
		if v, ok := agent.Get("role_narrative"); ok && v != nil {
			s := yaml11.Str(v)
			req.RoleNarrative = &s
		}
	}
	lists := req.rowLists()
	for k := range kindCount {
		list := listOf(m, rowKinds[k].key)
		for _, r := range list {
			if row, ok := r.(*yaml11.Map); ok {
				if d, ok := row.Value("date").(yaml11.Date); ok {
					row.Set("date", d.String())
				}
			}
		}
		*lists[k] = list
	}
	return req, nil
}

// StagedDiff is what promoting one staged file would do to the live
// manifest, given that the staged files before it (in promote order) were
// promoted first.
type StagedDiff struct {
	Staged
	// Result has the counts a promote would report; NoOp is set when the
	// file would change nothing.
	Result Result `json:"result"`
	// Changes lists the rows that would be added and updated, by kind, as
	// provenance records them (e.g. "known_entities_added": ["payments api"]).
	Changes map[string][]string `json:"changes,omitempty"`
	// Err says why the file could not be promoted; the other fields are
	// then empty.
	Err string `json:"error,omitempty"`
}

// DiffStaged reports, for each staged write of an agent in promote order,
// what a promote would add and update, without writing anything.
func (w *Writer) DiffStaged(id string) ([]StagedDiff, error) {
	staged, err := w.stagedFor(id)
	if err != nil {
		return nil, err
	}
	live, _, liveErr := w.readManifest(w.ManifestPath(id))
	now := isoNow(w.Now().UTC())
	out := make([]StagedDiff, 0, len(staged))
	for _, s := range staged {
		d := StagedDiff{Staged: s}
		req, err := w.stagedRequest(s.Path, id)
		var rows perKind[[]*yaml11.Map]
		if err == nil {
			rows, err = validate(&req)
		}
		if err == nil && liveErr != nil {
			err = liveErr
		}
		var before string
		if live != nil {
			before = Digest(live)
		}
		var m *yaml11.Map
		var c batch
		if err == nil {
			m, c, err = apply(req, rows, live, now)
		}
		if err != nil {
			d.Err = err.Error()
			out = append(out, d)
			continue
		}
		d.Result = Result{AgentID: id, Path: w.ManifestPath(id), Mode: ModeMerge}
		d.Result.fill(m, rows, c)
		d.Result.Digest = Digest(m)
		d.Result.NoOp = before != "" && d.Result.Digest == before
		d.Result.LastUpdated = textOf(m.Value(l5.KeyLastUpdated))
		d.Changes = c.describe()
		live = m
		out = append(out, d)
	}
	return out, nil
}

// Promotion is the outcome of promoting one staged file.
type Promotion struct {
	Caller string `json:"caller"`
	Path   string `json:"path"`
	Result Result `json:"result"`
	// Err says why the file was not promoted (it stays in staging).
	Err error `json:"-"`
}

// PromoteError lists the staged files that could not be promoted; they
// stay in staging. The others were promoted and removed.
type PromoteError struct{ Failed []Promotion }

func (e *PromoteError) Error() string {
	parts := make([]string, len(e.Failed))
	for i, p := range e.Failed {
		parts[i] = fmt.Sprintf("%s (staged by %s) was not promoted and stays staged: %v", p.Path, p.Caller, p.Err)
	}
	return strings.Join(parts, "; ")
}

// Unwrap returns the errors of the failed files.
func (e *PromoteError) Unwrap() []error {
	out := make([]error, len(e.Failed))
	for i, p := range e.Failed {
		out[i] = p.Err
	}
	return out
}

// Promote commits every staged write for agent id (any caller, in path
// order) to the live manifest through Commit in merge mode, and removes
// each file it committed, pruning a caller directory left empty. The
// provenance of each commit has op "promote", the given caller (the
// operator who promoted) and staged_by, the member that staged it.
//
// A file that cannot be promoted (unreadable, refused by Commit's
// validation, or a new manifest without agent_type) stays staged; the
// others are still promoted, and the error is a *PromoteError naming each
// failure. The promotions are returned in both cases. No staged write is a
// *NoStagedError.
func (w *Writer) Promote(ctx context.Context, id string, p Provenance) ([]Promotion, error) {
	staged, err := w.stagedFor(id)
	if err != nil {
		return nil, err
	}
	out := make([]Promotion, 0, len(staged))
	var failed []Promotion
	for _, s := range staged {
		pr := Promotion{Caller: s.Caller, Path: s.Path}
		pr.Result, pr.Err = w.promoteOne(ctx, s, p)
		if pr.Err != nil {
			if ctx.Err() != nil {
				return out, ctx.Err()
			}
			failed = append(failed, pr)
		}
		out = append(out, pr)
	}
	if len(failed) > 0 {
		return out, &PromoteError{Failed: failed}
	}
	return out, nil
}

func (w *Writer) promoteOne(ctx context.Context, s Staged, p Provenance) (Result, error) {
	unlock, err := w.tree.Lock(ctx, w.stagedLockPath(s.Caller, s.AgentID))
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	req, err := w.stagedRequest(s.Path, s.AgentID)
	if err != nil {
		return Result{}, err
	}
	req.Provenance = p
	res, err := w.commit(ctx, req, OpPromote, s.Caller)
	if err != nil {
		return Result{}, err
	}
	if err := w.removeStaged(s.Path); err != nil {
		return res, fmt.Errorf("promoted, but the staged file could not be removed (promoting it again merges the same rows again): %w", err)
	}
	return res, nil
}

// removeStaged deletes a staged file and its caller directory if that is
// left empty.
func (w *Writer) removeStaged(path string) error {
	if err := w.tree.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	_ = w.tree.Remove(dir) // fails, as it should, unless the directory is empty
	return w.tree.SyncDir(filepath.Dir(dir))
}

// Reject deletes every staged write for agent id (any caller) and returns
// how many there were. No staged write is a *NoStagedError.
func (w *Writer) Reject(ctx context.Context, id string) (int, error) {
	staged, err := w.stagedFor(id)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range staged {
		unlock, err := w.tree.Lock(ctx, w.stagedLockPath(s.Caller, s.AgentID))
		if err != nil {
			return n, err
		}
		err = w.removeStaged(s.Path)
		unlock()
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
