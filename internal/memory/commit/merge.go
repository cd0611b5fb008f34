package commit

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// kind names one of the four lists of rows a manifest holds.
type kind int

// The kinds of rows, in the order a write validates and merges them.
const (
	entityRows kind = iota
	sessionRows
	workstreamRows
	noteRows
	kindCount
)

// perKind holds one T for each kind of row, indexed by kind.
type perKind[T any] [kindCount]T

// rowKind describes one kind of row: the manifest key of its list, what
// a row must hold, how its dedupe key is formed, and which fields are
// lists that union on a collision (every other field is overwritten by a
// non-null incoming value).
type rowKind struct {
	key  string
	name string // singular, for messages
	// required reports whether a row holds the fields that requiredWhat
	// names; check, when set, refuses a row with a bad field value.
	required     func(*yaml11.Map) bool
	requiredWhat string
	check        func(*yaml11.Map) error
	// optional lists are left out of a manifest while empty, and a
	// commit's result reports their counters only when there are rows.
	optional   bool
	dedupe     func(*yaml11.Map) string
	listFields []string
	order      []string // field order for new rows
	defaults   map[string]any
}

// rowKinds describes each kind of row.
var rowKinds = perKind[rowKind]{
	entityRows: {
		key: l5.KeyEntities, name: "entity",
		required:     func(r *yaml11.Map) bool { return nonBlank(r.Value("name")) },
		requiredWhat: "name",
		dedupe:       func(r *yaml11.Map) string { return normName(r.Value("name")) },
		listFields:   []string{"tags", "aliases"},
		order:        []string{"name", "type", "aliases", "summary", "last_touched", "tags", "visibility", "valid_from", "valid_to"},
	},
	sessionRows: {
		key: l5.KeySessions, name: "session",
		required:     func(r *yaml11.Map) bool { return isString(r.Value("date")) },
		requiredWhat: "date",
		check:        func(r *yaml11.Map) error { return checkDate("session", r.Value("date")) },
		dedupe:       func(r *yaml11.Map) string { return pyStrOr(r.Value("date")) + "\x00" + pyStrOr(r.Value("cwd")) },
		listFields:   []string{"project_focus", "key_actions", "files_touched"},
		order:        []string{"date", "cwd", "project_focus", "key_actions", "files_touched", "visibility"},
	},
	workstreamRows: {
		key: l5.KeyWorkstreams, name: "workstream",
		required:     func(r *yaml11.Map) bool { return nonBlank(r.Value("name")) },
		requiredWhat: "name",
		check:        checkStatus,
		optional:     true,
		dedupe:       func(r *yaml11.Map) string { return normName(r.Value("name")) },
		listFields:   []string{"related_entities", "tags"},
		order:        []string{"name", "status", "summary", "started", "last_touched", "related_entities", "tags", "visibility"},
		defaults:     map[string]any{"status": "active"},
	},
	noteRows: {
		key: l5.KeyNotes, name: "note",
		required:     func(r *yaml11.Map) bool { return isString(r.Value("date")) && nonBlank(r.Value("text")) },
		requiredWhat: "date' and 'text",
		check:        func(r *yaml11.Map) error { return checkDate("note", r.Value("date")) },
		optional:     true,
		dedupe: func(r *yaml11.Map) string {
			return pyStrOr(r.Value("date")) + "\x00" + strings.TrimSpace(pyStrOr(r.Value("text")))
		},
		listFields: []string{"related_entities", "tags"},
		order:      []string{"date", "text", "related_entities", "tags", "visibility"},
	},
}

// kindOf returns the kind of row whose list a manifest keeps under key.
func kindOf(key string) (kind, bool) {
	for k := range kindCount {
		if rowKinds[k].key == key {
			return k, true
		}
	}
	return 0, false
}

// mergeRows merges the validated rows of a write into m, the steps a
// commit and a staged write share: each kind merged by its rules, an
// optional list left empty removed, sessions ordered newest first.
func mergeRows(m *yaml11.Map, rows perKind[[]*yaml11.Map]) batch {
	var c batch
	for k := range kindCount {
		c[k] = rowKinds[k].merge(m, rows[k])
	}
	for k := range kindCount {
		if rowKinds[k].optional && len(listOf(m, rowKinds[k].key)) == 0 {
			m.Delete(rowKinds[k].key)
		}
	}
	sortSessions(m)
	return c
}

