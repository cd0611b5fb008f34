// Package federation answers the read queries of the Bourdon L6 surface
// over a library of L5 manifests: entity lookups, recent work, project
// summaries, workstreams, notes, agent exports. It knows nothing of MCP;
// the server turns its results into tool payloads.
//
// Every query takes the caller's access level and applies
// visibility.Visible to every row it returns. Orders, dedupe rules and
// pagination follow the Python reference (see docs/compatibility.md for
// the places where this implementation deliberately differs).
package federation

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// Store runs queries against a library. It is safe for concurrent use.
type Store struct {
	lib *library.Library
	// Now returns the current time; the 14-day default window is measured
	// from it. Tests replace it.
	Now func() time.Time

	mu    sync.Mutex
	view  *view
	cache map[*l5.Manifest]*agentIndex
	// rec is the recognition index, updated with the agent indexes. It is
	// changed in place, so a query holding an older view may already see
	// newer entities there.
	rec *recognition.Index
	// drift keeps the yield watermark of every agent's manifest.
	drift *drift.Tracker
	// built numbers the views (under mu); observed is the number of the
	// last view whose surfaces drift observed (under observing).
	built     uint64
	observing sync.Mutex
	observed  uint64
}

// New returns a store over lib, keeping the drift watermarks in lib's
// directory (.bourdon/watermarks.json).
func New(lib *library.Library) *Store {
	return NewWithDocuments(lib, store.NewDirDocuments(lib.Root(), 0o644))
}

// NewWithDocuments returns a store over lib keeping the drift watermarks
// among docs, the library's documents (drift.LibraryName): a PostgreSQL
// store's, so that every replica on the database shares them.
func NewWithDocuments(lib *library.Library, docs store.Documents) *Store {
	return &Store{
		lib: lib, Now: time.Now, cache: map[*l5.Manifest]*agentIndex{}, rec: recognition.NewIndex(),
		drift: drift.Open(docs, drift.LibraryName),
	}
}

// Library returns the library the store reads.
func (s *Store) Library() *library.Library { return s.lib }

// view is the indexed form of one library snapshot.
type view struct {
	snap   *library.Snapshot
	seq    uint64        // the store's count of views when this one was built
	agents []*agentIndex // in sorted id order
	byID   map[string]*agentIndex
	names  nameIndex

	keysOnce sync.Once
	keys     []string // names' keys, sorted; see sortedKeys
}

// agentIndex holds the per-agent lookups, built once per loaded manifest
// and reused until that manifest changes.
type agentIndex struct {
	id       string
	agent    *library.Agent
	m        *l5.Manifest
	entities map[string][]int // normalised name or alias -> entity positions
	rows     []entityRow      // what name lookups read of each entity, by position
	focus    map[string][]int // normalised project_focus -> session positions
	sessions []int            // session positions, newest first (stable)
	notes    []int            // note positions, newest first (stable)
}

// current returns the view of the library as it is on disk now. Only the
// manifests that changed since the last view are indexed again. A new
// view's surfaces are then observed by the drift watermarks, outside mu
// (their document may be a database's, slower to lock and write than
// indexing is), so that other queries need not wait for it.
func (s *Store) current() *view {
	v, built := s.build()
	if built {
		s.observe(v)
	}
	return v
}

// Version numbers the store's views of the library. It changes whenever
// the library does (a manifest written, replaced, added or removed, on
// disk or in the database), and only grows, so whatever is computed from
// the store alone stays right as long as Version is unchanged.
func (s *Store) Version() uint64 {
	return s.current().seq
}

// observe records what the manifests of v yield in the drift watermarks,
// unless a newer view was observed already: views are observed in the
// order they were built.
func (s *Store) observe(v *view) {
	s.observing.Lock()
	defer s.observing.Unlock()
	if v.seq <= s.observed {
		return
	}
	s.observed = v.seq
	_ = s.drift.Observe(surfaces(v.snap)) // unreadable watermarks only mean no verdicts
}

// build returns the view of the library as it is now, and whether it is
// a new one.
func (s *Store) build() (*view, bool) {
	snap := s.lib.Snapshot()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.view != nil && s.view.snap == snap {
		return s.view, false
	}
	s.built++
	v := &view{snap: snap, seq: s.built, byID: make(map[string]*agentIndex, snap.Len())}
	next := make(map[*l5.Manifest]*agentIndex, snap.Len())
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		ai := s.cache[a.Manifest]
		if ai == nil {
			ai = buildAgentIndex(a)
			s.rec.Update(id, recognitionEntities(a.Manifest))
		} else if ai.agent != a {
			// Same manifest, new library entry (for example a Problem
			// was recorded): keep the index, point at the new entry.
			copied := *ai
			copied.agent = a
			ai = &copied
		}
		next[a.Manifest] = ai
		v.agents = append(v.agents, ai)
		v.byID[id] = ai
	}
	if s.view != nil {
		for id := range s.view.byID {
			if _, ok := v.byID[id]; !ok {
				s.rec.Remove(id)
			}
		}
	}
	v.names = updateNames(s.view, v)
	s.cache = next
	s.view = v
	return v, true
}

