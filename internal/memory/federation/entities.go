package federation

import (
	"slices"
	"strings"
	"unicode/utf8"
	"unique"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
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
	var buf [64]byte
	key := appendKey(buf[:0], name)
	if len(key) == 0 {
		return []EntityMatch{}
	}
	postings := v.names[string(key)] // the compiler looks the bytes up without a copy
	out := []EntityMatch{}
	// The types and tags of out[0] are collected in types0 and tags0,
	// which start on the stack: nearly every name is one match. Those of
	// out[i] for i > 0 are in rest[i-1].
	var buf0 struct {
		types [4]unique.Handle[string]
		tags  [32]unique.Handle[string]
	}
	types0, tags0 := buf0.types[:0], buf0.tags[:0]
	var rest []matchSets
	for _, h := range postings {
		r := &h.ai.rows[h.pos]
		if !visibility.Visible(r.vis, level) || !reader.may(h.ai.id) {
			continue
		}
		i := 0
		for i < len(out) && out[i].Name != r.display {
			i++
		}
		if i == len(out) {
			out = append(out, EntityMatch{Name: r.display, Agents: make([]string, 0, len(postings)),
				Summaries: make(map[string]string, len(postings))})
			if i > 0 {
				rest = append(rest, matchSets{})
			}
		}
		m := &out[i]
		if n := len(m.Agents); n == 0 || m.Agents[n-1] != h.ai.id {
			// Agents are visited in order, so a repeat is always the last.
			m.Agents = append(m.Agents, h.ai.id)
		}
		if r.summary != "" {
			m.Summaries[h.ai.id] = r.summary
		}
		if i == 0 {
			types0, tags0 = r.addTo(types0, tags0)
		} else {
			rest[i-1].types, rest[i-1].tags = r.addTo(rest[i-1].types, rest[i-1].tags)
		}
	}
	for i := range out {
		types, tags := types0, tags0
		if i > 0 {
			types, tags = rest[i-1].types, rest[i-1].tags
		}
		out[i].Types, out[i].Tags = texts(types), texts(tags)
	}
	return out
}

// entityRow is what a name lookup reads of one entity, kept in one small
// record per entity (the Entity itself is large and holds much else), its
// type and tags as handles: equal strings have equal handles, which
// compare as one word.
type entityRow struct {
	display string                  // the name, trimmed
	summary string                  // "" when it has none
	typ     unique.Handle[string]   // the zero handle when it has no type
	tags    []unique.Handle[string] // in file order
	vis     visibility.Level
}

// rowOf returns the lookup record of e.
func rowOf(e *l5.Entity) entityRow {
	// The display name is the one canonical copy of its text: an entity
	// known to many agents is matched by comparing the display names of
	// its rows, and equal canonical strings compare by pointer.
	r := entityRow{display: unique.Make(strings.TrimSpace(e.Name)).Value(), summary: e.Summary, vis: e.Visibility}
	if e.Type != "" {
		r.typ = unique.Make(e.Type)
	}
	if len(e.Tags) > 0 {
		r.tags = make([]unique.Handle[string], len(e.Tags))
		for i, t := range e.Tags {
			r.tags[i] = unique.Make(t)
		}
	}
	return r
}

// matchSets are the distinct types and tags of one match, in the order
// first met, while findEntity collects them.
type matchSets struct{ types, tags []unique.Handle[string] }

// addTo returns types and tags with r's type and tags added.
func (r *entityRow) addTo(types, tags []unique.Handle[string]) ([]unique.Handle[string], []unique.Handle[string]) {
	if r.typ != (unique.Handle[string]{}) {
		types = appendNew(types, r.typ)
	}
	for _, t := range r.tags {
		tags = appendNew(tags, t)
	}
	return types, tags
}

// appendNew appends h to list unless list holds it.
func appendNew(list []unique.Handle[string], h unique.Handle[string]) []unique.Handle[string] {
	if slices.Contains(list, h) {
		return list
	}
	return append(list, h)
}

// texts returns the strings of handles, an empty list (not nil) when
// there are none.
func texts(handles []unique.Handle[string]) []string {
	out := make([]string, len(handles))
	for i, h := range handles {
		out[i] = h.Value()
	}
	return out
}

// appendKey appends Key(name) to dst. An ASCII name, nearly every one, is
// trimmed and lowered here as Key would, without allocating; any other
// goes through Key.
func appendKey(dst []byte, name string) []byte {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return append(dst, Key(name)...)
		}
	}
	start, end := 0, len(name)
	for start < end && asciiSpace(name[start]) {
		start++
	}
	for end > start && asciiSpace(name[end-1]) {
		end--
	}
	for i := start; i < end; i++ {
		c := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// asciiSpace reports whether c is one of the ASCII bytes unicode.IsSpace
// (and so strings.TrimSpace) takes for space.
func asciiSpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
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
