package federation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// WorkstreamMatch is one workstream name across the agents that carry it.
// Like EntityMatch, rows are grouped by exact (trimmed) name.
type WorkstreamMatch struct {
	Name   string   `json:"name"`
	Agents []string `json:"agents"`
	// Status is the status given by the agent that touched the workstream
	// last; Statuses has every agent's.
	Status          string            `json:"status"`
	Statuses        map[string]string `json:"statuses"`
	Summaries       map[string]string `json:"summaries"`
	Started         *string           `json:"started"`
	LastTouched     *string           `json:"last_touched"`
	RelatedEntities []string          `json:"related_entities"`
	Tags            []string          `json:"tags"`
}

// Workstream lists are small (the schema caps them at 200 per agent), so
// one page holds DefaultWorkstreamLimit groups unless the caller asks for
// fewer or more.
const (
	DefaultWorkstreamLimit = 200
	MaxWorkstreamLimit     = 1000
)

// WorkstreamQuery selects workstreams.
type WorkstreamQuery struct {
	Status string // "" for every status
	Agent  string // "" for every agent
	Level  visibility.Level
	Limit  *int    // nil: DefaultWorkstreamLimit; clamped to 1..MaxWorkstreamLimit
	Cursor *string // next_cursor of the previous page
	Reader Reader  // agents the caller may read; nil for all
}

// StatusError is a status filter outside the closed list.
type StatusError struct{ Status string }

func (e *StatusError) Error() string {
	return fmt.Sprintf("unsupported status %s: use one of %s", pyfmt.Quote(e.Status), strings.Join(l5.WorkstreamStatuses, ", "))
}

// ListWorkstreams returns a page of the visible workstreams, grouped by
// name across agents, most recently touched first (then by name). Only the
// rows with the requested status count toward a group. The errors are a
// StatusError and a CursorError.
func (s *Store) ListWorkstreams(q WorkstreamQuery) (Page[WorkstreamMatch], error) {
	empty := Page[WorkstreamMatch]{Rows: []WorkstreamMatch{}}
	status := Key(q.Status)
	if status != "" && !slices.Contains(l5.WorkstreamStatuses, status) {
		return empty, &StatusError{Status: q.Status}
	}
	c, err := DecodeCursor(deref(q.Cursor))
	if err != nil {
		return empty, err
	}
	limit := DefaultWorkstreamLimit
	if q.Limit != nil {
		limit = min(max(*q.Limit, 1), MaxWorkstreamLimit)
	}
	v := s.current()
	agents := v.agents
	if q.Agent != "" {
		agents = nil
		if ai, ok := v.byID[q.Agent]; ok {
			agents = []*agentIndex{ai}
		}
	}
	var out []WorkstreamMatch
	index := map[string]int{}
	for _, ai := range agents {
		if !q.Reader.may(ai.id) {
			continue
		}
		for i := range ai.m.Workstreams {
			w := &ai.m.Workstreams[i]
			name := strings.TrimSpace(w.Name)
			if name == "" || !visibility.Visible(w.Visibility, q.Level) || (status != "" && w.Status != status) {
				continue
			}
			j, ok := index[name]
			if !ok {
				j = len(out)
				index[name] = j
				out = append(out, WorkstreamMatch{Name: name, Agents: []string{}, Statuses: map[string]string{},
					Summaries: map[string]string{}, RelatedEntities: []string{}, Tags: []string{}})
			}
			m := &out[j]
			m.Agents = appendUnique(m.Agents, ai.id)
			m.Statuses[ai.id] = w.Status
			if w.Summary != "" {
				m.Summaries[ai.id] = w.Summary
			}
			if m.Status == "" || w.LastTouched > deref(m.LastTouched) {
				m.Status = w.Status
			}
			m.LastTouched = later(m.LastTouched, w.LastTouched)
			m.Started = earlier(m.Started, w.Started)
			for _, r := range w.RelatedEntities {
				m.RelatedEntities = appendUnique(m.RelatedEntities, r)
			}
			for _, t := range w.Tags {
				m.Tags = appendUnique(m.Tags, t)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b WorkstreamMatch) int {
		if c := strings.Compare(deref(b.LastTouched), deref(a.LastTouched)); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	start := min(c.Offset, len(out))
	end := min(start+limit, len(out))
	page := Page[WorkstreamMatch]{Rows: nonNil(out[start:end]), HasMore: end < len(out)}
	if page.HasMore {
		next := Cursor{Offset: end}.Encode()
		page.NextCursor = &next
	}
	return page, nil
}

func later(cur *string, s string) *string {
	if s == "" || (cur != nil && *cur >= s) {
		return cur
	}
	return &s
}

func earlier(cur *string, s string) *string {
	if s == "" || (cur != nil && *cur <= s) {
		return cur
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
