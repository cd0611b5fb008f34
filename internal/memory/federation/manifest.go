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
	doc := m.Document()
	out := doc.Map.Clone()
	out.Set(l5.KeyEntities, visibleRows(doc.Entities, level, func(i int) visibility.Level { return m.Entities[i].Visibility }))
	out.Set(l5.KeySessions, visibleRows(doc.Sessions, level, func(i int) visibility.Level { return m.Sessions[i].Visibility }))
	if _, ok := doc.Map.Get(l5.KeyWorkstreams); ok {
		out.Set(l5.KeyWorkstreams, visibleRows(doc.Workstreams, level, func(i int) visibility.Level { return m.Workstreams[i].Visibility }))
	}
	if _, ok := doc.Map.Get(l5.KeyNotes); ok {
		out.Set(l5.KeyNotes, visibleRows(doc.Notes, level, func(i int) visibility.Level { return m.Notes[i].Visibility }))
	}
	return out, true
}

// visibleRows returns the rows whose visibility (vis of their index) is
// visible at level.
func visibleRows(rows []*yaml11.Map, level visibility.Level, vis func(int) visibility.Level) []any {
	out := []any{}
	for i, r := range rows {
		if visibility.Visible(vis(i), level) {
			out = append(out, r)
		}
	}
	return out
}
