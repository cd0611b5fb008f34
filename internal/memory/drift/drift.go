// Package drift keeps the export watermark of every participant surface
// (each agent's manifest) and turns it into drift verdicts: a surface that
// used to yield rows and has stopped.
//
// The watermark of a surface is the largest number of rows (entities,
// sessions, workstreams and notes) its manifest has ever held, with the
// time it was reached. A surface is drifting when its manifest no longer
// parses, or when it holds less than half of its watermark after having
// held at least MinRows: the symptom of an exporter that regenerates a
// manifest from a native store it can no longer read. The watermarks are
// kept in a JSON file so that a restart does not forget them.
package drift

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// MinRows is the smallest watermark that can drift: a surface that never
// held more than a handful of rows says nothing when it shrinks.
const MinRows = 6

// Surface is what a manifest yields now.
type Surface struct {
	Agent   string
	Rows    int
	Problem string // why the manifest no longer parses; "" when it does
}

// Verdict is one drifting surface, as prepare_recognition_context reports
// it.
type Verdict struct {
	Agent     string `json:"agent"`
	CheckedAt string `json:"checked_at"`
	Reason    string `json:"reason"`
}

type mark struct {
	HighRows  int    `json:"high_rows"`
	HighAt    string `json:"high_at"`
	Rows      int    `json:"rows"`
	CheckedAt string `json:"checked_at"`
	Reason    string `json:"reason,omitempty"` // the drift verdict; "" when healthy
}

type state struct {
	Version  int              `json:"version"`
	Surfaces map[string]*mark `json:"surfaces"`
}

// Tracker keeps the watermarks in a file. It is safe for concurrent use.
type Tracker struct {
	path string
	tree fsutil.Tree // the file is read and written through it
	// Now returns the current time; tests replace it.
	Now func() time.Time

	mu    sync.Mutex
	state *state // nil when the file exists but cannot be read
	err   error
}

// maxStateBytes bounds the watermark file.
const maxStateBytes = 4 << 20

// Open reads the watermark file at path; a missing file is an empty
// state. A file that cannot be read leaves the tracker without verdicts
// (and never overwritten) until it is fixed or removed.
func Open(path string) *Tracker { return OpenIn(fsutil.NewTree(filepath.Dir(path)), path) }

// OpenIn is Open for a file of tree (a library's .bourdon/watermarks.json
// in the library): a symbolic link on the way that leads out of the tree
// is not followed, for reading or writing.
func OpenIn(tree fsutil.Tree, path string) *Tracker {
	t := &Tracker{path: path, tree: tree, Now: time.Now}
	data, err := tree.ReadRegular(path, maxStateBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		t.state = &state{Version: 1, Surfaces: map[string]*mark{}}
	case err != nil:
		t.err = err
	default:
		var s state
		if err := json.Unmarshal(data, &s); err != nil || s.Surfaces == nil {
			t.err = fmt.Errorf("watermarks %s cannot be read: %v", path, err)
		} else {
			t.state = &s
		}
	}
	return t
}

// Err says why the watermarks cannot be used, or nil.
func (t *Tracker) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Observe records what every surface yields now, raising watermarks and
// settling verdicts, and writes the file when anything changed. Surfaces
// not listed keep their watermark (an agent whose manifest was deleted is
// not drifting: it is gone).
func (t *Tracker) Observe(surfaces []Surface) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == nil {
		return t.err
	}
	now := t.Now().UTC().Format(time.RFC3339)
	changed := false
	for _, s := range surfaces {
		m := t.state.Surfaces[s.Agent]
		if m == nil {
			m = &mark{}
			t.state.Surfaces[s.Agent] = m
			changed = true
		}
		reason := ""
		switch {
		case s.Problem != "":
			reason = "the manifest no longer parses: " + s.Problem
		case s.Rows > m.HighRows:
			m.HighRows, m.HighAt = s.Rows, now
			changed = true
		case m.HighRows >= MinRows && 2*s.Rows < m.HighRows:
			reason = fmt.Sprintf("the manifest holds %d rows, down from %d on %s", s.Rows, m.HighRows, m.HighAt)
		}
		if s.Problem == "" && m.Rows != s.Rows {
			m.Rows = s.Rows
			changed = true
		}
		if reason != m.Reason {
			m.Reason, m.CheckedAt = reason, now
			changed = true
		}
	}
	if !changed {
		return nil
	}
	data, err := json.MarshalIndent(t.state, "", "  ")
	if err != nil {
		return err
	}
	return t.tree.WriteAtomic(t.path, append(data, '\n'), 0o644)
}

// Drifting returns the surfaces with a drift verdict, by agent id, among
// those keep accepts (nil keeps all). ok is false when the watermarks
// cannot be read: the verdicts are then unknown, not empty.
func (t *Tracker) Drifting(keep func(agent string) bool) (verdicts []Verdict, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == nil {
		return nil, false
	}
	for agent, m := range t.state.Surfaces {
		if m.Reason != "" && (keep == nil || keep(agent)) {
			verdicts = append(verdicts, Verdict{Agent: agent, CheckedAt: m.CheckedAt, Reason: m.Reason})
		}
	}
	slices.SortFunc(verdicts, func(a, b Verdict) int {
		if a.Agent < b.Agent {
			return -1
		}
		if a.Agent > b.Agent {
			return 1
		}
		return 0
	})
	return verdicts, true
}
