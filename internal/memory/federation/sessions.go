package federation

import (
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// SessionRef is one session in a list, with the agent it belongs to.
// KeyActions and FilesTouched are nil in summary mode and then left out of
// the JSON.
type SessionRef struct {
	Agent        string    `json:"agent"`
	Date         string    `json:"date"`
	Cwd          *string   `json:"cwd"`
	ProjectFocus []string  `json:"project_focus"`
	KeyActions   *[]string `json:"key_actions,omitempty"`
	FilesTouched *[]string `json:"files_touched,omitempty"`
}

func sessionRef(agent string, s *l5.Session, summary bool) SessionRef {
	r := SessionRef{Agent: agent, Date: s.Date, Cwd: s.Cwd, ProjectFocus: nonNil(s.ProjectFocus)}
	if !summary {
		ka, ft := nonNil(s.KeyActions), nonNil(s.FilesTouched)
		r.KeyActions, r.FilesTouched = &ka, &ft
	}
	return r
}

// RecentWorkQuery selects a page of sessions.
type RecentWorkQuery struct {
	PageQuery
	// Summary leaves key_actions and files_touched out of each row.
	Summary bool
}

type sessionRows struct{}

func (sessionRows) order(ai *agentIndex) []int { return ai.sessions }
func (sessionRows) row(ai *agentIndex, pos int) (string, l5.Day, visibility.Level) {
	s := &ai.m.Sessions[pos]
	return s.Date, s.Day, s.Visibility
}

// ListRecentWork returns a page of sessions across agents (or of one
// agent), newest first; sessions of the same date are ordered by agent id,
// descending. An unknown agent has no sessions. The only error is a
// cursor that cannot be read.
func (s *Store) ListRecentWork(q RecentWorkQuery) (Page[SessionRef], error) {
	refs, next, more, w, err := s.paginate(s.current(), q.PageQuery, sessionRows{})
	if err != nil {
		return Page[SessionRef]{Rows: []SessionRef{}}, err
	}
	rows := make([]SessionRef, len(refs))
	for i, r := range refs {
		rows[i] = sessionRef(r.ai.id, &r.ai.m.Sessions[r.pos], q.Summary)
	}
	warnings, cutoff := w.info()
	return Page[SessionRef]{Rows: rows, NextCursor: next, HasMore: more, Warnings: warnings, Cutoff: cutoff}, nil
}

// NoteRef is one note in a list, with the agent it belongs to.
type NoteRef struct {
	Agent           string   `json:"agent"`
	Date            string   `json:"date"`
	Text            string   `json:"text"`
	RelatedEntities []string `json:"related_entities"`
	Tags            []string `json:"tags"`
}

type noteRows struct{}

func (noteRows) order(ai *agentIndex) []int { return ai.notes }
func (noteRows) row(ai *agentIndex, pos int) (string, l5.Day, visibility.Level) {
	n := &ai.m.Notes[pos]
	return n.Date, n.Day, n.Visibility
}

// ListNotes returns a page of notes, paginated and windowed exactly like
// ListRecentWork.
func (s *Store) ListNotes(q PageQuery) (Page[NoteRef], error) {
	refs, next, more, w, err := s.paginate(s.current(), q, noteRows{})
	if err != nil {
		return Page[NoteRef]{Rows: []NoteRef{}}, err
	}
	rows := make([]NoteRef, len(refs))
	for i, r := range refs {
		n := &r.ai.m.Notes[r.pos]
		rows[i] = NoteRef{Agent: r.ai.id, Date: n.Date, Text: n.Text, RelatedEntities: nonNil(n.RelatedEntities), Tags: nonNil(n.Tags)}
	}
	warnings, cutoff := w.info()
	return Page[NoteRef]{Rows: rows, NextCursor: next, HasMore: more, Warnings: warnings, Cutoff: cutoff}, nil
}
