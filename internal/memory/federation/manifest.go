package federation

import (
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// AgentManifest returns one agent's manifest with only the rows visible at
// level: a shallow copy of the document whose known_entities,
// recent_sessions, known_workstreams and notes lists keep only visible
// mapping rows. known_entities and recent_sessions are always present, as
// in the reference; the other two only when the file has them.
func (s *Store) AgentManifest(id string, level visibility.Level) (*yaml11.Map, bool) {
	ai, ok := s.current().byID[id]
	if !ok {
		return nil, false
	}
	m := ai.m
	out := m.Raw.Clone()
	out.Set(l5.KeyEntities, visibleRows(len(m.Entities), level, func(i int) (visibility.Level, *yaml11.Map) {
		return m.Entities[i].Visibility, m.Entities[i].Raw
	}))
	out.Set(l5.KeySessions, visibleRows(len(m.Sessions), level, func(i int) (visibility.Level, *yaml11.Map) {
		return m.Sessions[i].Visibility, m.Sessions[i].Raw
	}))
	if _, ok := m.Raw.Get(l5.KeyWorkstreams); ok {
		out.Set(l5.KeyWorkstreams, visibleRows(len(m.Workstreams), level, func(i int) (visibility.Level, *yaml11.Map) {
			return m.Workstreams[i].Visibility, m.Workstreams[i].Raw
		}))
	}
	if _, ok := m.Raw.Get(l5.KeyNotes); ok {
		out.Set(l5.KeyNotes, visibleRows(len(m.Notes), level, func(i int) (visibility.Level, *yaml11.Map) {
			return m.Notes[i].Visibility, m.Notes[i].Raw
		}))
	}
	return out, true
}

func visibleRows(n int, level visibility.Level, row func(int) (visibility.Level, *yaml11.Map)) []any {
	out := []any{}
	for i := range n {
		if vis, raw := row(i); visibility.Visible(vis, level) {
			out = append(out, raw)
		}
	}
	return out
}
