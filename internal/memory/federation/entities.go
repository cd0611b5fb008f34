package federation

import (
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// EntityMatch is everything the federation knows about one entity name:
// which agents know it, the types and tags they give it, and each agent's
// summary.
type EntityMatch struct {
	Name      string            `json:"name"`
	Agents    []string          `json:"agents"`
	Types     []string          `json:"types"`
	Summaries map[string]string `json:"summaries"`
	Tags      []string          `json:"tags"`
}

// FindEntity returns the entities whose name or alias equals name, case
// and surrounding space ignored, that are visible at level. Agents are
// visited in id order and entities in file order; entities are grouped by
// their exact (trimmed) name, so "ILTT" and "iltt" are two matches, as in
// the reference.
//
// Only agents reader accepts contribute (nil accepts every agent), so a
// caller sees nothing, not even types or tags, from namespaces it may not
// read.
func (s *Store) FindEntity(name string, level visibility.Level, reader Reader) []EntityMatch {
	return s.current().findEntity(name, level, reader)
}

func (v *view) findEntity(name string, level visibility.Level, reader Reader) []EntityMatch {
	key := Key(name)
	if key == "" {
		return []EntityMatch{}
	}
	postings := v.names[key]
	out := []EntityMatch{}
	for _, h := range postings {
		if !visibility.Visible(h.ai.m.Entities[h.pos].Visibility, level) || !reader.may(h.ai.id) {
			continue
		}
		e := &h.ai.m.Entities[h.pos]
		display := h.ai.display[h.pos]
		i := 0
		for i < len(out) && out[i].Name != display {
			i++
		}
		if i == len(out) {
			out = append(out, EntityMatch{Name: display, Agents: make([]string, 0, len(postings)), Types: []string{},
				Summaries: make(map[string]string, len(postings)), Tags: []string{}})
		}
		m := &out[i]
		if n := len(m.Agents); n == 0 || m.Agents[n-1] != h.ai.id {
			// Agents are visited in order, so a repeat is always the last.
			m.Agents = append(m.Agents, h.ai.id)
		}
		if e.Type != "" {
			m.Types = appendUnique(m.Types, e.Type)
		}
		if e.Summary != "" {
			m.Summaries[h.ai.id] = e.Summary
		}
		for _, t := range e.Tags {
			m.Tags = appendUnique(m.Tags, t)
		}
	}
	return out
}

// QueryAgentMemory returns the matches of FindEntity(topic) that the given
// agent contributes to. An unknown agent has no matches.
func (s *Store) QueryAgentMemory(agent, topic string, level visibility.Level, reader Reader) []EntityMatch {
	all := s.FindEntity(topic, level, reader)
	out := all[:0]
	for _, m := range all {
		for _, a := range m.Agents {
			if a == agent {
				out = append(out, m)
				break
			}
		}
	}
	return out
}
