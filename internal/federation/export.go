package federation

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/redact"
	"github.com/getbourdon/bourdon-go/internal/visibility"
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

// LocalName returns the name this machine gives itself in exports:
// BOURDON_LOCAL_NAME when set, else the host name.
func LocalName() string {
	if n := strings.TrimSpace(os.Getenv("BOURDON_LOCAL_NAME")); n != "" {
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
			env.Agents = append(env.Agents, summarize(ai, machine, egress))
		}
	}
	for _, b := range v.snap.Broken() {
		if reader != nil {
			break // unreadable files name no agent a restricted caller was granted
		}
		stem := strings.TrimSuffix(filepath.Base(b.File), ".l5.yaml")
		msg := b.Message
		env.Agents = append(env.Agents, AgentSummary{ID: stem, RecentActivity: []Activity{}, ParseError: &msg, Source: machine, SourceKind: "local"})
	}
	slices.SortStableFunc(env.Agents, func(a, b AgentSummary) int {
		return strings.Compare(deref(b.LastUpdated), deref(a.LastUpdated))
	})
	return env
}

func summarize(ai *agentIndex, machine string, egress visibility.Level) AgentSummary {
	m := ai.m
	out := AgentSummary{
		ID:             redact.Text(ai.id, exportTextLimit),
		Type:           redactedOrNil(m.Agent.Type),
		Instance:       redactedOrNil(m.Agent.Instance),
		RoleNarrative:  redactedOrNil(m.Agent.RoleNarrative),
		RecentActivity: []Activity{},
		Source:         machine,
		SourceKind:     "local",
	}
	if m.LastUpdated != "" {
		lu := m.LastUpdated
		out.LastUpdated = &lu
	}
	if ai.agent.Problem != "" {
		p := ai.agent.Problem
		out.ParseError = &p
	}
	caps := len(m.Capabilities)
	out.CapabilityCount = &caps
	count := 0
	for _, pos := range ai.sessions {
		ses := &m.Sessions[pos]
		vis := visibility.OfRow(ses.Raw.Value("visibility"), visibility.Team)
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
				ProjectFocus: redactAll(ses.ProjectFocus),
				KeyActions:   redactAll(ses.KeyActions),
				Visibility:   vis.String(),
			})
		}
	}
	out.SessionCount = &count
	return out
}

func redactedOrNil(s string) *string {
	if s == "" {
		return nil
	}
	r := redact.Text(s, exportTextLimit)
	return &r
}

func redactAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = redact.Text(s, exportTextLimit)
	}
	return out
}
