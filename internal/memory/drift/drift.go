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
// kept in a JSON document (a library's .bourdon/watermarks.json) so that a
// restart does not forget them.
package drift

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
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

// Tracker keeps the watermarks in a document (see store.Documents): a
// file of the library, or a row every replica on one database shares. It
// is safe for concurrent use, by goroutines and by processes sharing the
// document: every change is made under the document's lock on what it
// holds then, so that two processes observing at once merge their
// observations instead of overwriting one another's.
type Tracker struct {
	docs store.Documents
	name string
	// Now returns the current time; tests replace it.
	Now func() time.Time

	// io is held through an observation, so that one tracker observes
	// one thing at a time; mu only while state, rev and err are read or
	// replaced (never during I/O), so that Drifting never waits for the
	// document. A state is never changed once it is t.state: an
	// observation changes a copy and replaces it.
	io    sync.Mutex
	mu    sync.Mutex
	state *state // nil when the document exists but cannot be read
	rev   store.Revision
	err   error
}

// LibraryName is the name of a library's watermarks among its documents
// (in a directory, the file <library>/.bourdon/watermarks.json).
const LibraryName = ".bourdon/watermarks.json"

// maxStateBytes bounds the watermark file.
const maxStateBytes = 4 << 20

// ioTimeout bounds one reading or writing of the document, so that a
// database that stops answering fails an observation instead of hanging
// it.
const ioTimeout = 30 * time.Second

// unknown is a revision no document has: the state is not known to be
// the document's (a write failed).
const unknown store.Revision = "\x00unknown"

// Open reads the watermark document called name in docs (a library's is
// LibraryName among its documents); a missing document is an empty state.
// A document that cannot be read leaves the tracker without verdicts (and
// is never overwritten) until it is fixed or removed: every observation
// reads it again.
func Open(docs store.Documents, name string) *Tracker {
	t := &Tracker{docs: docs, name: name, Now: time.Now}
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	t.state, t.rev, t.err = t.read(ctx)
	return t
}

// read reads the document: its state (empty when it is missing) and
// revision, or why it cannot be read.
func (t *Tracker) read(ctx context.Context) (*state, store.Revision, error) {
	data, rev, err := t.docs.Read(ctx, t.name, maxStateBytes)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return &state{Version: 1, Surfaces: map[string]*mark{}}, rev, nil
	case err != nil:
		return nil, unknown, err
	}
	var s state
	if err := json.Unmarshal(data, &s); err != nil || s.Surfaces == nil {
		return nil, rev, fmt.Errorf("watermarks %s cannot be read: %v", t.docs.Where(t.name), err)
	}
	return &s, rev, nil
}

// Err says why the watermarks cannot be used, or nil.
func (t *Tracker) Err() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// Observe records what every surface yields now, raising watermarks and
// settling verdicts, and writes the document when anything changed: under
// its lock, on the document as it is then (read again if another process
// changed it). Surfaces not listed keep their watermark (an agent whose
// manifest was deleted is not drifting: it is gone).
func (t *Tracker) Observe(surfaces []Surface) error {
	t.io.Lock()
	defer t.io.Unlock()
	now := t.Now().UTC().Format(time.RFC3339)
	t.mu.Lock()
	cur, rev := t.state, t.rev
	t.mu.Unlock()
	if cur != nil && !cur.clone().observe(surfaces, now) {
		return nil // nothing to write
	}
	ctx, cancel := context.WithTimeout(context.Background(), ioTimeout)
	defer cancel()
	unlock, err := t.docs.Lock(ctx, t.name+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	stored, err := t.docs.Revision(ctx, t.name)
	if err != nil {
		return err // the document cannot be asked about now: what is known stays
	}
	if stored != rev || cur == nil {
		cur, rev, err = t.read(ctx)
		if cur == nil {
			t.set(nil, rev, err)
			return err
		}
	}
	next := cur.clone()
	if next.observe(surfaces, now) {
		data, err := json.MarshalIndent(next, "", "  ")
		if err != nil {
			return err
		}
		if rev, err = t.docs.Write(ctx, t.name, append(data, '\n')); err != nil {
			t.set(next, unknown, nil)
			return err
		}
	}
	t.set(next, rev, nil)
	return nil
}

// set replaces the tracker's state.
func (t *Tracker) set(s *state, rev store.Revision, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.state, t.rev, t.err = s, rev, err
}

// observe applies what the surfaces yield now to s and reports whether
// anything changed.
func (s *state) observe(surfaces []Surface, now string) (changed bool) {
	for _, sf := range surfaces {
		m := s.Surfaces[sf.Agent]
		if m == nil {
			m = &mark{}
			s.Surfaces[sf.Agent] = m
			changed = true
		}
		reason := ""
		switch {
		case sf.Problem != "":
			reason = "the manifest no longer parses: " + sf.Problem
		case sf.Rows > m.HighRows:
			m.HighRows, m.HighAt = sf.Rows, now
			changed = true
		case m.HighRows >= MinRows && 2*sf.Rows < m.HighRows:
			reason = fmt.Sprintf("the manifest holds %d rows, down from %d on %s", sf.Rows, m.HighRows, m.HighAt)
		}
		if sf.Problem == "" && m.Rows != sf.Rows {
			m.Rows = sf.Rows
			changed = true
		}
		if reason != m.Reason {
			m.Reason, m.CheckedAt = reason, now
			changed = true
		}
	}
	return changed
}

// clone returns a deep copy of s.
func (s *state) clone() *state {
	c := &state{Version: s.Version, Surfaces: make(map[string]*mark, len(s.Surfaces))}
	for agent, m := range s.Surfaces {
		copied := *m
		c.Surfaces[agent] = &copied
	}
	return c
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
