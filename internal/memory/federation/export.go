package federation

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// AgentsSchema names the export envelope format.
const AgentsSchema = "bourdon.agents/v1"

// exportTextLimit is the length, in characters, of a text field of the
// export envelope after redaction (the reference's limit).
const exportTextLimit = 180

// maxRecentActivity is the number of sessions listed per agent.
const maxRecentActivity = 10

// ExportEnvelope is the bourdon.agents/v1 description of this machine's
// agents.
type ExportEnvelope struct {
	Schema        string         `json:"schema"`
	Machine       string         `json:"machine"`
	GeneratedFrom string         `json:"generated_from"`
	Agents        []AgentSummary `json:"agents"`
}

// AgentSummary describes one agent in an export. For a manifest that could
// not be read, ParseError says why and the descriptive fields are null.
type AgentSummary struct {
	ID                  string     `json:"id"`
	Type                *string    `json:"type"`
	Instance            *string    `json:"instance"`
	RoleNarrative       *string    `json:"role_narrative"`
	LastUpdated         *string    `json:"last_updated"`
	CapabilityCount     *int       `json:"capability_count"`
	SessionCount        *int       `json:"session_count"`
	FreshestSessionDate *string    `json:"freshest_session_date"`
	RecentActivity      []Activity `json:"recent_activity"`
	ParseError          *string    `json:"parse_error"`
	Source              string     `json:"source"`
	SourceKind          string     `json:"source_kind"`
}

// Activity is one session in an agent summary.
type Activity struct {
	Date         string   `json:"date"`
	ProjectFocus []string `json:"project_focus"`
	KeyActions   []string `json:"key_actions"`
	Visibility   string   `json:"visibility"`
}

// LocalNameEnv names the environment variable that overrides the name this
// machine gives itself in exports.
const LocalNameEnv = "BOURDON_LOCAL_NAME"

// LocalName returns the name this machine gives itself in exports:
// configured (the value of BOURDON_LOCAL_NAME) when it is not blank, else
// the host name.
func LocalName(configured string) string {
	if n := strings.TrimSpace(configured); n != "" {
		return n
	}
	if h, err := os.Hostname(); err == nil {
		return h
	}
	return "localhost"
}

// ExportAgents describes the local agents (never peers') for a caller
// whose sessions may be shown up to level egress: trusted callers get team,
// others public. A session without a visibility counts as team here, as in
// the reference. Only agents reader may read are listed. Text fields are
// redacted; agents are ordered by last_updated, newest first.
func (s *Store) ExportAgents(machine string, egress visibility.Level, reader Reader) ExportEnvelope {
	v := s.current()
	env := ExportEnvelope{
		Schema:        AgentsSchema,
		Machine:       machine,
		GeneratedFrom: s.lib.AgentsDir(),
		Agents:        []AgentSummary{},
	}
	for _, ai := range v.agents {
		if reader.may(ai.id) {
			env.Agents = append(env.Agents, summarize(ai.id, ai.m, ai.sessions, ai.agent.Problem, machine, egress, serverText))
		}
	}
	for _, b := range v.snap.Broken() {
		if reader != nil {
			break // unreadable files name no agent a restricted caller was granted
		}
		env.Agents = append(env.Agents, brokenSummary(b, machine))
	}
	sortByLastUpdated(env.Agents)
	return env
}

// ErrNoAgentsDir is the error of ExportAgentsDir for an agents directory
// that does not exist.
var ErrNoAgentsDir = errors.New("agent-library directory not found")

// ExportAgentsDir describes the manifests of an agents directory in the
// bourdon.agents/v1 envelope, as "bourdon agents" prints it for the tray:
// the files are read as they are on disk (no store, no cache), one entry
// per manifest file in name order, a file that cannot be read an entry
// with its parse_error; agents ordered by last_updated, newest first.
// Sessions are shown up to team (a private session is neither counted nor
// listed); text fields go through scrub (the tray uses the reference's
// native-memory battery). The error is ErrNoAgentsDir (wrapped with the
// directory) when agentsDir does not exist, or the reason it cannot be
// listed.
func ExportAgentsDir(agentsDir, machine string, scrub func(string) string) (ExportEnvelope, error) {
	env := ExportEnvelope{Schema: AgentsSchema, Machine: machine, GeneratedFrom: agentsDir, Agents: []AgentSummary{}}
	if fi, err := os.Stat(agentsDir); err != nil || !fi.IsDir() {
		if err == nil || errors.Is(err, os.ErrNotExist) {
			return env, fmt.Errorf("%w: %s", ErrNoAgentsDir, agentsDir)
		}
		return env, err
	}
	files, err := library.ListManifests(agentsDir)
	if err != nil {
		return env, err
	}
	for _, f := range files {
		a, warnings := library.LoadManifest(f.Path)
		if a == nil {
			env.Agents = append(env.Agents, brokenSummary(warnings[0], machine))
			continue
		}
		env.Agents = append(env.Agents, trayEntry(a, machine, scrub))
	}
	sortByLastUpdated(env.Agents)
	return env, nil
}

