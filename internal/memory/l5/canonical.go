package l5

import (
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Field orders of the reference's manifest dataclasses. Canonical writes
// known keys in this order and unknown keys after them, in their own order.
var (
	manifestOrder   = []string{KeySpecVersion, KeyAgent, KeyLastUpdated, KeyCapabilities, KeySessions, KeyEntities, KeyVisibilityPolicy, KeyWorkstreams, KeyNotes}
	agentOrder      = []string{"id", "type", "instance", "spec_version_compat", "role_narrative"}
	sessionOrder    = []string{"date", "cwd", "project_focus", "key_actions", "files_touched", "visibility"}
	entityOrder     = []string{"name", "type", "aliases", "summary", "last_touched", "tags", "visibility", "valid_from", "valid_to"}
	workstreamOrder = []string{"name", "status", "summary", "started", "last_touched", "related_entities", "tags", "visibility"}
	noteOrder       = []string{"date", "text", "related_entities", "tags", "visibility"}
	policyOrder     = []string{"default", "private_tags", "team_tags"}
)

// Canonical returns the form in which a writer should store a manifest,
// following the reference's to_dict rules: null fields and empty lists are
// dropped at every level, known keys come in the reference's field order,
// visibility values are lower case, and a visibility_policy always states
// its default (public when missing). doc is not modified.
func Canonical(doc *yaml11.Map) *yaml11.Map {
	out := ordered(doc, manifestOrder)
	if a, ok := out.Value(KeyAgent).(*yaml11.Map); ok {
		out.Set(KeyAgent, ordered(a, agentOrder))
	}
	rowLists := map[string][]string{KeySessions: sessionOrder, KeyEntities: entityOrder, KeyWorkstreams: workstreamOrder, KeyNotes: noteOrder}
	for key, order := range rowLists {
		list, ok := out.Value(key).([]any)
		if !ok {
			continue
		}
		rows := make([]any, len(list))
		for i, r := range list {
			if m, ok := r.(*yaml11.Map); ok {
				r = lowerVisibility(ordered(m, order), "visibility")
			}
			rows[i] = r
		}
		out.Set(key, rows)
	}
	if p, ok := out.Value(KeyVisibilityPolicy).(*yaml11.Map); ok {
		p = ordered(p, policyOrder)
		if _, has := p.Get("default"); !has {
			withDefault := yaml11.NewMap(p.Len() + 1)
			withDefault.Set("default", "public")
			for _, e := range p.Entries() {
				withDefault.Set(e.Key, e.Value)
			}
			p = withDefault
		}
		out.Set(KeyVisibilityPolicy, lowerVisibility(p, "default"))
	}
	return out
}

// ordered copies m with known keys first, in order, then the others;
// null values and empty lists are dropped, nested mappings and lists are
// cleaned the same way (their keys keep their order).
func ordered(m *yaml11.Map, order []string) *yaml11.Map {
	out := yaml11.NewMap(m.Len())
	add := func(k string, v any) {
		if v = clean(v); v != nil {
			out.Set(k, v)
		}
	}
	for _, k := range order {
		if v, ok := m.Get(k); ok {
			add(k, v)
		}
	}
	for _, e := range m.Entries() {
		if _, known := out.Get(e.Key); !known && !contains(order, e.Key) {
			add(e.Key, e.Value)
		}
	}
	return out
}

// clean drops nulls and empty lists inside v; it returns nil when v itself
// should be dropped. An empty mapping is kept (the reference keeps {}).
func clean(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, 0, len(x))
		for _, item := range x {
			if c := clean(item); c != nil {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case *yaml11.Map:
		return ordered(x, nil)
	}
	return v
}

func lowerVisibility(m *yaml11.Map, key string) *yaml11.Map {
	if s, ok := m.Value(key).(string); ok {
		m.Set(key, strings.ToLower(strings.TrimSpace(s)))
	}
	return m
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