// normName is the reference's name key: str.strip().lower() of a string.
func normName(v any) string {
	s, _ := v.(string)
	return strings.ToLower(strings.TrimSpace(s))
}

// pyStrOr is Python's str(v or "").
func pyStrOr(v any) string {
	if !yaml11.Truthy(v) {
		return ""
	}
	return yaml11.Str(v)
}

// counts of one merge.
type counts struct {
	added, updated []string // dedupe keys, for provenance
	removed        []string // an export's rows it no longer produces
}

// merge folds incoming rows into the list stored under kind.key in m,
// following the reference: a row whose key matches an existing row
// updates it (list fields unioned, other fields overwritten unless the
// incoming value is null); other rows are appended, list fields coerced to
// lists. A duplicate later in the same batch counts as an update.
func (kind rowKind) merge(m *yaml11.Map, incoming []*yaml11.Map) counts {
	var existing []any
	if list, ok := m.Value(kind.key).([]any); ok {
		existing = list
	}
	byKey := map[string]*yaml11.Map{}
	for _, r := range existing {
		if row, ok := r.(*yaml11.Map); ok {
			if k := kind.dedupe(row); k != "" || kind.key == l5.KeySessions {
				if _, dup := byKey[k]; !dup {
					byKey[k] = row
				}
			}
		}
	}
	var c counts
	for _, in := range incoming {
		k := kind.dedupe(in)
		if target, ok := byKey[k]; ok {
			for _, e := range in.Entries() {
				switch {
				case slices.Contains(kind.listFields, e.Key):
					target.Set(e.Key, union(target.Value(e.Key), e.Value))
				case e.Value != nil:
					target.Set(e.Key, e.Value)
				}
			}
			c.updated = append(c.updated, k)
			continue
		}
		row := kind.newRow(in)
		existing = append(existing, row)
		byKey[k] = row
		c.added = append(c.added, k)
	}
	if existing == nil {
		existing = []any{}
	}
	m.Set(kind.key, existing)
	return c
}

// newRow copies an incoming row with its known fields in schema order,
// list fields coerced to lists and defaults filled in.
func (kind rowKind) newRow(in *yaml11.Map) *yaml11.Map {
	row := yaml11.NewMap(in.Len() + len(kind.defaults))
	add := func(k string, v any) {
		if slices.Contains(kind.listFields, k) {
			v = coerceList(v)
		}
		row.Set(k, v)
	}
	for _, k := range kind.order {
		if v, ok := in.Get(k); ok {
			add(k, v)
		} else if d, ok := kind.defaults[k]; ok {
			row.Set(k, d)
		}
	}
	for _, e := range in.Entries() {
		if !slices.Contains(kind.order, e.Key) {
			add(e.Key, e.Value)
		}
	}
	return row
}

// coerceList is the reference's fix for scalar list fields (#134): null is
// an empty list, a list is itself, anything else a one-item list.
func coerceList(v any) []any {
	switch x := v.(type) {
	case nil:
		return []any{}
	case []any:
		return x
	}
	return []any{v}
}

// union appends to the current list each incoming item not already in it,
// keeping order; both sides are coerced to lists first.
func union(current, incoming any) []any {
	out := slices.Clone(coerceList(current))
	for _, item := range coerceList(incoming) {
		if !slices.ContainsFunc(out, func(x any) bool { return equal(x, item) }) {
			out = append(out, item)
		}
	}
	return out
}

// equal compares two values the way Python's == compares decoded JSON:
// structurally, with mapping key order ignored.
func equal(a, b any) bool {
	if sa, ok := a.(string); ok {
		sb, ok := b.(string)
		return ok && sa == sb
	}
	return bytes.Equal(canonicalJSON(a), canonicalJSON(b))
}

// sortSessions orders recent_sessions newest first by str(date or ""),
// keeping the file order of equal dates.
func sortSessions(m *yaml11.Map) {
	list, ok := m.Value(l5.KeySessions).([]any)
	if !ok {
		return
	}
	sort.SliceStable(list, func(i, j int) bool {
		return dateOf(list[i]) > dateOf(list[j])
	})
}

func dateOf(r any) string {
	if row, ok := r.(*yaml11.Map); ok {
		return pyStrOr(row.Value("date"))
	}
	return ""
}