// ExportAgentsSnapshot is ExportAgentsDir over a library's snapshot, for
// a library with no directory to read (a PostgreSQL store): the same
// entries, GeneratedFrom set to from; the manifests it refuses come after
// the others of the same last_updated, in name order.
func ExportAgentsSnapshot(snap *library.Snapshot, from, machine string, scrub func(string) string) ExportEnvelope {
	env := ExportEnvelope{Schema: AgentsSchema, Machine: machine, GeneratedFrom: from, Agents: []AgentSummary{}}
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		env.Agents = append(env.Agents, trayEntry(a, machine, scrub))
	}
	for _, b := range snap.Broken() {
		env.Agents = append(env.Agents, brokenSummary(b, machine))
	}
	sortByLastUpdated(env.Agents)
	return env
}

// trayEntry is the tray's entry of a manifest: sessions up to team,
// newest first.
func trayEntry(a *library.Agent, machine string, scrub func(string) string) AgentSummary {
	m := a.Manifest
	order := newestFirst(len(m.Sessions), func(i int) string { return m.Sessions[i].Date })
	return summarize(a.ID, m, order, "", machine, visibility.Team, scrub)
}

// serverText is the redaction of the export_agents tool.
func serverText(s string) string { return redact.Text(s, exportTextLimit) }

// sortByLastUpdated orders agents by last_updated text, newest first,
// keeping file order among equals; entries without one come last.
func sortByLastUpdated(agents []AgentSummary) {
	slices.SortStableFunc(agents, func(a, b AgentSummary) int {
		return strings.Compare(deref(b.LastUpdated), deref(a.LastUpdated))
	})
}

// brokenSummary is the entry of a manifest file that could not be read:
// the file's stem as id, every descriptive field null.
func brokenSummary(w library.Warning, machine string) AgentSummary {
	stem := strings.TrimSuffix(filepath.Base(w.File), library.ManifestSuffix)
	msg := w.Message
	if w.Line > 0 {
		msg = fmt.Sprintf("line %d: %s", w.Line, msg)
	}
	return AgentSummary{ID: stem, RecentActivity: []Activity{}, ParseError: &msg, Source: machine, SourceKind: "local"}
}

// summarize describes one agent's manifest; order lists its sessions
// newest first, and only those visible at egress are counted and listed.
func summarize(id string, m *l5.Manifest, order []int, problem, machine string, egress visibility.Level, scrub func(string) string) AgentSummary {
	out := AgentSummary{
		ID:             scrub(id),
		Type:           scrubbedOrNil(m.Agent.Type, scrub),
		Instance:       scrubbedOrNil(m.Agent.Instance, scrub),
		RoleNarrative:  scrubbedOrNil(m.Agent.RoleNarrative, scrub),
		RecentActivity: []Activity{},
		Source:         machine,
		SourceKind:     "local",
	}
	if m.LastUpdated != "" {
		lu := m.LastUpdated
		out.LastUpdated = &lu
	}
	if problem != "" {
		out.ParseError = &problem
	}
	caps := m.CapabilityCount
	out.CapabilityCount = &caps
	count := 0
	for _, pos := range order {
		ses := &m.Sessions[pos]
		vis := ses.OwnVisibility
		if !visibility.Visible(vis, egress) {
			continue
		}
		count++
		if count == 1 {
			d := ses.Date
			out.FreshestSessionDate = &d
		}
		if len(out.RecentActivity) < maxRecentActivity {
			out.RecentActivity = append(out.RecentActivity, Activity{
				Date:         ses.Date,
				ProjectFocus: scrubAll(ses.ProjectFocus, scrub),
				KeyActions:   scrubAll(ses.KeyActions, scrub),
				Visibility:   vis.String(),
			})
		}
	}
	out.SessionCount = &count
	return out
}

func scrubbedOrNil(s string, scrub func(string) string) *string {
	if s == "" {
		return nil
	}
	r := scrub(s)
	return &r
}

func scrubAll(list []string, scrub func(string) string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = scrub(s)
	}
	return out
}