func buildAgentIndex(a *library.Agent) *agentIndex {
	m := a.Manifest
	ai := &agentIndex{
		id:       a.ID,
		agent:    a,
		m:        m,
		entities: make(map[string][]int, len(m.Entities)),
		rows:     make([]entityRow, len(m.Entities)),
		focus:    map[string][]int{},
	}
	for i, e := range m.Entities {
		ai.rows[i] = rowOf(&m.Entities[i])
		k := Key(e.Name)
		if k == "" {
			continue // the reference indexes neither a blank name nor its aliases
		}
		ai.entities[k] = append(ai.entities[k], i)
		for _, alias := range e.Aliases {
			if ak := Key(alias); ak != "" && ak != k {
				if pos := ai.entities[ak]; len(pos) == 0 || pos[len(pos)-1] != i {
					ai.entities[ak] = append(pos, i)
				}
			}
		}
	}
	for i, ses := range m.Sessions {
		for _, f := range ses.ProjectFocus {
			if k := Key(f); k != "" {
				if pos := ai.focus[k]; len(pos) == 0 || pos[len(pos)-1] != i {
					ai.focus[k] = append(pos, i)
				}
			}
		}
	}
	ai.sessions = newestFirst(len(m.Sessions), func(i int) string { return m.Sessions[i].Date })
	ai.notes = newestFirst(len(m.Notes), func(i int) string { return m.Notes[i].Date })
	return ai
}

// surfaces says what every manifest of a snapshot yields, for the drift
// watermarks: its rows, or why it no longer parses.
func surfaces(snap *library.Snapshot) []drift.Surface {
	out := make([]drift.Surface, 0, snap.Len())
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		m := a.Manifest
		out = append(out, drift.Surface{Agent: id, Rows: len(m.Entities) + len(m.Sessions) + len(m.Workstreams) + len(m.Notes), Problem: a.Problem})
	}
	for _, b := range snap.Broken() {
		out = append(out, drift.Surface{Agent: strings.TrimSuffix(filepath.Base(b.File), library.ManifestSuffix), Problem: b.Message})
	}
	return out
}

// Drifting returns the agents whose manifest stopped yielding what it used
// to (see package drift), among those reader may read. ok is false when
// the watermarks cannot be read.
func (s *Store) Drifting(reader Reader) ([]drift.Verdict, bool) {
	s.current()
	return s.drift.Drifting(func(agent string) bool { return reader.may(agent) })
}

// newestFirst returns 0..n-1 ordered by date text, descending, keeping the
// file order among equal dates (Python's stable reverse sort).
func newestFirst(n int, date func(int) string) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return strings.Compare(date(b), date(a)) })
	return order
}

// Key normalises a name for lookups: surrounding whitespace removed,
// lower case.
func Key(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// Reader says which agents' rows a caller may read; a nil Reader may read
// every agent.
type Reader func(agent string) bool

func (r Reader) may(agent string) bool { return r == nil || r(agent) }

// ListAgents returns the ids of the local agents reader may read, sorted.
func (s *Store) ListAgents(reader Reader) []string {
	var out []string
	for _, id := range s.current().snap.IDs() {
		if reader.may(id) {
			out = append(out, id)
		}
	}
	return nonNil(out)
}

// AgentIDs returns up to max agent ids starting with prefix (case
// ignored), among the agents reader may read, in order, and how many
// there are in all. An id keep rejects is left out (and not counted); a
// nil keep keeps every id.
func (s *Store) AgentIDs(prefix string, max int, reader Reader, keep func(id string) bool) ([]string, int) {
	var out []string
	total := 0
	for _, id := range s.current().snap.IDs() {
		if !reader.may(id) || len(id) < len(prefix) || !strings.EqualFold(id[:len(prefix)], prefix) || (keep != nil && !keep(id)) {
			continue
		}
		total++
		if len(out) < max {
			out = append(out, id)
		}
	}
	return out, total
}

// Snapshot returns the library snapshot the next query would use.
func (s *Store) Snapshot() *library.Snapshot { return s.current().snap }

// appendUnique appends v to list unless it is already there.
func appendUnique(list []string, v string) []string {
	if slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

// nonNil returns list, or an empty list in place of nil, so that JSON
// shows [] rather than null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
