package federation

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// MaxSummarySessions bounds the sessions of a project summary. The
// reference returns the whole history, which can stall a client.
const MaxSummarySessions = 500

// DefaultSummarySessions is the number of sessions a project summary
// carries when the caller does not ask for another number.
const DefaultSummarySessions = 100

// ProjectSummary is what the federation knows about a project: the agents
// that touched it, its sessions (newest first) and its entity matches.
type ProjectSummary struct {
	Project        string        `json:"project"`
	Agents         []string      `json:"agents"`
	RecentSessions []SessionRef  `json:"recent_sessions"`
	Entities       []EntityMatch `json:"entities"`
	// TotalSessions and Truncated are set only when sessions were left
	// out to respect the limit.
	TotalSessions *int `json:"total_sessions,omitempty"`
	Truncated     bool `json:"truncated,omitempty"`
}

// CrossAgentSummary aggregates a project: entity matches for its name (and
// aliases), and every visible session whose project_focus names it (case
// and surrounding space ignored; aliases do not count for sessions, as in
// the reference). limit bounds the sessions (<= 0 means the default).
func (s *Store) CrossAgentSummary(project string, level visibility.Level, limit int) ProjectSummary {
	v := s.current()
	name := strings.TrimSpace(project)
	out := ProjectSummary{Project: name, Agents: []string{}, RecentSessions: []SessionRef{}}
	out.Entities = v.findEntity(name, level, nil)
	for _, m := range out.Entities {
		for _, a := range m.Agents {
			out.Agents = appendUnique(out.Agents, a)
		}
	}
	key := Key(name)
	type hit struct {
		ai  *agentIndex
		pos int
	}
	var hits []hit
	if key != "" {
		for _, ai := range v.agents {
			for _, pos := range ai.focus[key] {
				if visibility.Visible(ai.m.Sessions[pos].Visibility, level) {
					hits = append(hits, hit{ai, pos})
					out.Agents = appendUnique(out.Agents, ai.id)
				}
			}
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		return strings.Compare(b.ai.m.Sessions[b.pos].Date, a.ai.m.Sessions[a.pos].Date)
	})
	if limit <= 0 {
		limit = DefaultSummarySessions
	}
	limit = min(limit, MaxSummarySessions)
	if len(hits) > limit {
		total := len(hits)
		out.TotalSessions, out.Truncated = &total, true
		hits = hits[:limit]
	}
	for _, h := range hits {
		out.RecentSessions = append(out.RecentSessions, sessionRef(h.ai.id, &h.ai.m.Sessions[h.pos], false))
	}
	slices.Sort(out.Agents)
	return out
}
