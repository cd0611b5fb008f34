package federation

import (
	"slices"
	"strings"
	"unicode"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// This file gives the context assemblers (internal/recall/deeper, internal/recall/turn)
// what they read from the library. It only adds read-only views.

// AgentManifest is one agent's manifest as the current snapshot holds it.
// Manifest is shared with the store and every other reader: treat it as
// read-only, and apply visibility.Visible to each row before using it.
// A manifest is replaced, never changed in place, when its file changes,
// so its pointer identifies one version of the agent's memory and can key
// a cache.
type AgentManifest struct {
	ID       string
	Manifest *l5.Manifest
}

// Manifests returns the manifests of the agents reader may read (nil
// reads every agent), in agent id order.
func (s *Store) Manifests(reader Reader) []AgentManifest {
	v := s.current()
	out := make([]AgentManifest, 0, len(v.agents))
	for _, ai := range v.agents {
		if reader.may(ai.id) {
			out = append(out, AgentManifest{ID: ai.id, Manifest: ai.m})
		}
	}
	return out
}

// RecognitionRows returns the known_entities of the reference's
// build_recognition_manifest at level: every visible entity merged into
// one row per name (recognition.Index.Rows), in the same order, but only
// the rows of which some visible contribution keep accepts (nil keeps
// every row). keep sees the raw entity rows; it lets a caller that only
// wants rows a prompt can match skip merging the others.
//
// Only agents reader may read contribute (nil: every agent).
func (s *Store) RecognitionRows(level visibility.Level, reader Reader, keep func(*l5.Entity) bool) []recognition.Row {
	v := s.current()
	if keep == nil && reader == nil {
		return nonNil(s.rec.Rows(level))
	}
	// The merge keys with an accepted contribution, then every
	// contribution of those keys, merged by a small index of their own
	// (agents in id order and entities in file order, as the full index
	// orders them, so rows come out in the same order).
	wanted := map[string]bool{}
	for _, ai := range v.agents {
		if !reader.may(ai.id) {
			continue
		}
		for i := range ai.m.Entities {
			e := &ai.m.Entities[i]
			if visibility.Visible(e.Visibility, level) && (keep == nil || keep(e)) {
				if k := mergeKey(e.Name); k != "" {
					wanted[k] = true
				}
			}
		}
	}
	if len(wanted) == 0 {
		return []recognition.Row{}
	}
	idx := recognition.NewIndex()
	var pos []int
	for _, ai := range v.agents {
		if !reader.may(ai.id) {
			continue
		}
		// The agent's entities named by a wanted key, found through its
		// name index (keyed by Key, which trims the same whitespace but
		// for U+001C..U+001F), in file order.
		pos = pos[:0]
		for k := range wanted {
			for _, i := range ai.entities[k] {
				if mergeKey(ai.m.Entities[i].Name) == k {
					pos = append(pos, i)
				}
			}
		}
		if len(pos) == 0 {
			continue
		}
		slices.Sort(pos)
		pos = slices.Compact(pos)
		ents := make([]recognition.Entity, len(pos))
		for j, i := range pos {
			e := &ai.m.Entities[i]
			ents[j] = recognition.Entity{
				Name: e.Name, Type: e.Type, Aliases: e.Aliases, Summary: e.Summary,
				Tags: e.Tags, ValidTo: e.ValidTo, Visibility: e.Visibility,
			}
		}
		idx.Update(ai.id, ents)
	}
	return nonNil(idx.Rows(level))
}

// mergeKey is the recognition merge key, name.strip().lower() with
// Python's notion of whitespace.
func mergeKey(name string) string {
	return strings.ToLower(strings.TrimFunc(name, func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
	}))
}
