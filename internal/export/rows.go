package export

import (
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Agent is a manifest's agent block.
type Agent struct {
	ID                string
	Type              string
	Instance          string // "" writes none
	SpecVersionCompat string // "" writes none
	RoleNarrative     string // "" writes none
}

// Entity is one known_entities row. Empty fields are not written, as the
// reference's to_dict drops None and empty lists.
type Entity struct {
	Name        string
	Type        string
	Aliases     []string
	Summary     string
	LastTouched string // YYYY-MM-DD
	Tags        []string
	Visibility  string // "public", "team", "private" or "" (none written)
	ValidFrom   string
	ValidTo     string
}

// Session is one recent_sessions row.
type Session struct {
	Date         string // YYYY-MM-DD; the reference writes "" rather than nothing
	Cwd          string // "" writes none
	ProjectFocus []string
	KeyActions   []string
	FilesTouched []string
	Visibility   string
}

// Policy is a manifest's visibility_policy.
type Policy struct {
	Default     string
	PrivateTags []string
	TeamTags    []string
}

// Map returns the row in the reference's key order.
func (e Entity) Map() *yaml11.Map {
	m := yaml11.NewMap(9)
	m.Set("name", e.Name)
	setText(m, "type", e.Type)
	setList(m, "aliases", e.Aliases)
	setText(m, "summary", e.Summary)
	setText(m, "last_touched", e.LastTouched)
	setList(m, "tags", e.Tags)
	setText(m, "visibility", e.Visibility)
	setText(m, "valid_from", e.ValidFrom)
	setText(m, "valid_to", e.ValidTo)
	return m
}

// Map returns the row in the reference's key order. Date is always
// written, even when empty.
func (s Session) Map() *yaml11.Map {
	m := yaml11.NewMap(6)
	m.Set("date", s.Date)
	setText(m, "cwd", s.Cwd)
	setList(m, "project_focus", s.ProjectFocus)
	setList(m, "key_actions", s.KeyActions)
	setList(m, "files_touched", s.FilesTouched)
	setText(m, "visibility", s.Visibility)
	return m
}

// Map returns the policy in the reference's key order.
func (p Policy) Map() *yaml11.Map {
	m := yaml11.NewMap(3)
	setText(m, "default", p.Default)
	setList(m, "private_tags", p.PrivateTags)
	setList(m, "team_tags", p.TeamTags)
	return m
}

func setText(m *yaml11.Map, key, v string) {
	if v != "" {
		m.Set(key, v)
	}
}

func setList(m *yaml11.Map, key string, v []string) {
	if len(v) == 0 {
		return
	}
	l := make([]any, len(v))
	for i, s := range v {
		l[i] = s
	}
	m.Set(key, l)
}

// Manifest returns the output as the manifest document the reference would
// write, keys in its order, with lastUpdated as last_updated. Empty lists
// are left out, as the reference's to_dict does.
func (o *Output) Manifest(lastUpdated string) *yaml11.Map {
	m := yaml11.NewMap(7)
	m.Set("spec_version", o.SpecVersion)
	a := yaml11.NewMap(5)
	a.Set("id", o.Agent.ID)
	a.Set("type", o.Agent.Type)
	setText(a, "instance", o.Agent.Instance)
	setText(a, "spec_version_compat", o.Agent.SpecVersionCompat)
	setText(a, "role_narrative", o.Agent.RoleNarrative)
	m.Set("agent", a)
	m.Set("last_updated", lastUpdated)
	setList(m, "capabilities", o.Capabilities)
	if len(o.Sessions) > 0 {
		rows := make([]any, len(o.Sessions))
		for i, s := range o.Sessions {
			rows[i] = s.Map()
		}
		m.Set("recent_sessions", rows)
	}
	if len(o.Entities) > 0 {
		rows := make([]any, len(o.Entities))
		for i, e := range o.Entities {
			rows[i] = e.Map()
		}
		m.Set("known_entities", rows)
	}
	if o.Policy != nil {
		m.Set("visibility_policy", o.Policy.Map())
	}
	return m
}
