// Package l5 models the L5 agent-memory manifest: one agent's published
// entities, sessions, workstreams and notes, each row with a visibility.
//
// A Manifest is read from the YAML document an agent (or the Python
// reference's exporters) wrote. Reading is tolerant in the way the
// reference is: rows that are not mappings are skipped, fields of the wrong
// type are ignored, unknown keys are kept in the document (Document) so a
// rewrite loses nothing.
// Validate checks a document against the JSON Schema for people who want
// to know everything that is wrong with it.
package l5

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Manifest keys, as written on disk.
const (
	KeySpecVersion      = "spec_version"
	KeyAgent            = "agent"
	KeyLastUpdated      = "last_updated"
	KeyCapabilities     = "capabilities"
	KeySessions         = "recent_sessions"
	KeyEntities         = "known_entities"
	KeyWorkstreams      = "known_workstreams"
	KeyNotes            = "notes"
	KeyVisibilityPolicy = "visibility_policy"
)

// MaxAgentIDLength is the longest agent id: ids are file names, registry
// namespaces and the keys of every index.
const MaxAgentIDLength = 64

var agentIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]*$`)

// AgentIDRule states ValidAgentID's whole rule, for the error messages
// that refuse an id: "invalid agent_id 'x': " + AgentIDRule.
var AgentIDRule = "must match " + agentIDPattern.String() + " (at most " + strconv.Itoa(MaxAgentIDLength) + " characters)"

// ValidAgentID reports whether id can name an agent, and so a manifest
// file and a namespace that can be granted: lowercase letters, digits, '_'
// and '-', not starting with '_' or '-', at most MaxAgentIDLength long.
// (Go's $ matches only at the very end, where the reference's Python
// re.match also accepted one trailing newline.) It is the one rule for
// agent ids: the write path, the registry and the exporters use it.
func ValidAgentID(id string) bool {
	return len(id) <= MaxAgentIDLength && agentIDPattern.MatchString(id)
}

// MaxManifestBytes bounds the size of one manifest file: readers refuse a
// larger one.
const MaxManifestBytes = 64 << 20

// AgentTypes is the closed list of agent.type values in the L5 schema, in
// schema order.
var AgentTypes = []string{
	"code-assistant", "note-capture", "local-swarm", "customer-support",
	"research-assistant", "creative-collaborator", "project-manager", "tutor", "other",
}

// WorkstreamStatuses is the closed list of workstream statuses.
var WorkstreamStatuses = []string{"active", "paused", "done", "archived"}

// Manifest is one agent's L5 document.
//
// The typed fields are derived from the document and must be treated as
// read-only. The document itself (Document) is not kept decoded: a
// Manifest read from a file keeps the file's bytes, which hold no
// pointers for the collector to mark, and decodes them again on demand.
type Manifest struct {
	SpecVersion  string
	Agent        Agent
	LastUpdated  string
	Capabilities []string
	// CapabilityCount is the number of items of the capabilities list,
	// strings or not (as the reference counts them); a lone string is one.
	CapabilityCount  int
	Sessions         []Session
	Entities         []Entity
	Workstreams      []Workstream
	Notes            []Note
	VisibilityPolicy *VisibilityPolicy

	source []byte      // the YAML the document was decoded from, or nil
	doc    *yaml11.Map // the document, when there is no source
}

// Agent describes who published the manifest.
type Agent struct {
	ID                string
	Type              string
	Instance          string
	SpecVersionCompat string
	RoleNarrative     string
}

// VisibilityPolicy is the author's default visibility and the tags that
// imply team or private. The server reports it but, like the reference,
// does not apply it at read time: the author applies it when exporting.
type VisibilityPolicy struct {
	Default     visibility.Level
	PrivateTags []string
	TeamTags    []string
}

// Entity is a glossary entry: something the agent knows about.
type Entity struct {
	Name        string // as written; empty when the name is missing or not a string
	Type        string // str(type) when set
	Aliases     []string
	Summary     string
	LastTouched string
	ValidFrom   string
	ValidTo     string
	Tags        []string
	Visibility  visibility.Level
}

// Session is one dated working session.
type Session struct {
	Date         string // str(date), "" when missing
	Day          Day    // the calendar day of Date, when it has one
	Cwd          *string
	ProjectFocus []string
	KeyActions   []string
	FilesTouched []string
	Visibility   visibility.Level
	// OwnVisibility is the row's own visibility field, team when it has
	// none, policy and tags aside: what agent summaries count and show.
	OwnVisibility visibility.Level
}

// Workstream is an ongoing, multi-session initiative.
type Workstream struct {
	Name            string
	Status          string // "active" when missing
	Summary         string
	Started         string
	LastTouched     string
	RelatedEntities []string
	Tags            []string
	Visibility      visibility.Level
}

// Note is a free-standing dated journal entry.
type Note struct {
	Date            string
	Day             Day
	Text            string
	RelatedEntities []string
	Tags            []string
	Visibility      visibility.Level
}

// Day is a calendar day. The zero Day means "no recognisable date".
type Day struct {
	Year  int
	Month time.Month
	Dom   int
}

// IsZero reports whether d holds no date.
func (d Day) IsZero() bool { return d.Year == 0 }

// Before reports whether d is an earlier day than e.
func (d Day) Before(e Day) bool {
	if d.Year != e.Year {
		return d.Year < e.Year
	}
	if d.Month != e.Month {
		return d.Month < e.Month
	}
	return d.Dom < e.Dom
}

// String returns the day as YYYY-MM-DD.
func (d Day) String() string {
	return yaml11.Date{Year: d.Year, Month: d.Month, Day: d.Dom}.String()
}

// DayOf returns the calendar day of a session or note date: a YAML date, a
// YAML timestamp (its own calendar day), or a string that starts with a
// valid YYYY-MM-DD followed by nothing, "T" or a space.
func DayOf(v any) Day {
	switch x := v.(type) {
	case yaml11.Date:
		return Day{x.Year, x.Month, x.Day}
	case yaml11.Timestamp:
		return Day{x.Time.Year(), x.Time.Month(), x.Time.Day()}
	case string:
		d, ok := ParseDay(x)
		if !ok {
			return Day{}
		}
		return d
	}
	return Day{}
}

// ParseDay reads a leading YYYY-MM-DD from s. The rest of s must be empty
// or start with "T", "t" or a space.
func ParseDay(s string) (Day, bool) {
	if len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return Day{}, false
	}
	if len(s) > 10 && s[10] != 'T' && s[10] != 't' && s[10] != ' ' {
		return Day{}, false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || y < 1 || m < 1 || m > 12 || d < 1 {
		return Day{}, false
	}
	if d > time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return Day{}, false
	}
	return Day{y, time.Month(m), d}, true
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// FromValue builds a Manifest from a decoded document. It fails only when
// the document is not a mapping; every other oddity is tolerated the way
// the reference tolerates it. fallbackID is used when agent.id is missing
// (the reference uses the file name). The Manifest keeps doc as its
// Document.
func FromValue(doc any, fallbackID string) (*Manifest, bool) {
	m, ok := fromValue(doc, fallbackID)
	if ok {
		m.doc = doc.(*yaml11.Map)
	}
	return m, ok
}

// FromSource is FromValue for the document data holds, doc being
// yaml11.Decode(data): the Manifest keeps data instead of the decoded
// tree, and Document decodes data again when asked. data must not be
// modified afterwards.
func FromSource(data []byte, doc any, fallbackID string) (*Manifest, bool) {
	m, ok := fromValue(doc, fallbackID)
	if ok {
		m.source = data
	}
	return m, ok
}

func fromValue(doc any, fallbackID string) (*Manifest, bool) {
	raw, ok := doc.(*yaml11.Map)
	if !ok {
		return nil, false
	}
	m := &Manifest{}
	m.SpecVersion = text(raw.Value(KeySpecVersion))
	if a, ok := raw.Value(KeyAgent).(*yaml11.Map); ok {
		m.Agent = Agent{
			ID:                stringField(a, "id"),
			Type:              text(a.Value("type")),
			Instance:          text(a.Value("instance")),
			SpecVersionCompat: text(a.Value("spec_version_compat")),
			RoleNarrative:     text(a.Value("role_narrative")),
		}
	}
	if m.Agent.ID == "" {
		m.Agent.ID = fallbackID
	}
	m.LastUpdated = timeText(raw.Value(KeyLastUpdated))
	m.Capabilities = stringItems(raw.Value(KeyCapabilities))
	m.CapabilityCount = len(m.Capabilities)
	if list, ok := raw.Value(KeyCapabilities).([]any); ok {
		m.CapabilityCount = len(list)
	}
	if p, ok := raw.Value(KeyVisibilityPolicy).(*yaml11.Map); ok {
		m.VisibilityPolicy = &VisibilityPolicy{
			Default:     visibility.OfRow(p.Value("default"), visibility.Public),
			PrivateTags: stringItems(p.Value("private_tags")),
			TeamTags:    stringItems(p.Value("team_tags")),
		}
	}
	m.Sessions = rowsOf(raw.Value(KeySessions), m.VisibilityPolicy, sessionFrom)
	m.Entities = rowsOf(raw.Value(KeyEntities), m.VisibilityPolicy, entityFrom)
	m.Workstreams = rowsOf(raw.Value(KeyWorkstreams), m.VisibilityPolicy, workstreamFrom)
	m.Notes = rowsOf(raw.Value(KeyNotes), m.VisibilityPolicy, noteFrom)
	return m, true
}

// PrivateTagFamilies are tags that make a row private whatever its
// manifest says, as the reference's leak audit treats them.
var PrivateTagFamilies = []string{"credential", "family", "financial", "health", "legal", "personal", "private", "secret"}

// rowVisibility is the visibility of a row: its own (or the policy's
// default when it has none), raised to private when a tag is in the
// policy's private_tags or a private tag family, and to at least team when
// a tag is in the policy's team_tags. The reference applies the policy
// only when exporting; applying it when reading too means a row tagged
// "financial" is never served to a public or team reader by mistake.
func rowVisibility(r *yaml11.Map, p *VisibilityPolicy) visibility.Level {
	def := visibility.Public
	if p != nil {
		def = p.Default
	}
	level := visibility.OfRow(r.Value("visibility"), def)
	for _, tag := range stringItems(r.Value("tags")) {
		t := strings.ToLower(strings.TrimSpace(tag))
		switch {
		case slices.Contains(PrivateTagFamilies, t) || (p != nil && slices.ContainsFunc(p.PrivateTags, func(x string) bool { return strings.EqualFold(x, t) })):
			return visibility.Private
		case p != nil && slices.ContainsFunc(p.TeamTags, func(x string) bool { return strings.EqualFold(x, t) }):
			level = max(level, visibility.Team)
		}
	}
	return level
}

func entityFrom(r *yaml11.Map, p *VisibilityPolicy) Entity {
	return Entity{
		Name:        stringField(r, "name"),
		Type:        text(r.Value("type")),
		Aliases:     stringItems(r.Value("aliases")),
		Summary:     text(r.Value("summary")),
		LastTouched: text(r.Value("last_touched")),
		ValidFrom:   text(r.Value("valid_from")),
		ValidTo:     text(r.Value("valid_to")),
		Tags:        stringItems(r.Value("tags")),
		Visibility:  rowVisibility(r, p),
	}
}

func sessionFrom(r *yaml11.Map, p *VisibilityPolicy) Session {
	s := Session{
		Date:          text(r.Value("date")),
		Day:           DayOf(r.Value("date")),
		ProjectFocus:  textItems(r.Value("project_focus")),
		KeyActions:    textItems(r.Value("key_actions")),
		FilesTouched:  textItems(r.Value("files_touched")),
		Visibility:    rowVisibility(r, p),
		OwnVisibility: visibility.OfRow(r.Value("visibility"), visibility.Team),
	}
	if cwd := r.Value("cwd"); cwd != nil {
		c := yaml11.Str(cwd)
		s.Cwd = &c
	}
	return s
}

func workstreamFrom(r *yaml11.Map, p *VisibilityPolicy) Workstream {
	w := Workstream{
		Name:            stringField(r, "name"),
		Status:          strings.ToLower(strings.TrimSpace(text(r.Value("status")))),
		Summary:         text(r.Value("summary")),
		Started:         text(r.Value("started")),
		LastTouched:     text(r.Value("last_touched")),
		RelatedEntities: stringItems(r.Value("related_entities")),
		Tags:            stringItems(r.Value("tags")),
		Visibility:      rowVisibility(r, p),
	}
	if w.Status == "" {
		w.Status = "active"
	}
	return w
}

func noteFrom(r *yaml11.Map, p *VisibilityPolicy) Note {
	return Note{
		Date:            text(r.Value("date")),
		Day:             DayOf(r.Value("date")),
		Text:            text(r.Value("text")),
		RelatedEntities: stringItems(r.Value("related_entities")),
		Tags:            stringItems(r.Value("tags")),
		Visibility:      rowVisibility(r, p),
	}
}

// rowMaps returns the mapping items of a list of rows: the rows rowsOf
// reads, in the same order.
func rowMaps(v any) []*yaml11.Map {
	return rowsOf(v, nil, func(r *yaml11.Map, _ *VisibilityPolicy) *yaml11.Map { return r })
}

// rowsOf reads the mapping items of a list of rows with from (nil when
// there are none); other items are skipped, as the reference skips them
// at query time.
func rowsOf[T any](v any, p *VisibilityPolicy, from func(*yaml11.Map, *VisibilityPolicy) T) []T {
	list, _ := v.([]any)
	var out []T
	for _, item := range list {
		if r, ok := item.(*yaml11.Map); ok {
			out = append(out, from(r, p))
		}
	}
	return out
}

// stringField returns the field when it is a string, else "".
func stringField(m *yaml11.Map, key string) string {
	s, _ := m.Value(key).(string)
	return s
}

// text returns Python's str(v) for a truthy scalar and "" otherwise; a
// YAML date written unquoted therefore reads as "2026-06-08".
func text(v any) string {
	if !yaml11.Truthy(v) {
		return ""
	}
	switch v.(type) {
	case *yaml11.Map, []any:
		return ""
	}
	return yaml11.Str(v)
}

// timeText is text, but renders a YAML timestamp in ISO form, which is how
// it leaves the server in JSON.
func timeText(v any) string {
	if t, ok := v.(yaml11.Timestamp); ok {
		return t.ISOFormat()
	}
	return text(v)
}

// stringItems returns the string items of a list. A lone string counts as a
// one-item list (the reference would split it into characters).
func stringItems(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			if s, ok := item.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// textItems returns the scalar items of a list as text; a lone scalar counts
// as a one-item list. Nested collections and nulls are skipped.
func textItems(v any) []string {
	switch x := v.(type) {
	case nil, *yaml11.Map:
		return nil
	case []any:
		out := make([]string, 0, len(x))
		for _, item := range x {
			switch item.(type) {
			case nil, *yaml11.Map, []any:
				continue
			}
			out = append(out, yaml11.Str(item))
		}
		return out
	}
	return []string{yaml11.Str(v)}
}
