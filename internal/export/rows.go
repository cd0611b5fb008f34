package export

import (
	"github.com/getbourdon/bourdon-go/internal/yaml11"
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
