package claudecode

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// mergeEntities merges the sources' entities, in the order given
// (auto-memory, knowledge graph, brain projects), by name without case
// and surrounding space. The first occurrence keeps its name; a later one
// fills the type and the validity dates when still empty, replaces the
// summary only when strictly longer, adds its tags, and makes the
// visibility the more restrictive of the two. The result is sorted by
// name without case (stable).
func mergeEntities(sources ...[]export.Entity) []export.Entity {
	var out []export.Entity
	index := map[string]int{}
	for _, list := range sources {
		for _, e := range list {
			key := mergeKey(e.Name)
			if key == "" {
				continue
			}
			if i, ok := index[key]; ok {
				mergeInto(&out[i], e)
				continue
			}
			e.Aliases = slices.Clone(e.Aliases)
			e.Tags = slices.Clone(e.Tags) // as written, repeats included (as the reference's copy)
			index[key] = len(out)
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b export.Entity) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	return out
}

// mergeKey is the key entities are merged by: the name without case and
// surrounding space.
func mergeKey(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

func mergeInto(into *export.Entity, other export.Entity) {
	if into.Type == "" {
		into.Type = other.Type
	}
	if strings.TrimSpace(other.Summary) != "" && utf8.RuneCountInString(other.Summary) > utf8.RuneCountInString(into.Summary) {
		into.Summary = other.Summary
	}
	// The union has no repeats, not even those of the first row's own
	// tags, as in the reference.
	into.Tags = appendNew(appendNew(nil, into.Tags...), other.Tags...)
	if restrictiveness(other.Visibility) > restrictiveness(into.Visibility) {
		into.Visibility = other.Visibility
	}
	if into.ValidFrom == "" {
		into.ValidFrom = other.ValidFrom
	}
	if into.ValidTo == "" {
		into.ValidTo = other.ValidTo
	}
}

// restrictiveness ranks an own visibility: unset, public, team, private
// (a value that is not a level counts as private).
func restrictiveness(v string) int {
	if strings.TrimSpace(v) == "" {
		return 0
	}
	l, ok := visibility.Parse(v)
	if !ok {
		return 3
	}
	return 1 + int(l)
}
