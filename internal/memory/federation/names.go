package federation

import (
	"maps"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// nameIndex maps a normalised entity name or alias to the entities that
// carry it, across the library, in agent-id order and then file order. A
// view never changes its index; a new view copies the previous one and
// recomputes only the keys of the agents that changed, so a change to one
// manifest costs in proportion to that manifest, not to the library.
type nameIndex map[string][]posting

// posting is one entity of one agent.
type posting struct {
	ai  *agentIndex
	pos int
}

// updateNames returns the name index of next, derived from prev's when
// there is one.
func updateNames(prev, next *view) nameIndex {
	if prev == nil || prev.names == nil {
		return buildNames(next.agents)
	}
	var changed []*agentIndex // agents of next whose index is new
	gone := map[string]bool{} // ids whose postings in prev must go
	for _, ai := range next.agents {
		if old, ok := prev.byID[ai.id]; !ok || old != ai {
			changed = append(changed, ai)
			gone[ai.id] = true
		}
	}
	for _, old := range prev.agents {
		if next.byID[old.id] == nil {
			gone[old.id] = true
		}
	}
	if len(gone) == 0 {
		return prev.names
	}
	if 2*len(gone) > len(next.agents) {
		return buildNames(next.agents)
	}
	touched := map[string]bool{}
	for _, old := range prev.agents {
		if gone[old.id] {
			for k := range old.entities {
				touched[k] = true
			}
		}
	}
	for _, ai := range changed {
		for k := range ai.entities {
			touched[k] = true
		}
	}
	idx := maps.Clone(prev.names)
	for k := range touched {
		var list []posting
		for _, p := range prev.names[k] {
			if !gone[p.ai.id] {
				list = append(list, p)
			}
		}
		for _, ai := range changed {
			for _, pos := range ai.entities[k] {
				list = append(list, posting{ai, pos})
			}
		}
		if len(list) == 0 {
			delete(idx, k)
			continue
		}
		slices.SortStableFunc(list, func(a, b posting) int {
			if c := strings.Compare(a.ai.id, b.ai.id); c != 0 {
				return c
			}
			return a.pos - b.pos
		})
		idx[k] = list
	}
	return idx
}

// buildNames indexes every agent; agents come in id order.
func buildNames(agents []*agentIndex) nameIndex {
	idx := nameIndex{}
	for _, ai := range agents {
		for k, positions := range ai.entities {
			for _, pos := range positions {
				idx[k] = append(idx[k], posting{ai, pos})
			}
		}
	}
	return idx
}

// sortedKeys returns the index keys in order, built once per view.
func (v *view) sortedKeys() []string {
	v.keysOnce.Do(func() {
		v.keys = make([]string, 0, len(v.names))
		for k := range v.names {
			v.keys = append(v.keys, k)
		}
		slices.Sort(v.keys)
	})
	return v.keys
}

// EntityNames returns up to max entity names visible at level whose name
// or alias starts with prefix (case and surrounding space ignored), among
// the agents reader may read, in
// order, and how many there are in all. Each name is given as its first
// visible entity writes it; a name keep rejects is left out (and not
// counted). A nil keep keeps every name.
func (s *Store) EntityNames(prefix string, level visibility.Level, max int, reader Reader, keep func(name string) bool) ([]string, int) {
	v := s.current()
	keys := v.sortedKeys()
	p := Key(prefix)
	i, _ := slices.BinarySearch(keys, p)
	var out []string
	total := 0
	for ; i < len(keys) && strings.HasPrefix(keys[i], p); i++ {
		for _, h := range v.names[keys[i]] {
			if r := &h.ai.rows[h.pos]; visibility.Visible(r.vis, level) && reader.may(h.ai.id) {
				if keep != nil && !keep(r.display) {
					break
				}
				total++
				if len(out) < max {
					out = append(out, r.display)
				}
				break
			}
		}
	}
	return out, total
}
