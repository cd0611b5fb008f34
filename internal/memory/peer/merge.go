package peer

import (
	"context"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// maxRows bounds the rows taken from one peer's answer.
const maxRows = 1000

// maxPeerLine bounds a peer's recognition quoted in prompt_context.
const maxPeerLine = 300

// Access is what every federated call forwards to the peers: the caller's
// access level (the peer applies it to its own rows) and include_private
// as sent. Each peer also applies its own policy to this server's token.
type Access struct {
	Level          string
	IncludePrivate bool
}

func (a Access) args(extra map[string]any) map[string]any {
	m := map[string]any{"access_level": a.Level, "include_private": a.IncludePrivate, "federation_hop": 1}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func all(a map[string]any) func(Peer) (map[string]any, bool) {
	return func(Peer) (map[string]any, bool) { return a, true }
}

// Tag names a peer's agent: peer:<peer>:<agent>. A value that already
// starts with "peer:" is kept as it is, so rows never get tagged twice.
func Tag(peer, agent string) string {
	if strings.HasPrefix(agent, "peer:") {
		return agent
	}
	return "peer:" + peer + ":" + agent
}

// ListAgents adds the peers' agent ids to the local ones: a sorted union,
// untagged, as the reference answers list_agents.
func (s *Set) ListAgents(ctx context.Context, local []string) ([]string, Report) {
	outs, rep := s.fanOut(ctx, s.opts.Timeout, "list_agents", all(map[string]any{"federation_hop": 1}))
	ids := slices.Clone(local)
	for _, o := range outs {
		ids = append(ids, strs(o.payload["agents"])...)
	}
	slices.Sort(ids)
	return slices.Compact(ids), rep
}

// FindEntity adds the peers' matches for name to the local ones.
func (s *Set) FindEntity(ctx context.Context, name string, a Access, local []federation.EntityMatch) ([]federation.EntityMatch, Report) {
	outs, rep := s.fanOut(ctx, s.opts.Timeout, "find_entity", all(a.args(map[string]any{"name": name})))
	m := newEntityMerge(local)
	for _, o := range outs {
		m.add(o.peer.Name, rows(o.payload["matches"]))
	}
	return m.out, rep
}

// CrossAgentSummary adds the peers' summaries of project to the local
// one: agents and entities merged, sessions merged newest first and cut
// to limit.
func (s *Set) CrossAgentSummary(ctx context.Context, project string, limit int, a Access, local federation.ProjectSummary) (federation.ProjectSummary, Report) {
	outs, rep := s.fanOut(ctx, s.opts.Timeout, "get_cross_agent_summary", all(a.args(map[string]any{"project": project, "limit": limit})))
	out := local
	out.Agents = slices.Clone(local.Agents)
	m := newEntityMerge(local.Entities)
	sessions := slices.Clone(local.RecentSessions)
	dropped := 0
	if local.TotalSessions != nil {
		dropped = *local.TotalSessions - len(local.RecentSessions)
	}
	for _, o := range outs {
		for _, agent := range strs(o.payload["agents"]) {
			out.Agents = append(out.Agents, Tag(o.peer.Name, agent))
		}
		m.add(o.peer.Name, rows(o.payload["entities"]))
		got := sessionRows(o.peer.Name, rows(o.payload["recent_sessions"]))
		sessions = append(sessions, got...)
		if total, ok := o.payload["total_sessions"].(float64); ok && int(total) > len(got) {
			dropped += int(total) - len(got)
		}
	}
	slices.Sort(out.Agents)
	out.Agents = slices.Compact(out.Agents)
	out.Entities = m.out
	sessions = dedupeSessions(sessions)
	slices.SortStableFunc(sessions, newestFirst)
	out.RecentSessions, out.TotalSessions, out.Truncated = sessions, nil, false
	if limit > 0 && len(sessions) > limit {
		out.RecentSessions = sessions[:limit]
	}
	if total := len(sessions) + dropped; total > len(out.RecentSessions) {
		out.TotalSessions, out.Truncated = &total, true
	}
	return out, rep
}

// Recognition adds the peers' recognition of prompt to the local result:
// their matched entities (source agents tagged) and, after the local
// fragment, one line "[peer:<name>] <recognition>" per peer that
// recognised something. The recognition string, confidence and the rest
// stay local.
func (s *Set) Recognition(ctx context.Context, prompt string, a Access, local recognition.Result) (recognition.Result, Report) {
	outs, rep := s.fanOut(ctx, s.opts.RecognitionTimeout, "prepare_recognition_context", all(a.args(map[string]any{"prompt": prompt})))
	out := local
	out.MatchedEntities = slices.Clone(local.MatchedEntities)
	index := map[string]int{}
	for i, e := range out.MatchedEntities {
		index[strings.ToLower(e.Name)] = i
	}
	var lines []recognition.Line
	for _, o := range outs {
		for _, r := range rows(o.payload["matched_entities"]) {
			name := strings.TrimSpace(str(r["name"]))
			if name == "" {
				continue
			}
			var agents []string
			for _, ag := range strs(r["source_agents"]) {
				agents = append(agents, Tag(o.peer.Name, ag))
			}
			i, seen := index[strings.ToLower(name)]
			if !seen {
				typ := str(r["type"])
				if typ == "" {
					typ = "topic"
				}
				index[strings.ToLower(name)] = len(out.MatchedEntities)
				out.MatchedEntities = append(out.MatchedEntities, recognition.MatchedEntity{Name: name, Type: typ, SourceAgents: nonNil(agents)})
				continue
			}
			e := &out.MatchedEntities[i]
			e.SourceAgents = union(slices.Clone(e.SourceAgents), agents)
		}
		if said := oneLine(str(o.payload["recognition"])); said != "" {
			lines = append(lines, recognition.Line{Text: "[peer:" + o.peer.Name + "] " + said, Kind: recognition.LinePeer, Agents: []string{"peer:" + o.peer.Name}})
		}
	}
	if len(lines) > 0 {
		text := strings.TrimRight(local.PromptContext, " \t\r\n")
		out.Fragment.Lines = slices.Clone(local.Fragment.Lines)
		for _, l := range lines {
			if text != "" {
				text += "\n"
			}
			text += l.Text
			out.Fragment.Lines = append(out.Fragment.Lines, l)
		}
		out.PromptContext, out.Fragment.Text = text, text
	}
	return out, rep
}

// entityMerge merges entity matches by lowercase name: agents, types and
// tags are unions (peer agents tagged), and the first summary of an agent
// wins.
type entityMerge struct {
	out   []federation.EntityMatch
	index map[string]int
}

func newEntityMerge(local []federation.EntityMatch) *entityMerge {
	m := &entityMerge{out: slices.Clone(local), index: map[string]int{}}
	if m.out == nil {
		m.out = []federation.EntityMatch{}
	}
	for i, e := range m.out {
		if _, seen := m.index[strings.ToLower(e.Name)]; !seen {
			m.index[strings.ToLower(e.Name)] = i
		}
	}
	return m
}

func (m *entityMerge) add(peer string, matches []map[string]any) {
	for _, r := range matches {
		name := strings.TrimSpace(str(r["name"]))
		if name == "" {
			continue
		}
		key := strings.ToLower(name)
		i, seen := m.index[key]
		if !seen {
			i = len(m.out)
			m.index[key] = i
			m.out = append(m.out, federation.EntityMatch{Name: name, Agents: []string{}, Types: []string{}, Summaries: map[string]string{}, Tags: []string{}})
		}
		e := &m.out[i]
		if seen {
			// Copy what is shared with the local store's answer before
			// changing it.
			e.Agents, e.Types, e.Tags = slices.Clone(e.Agents), slices.Clone(e.Types), slices.Clone(e.Tags)
			sums := make(map[string]string, len(e.Summaries))
			for k, v := range e.Summaries {
				sums[k] = v
			}
			e.Summaries = sums
		}
		for _, a := range strs(r["agents"]) {
			e.Agents = union(e.Agents, []string{Tag(peer, a)})
		}
		e.Types = union(e.Types, strs(r["types"]))
		e.Tags = union(e.Tags, strs(r["tags"]))
		if sums, ok := r["summaries"].(map[string]any); ok {
			for a, v := range sums {
				if text, ok := v.(string); ok {
					if _, has := e.Summaries[Tag(peer, a)]; !has {
						e.Summaries[Tag(peer, a)] = text
					}
				}
			}
		}
	}
}

// sessionRows reads a peer's session rows, agents tagged.
func sessionRows(peer string, raw []map[string]any) []federation.SessionRef {
	out := make([]federation.SessionRef, 0, len(raw))
	for _, r := range raw {
		date := str(r["date"])
		agent := str(r["agent"])
		if date == "" || agent == "" {
			continue
		}
		s := federation.SessionRef{Agent: Tag(peer, agent), Date: date, ProjectFocus: nonNil(strs(r["project_focus"]))}
		if cwd, ok := r["cwd"].(string); ok {
			s.Cwd = &cwd
		}
		if v, ok := r["key_actions"]; ok && v != nil {
			ka := nonNil(strs(v))
			s.KeyActions = &ka
		}
		if v, ok := r["files_touched"]; ok && v != nil {
			ft := nonNil(strs(v))
			s.FilesTouched = &ft
		}
		out = append(out, s)
	}
	return out
}

// sessionKey identifies a session across sources: date, cwd and (tagged)
// agent, as the reference dedupes.
func sessionKey(s federation.SessionRef) [3]string {
	cwd := "\x00"
	if s.Cwd != nil {
		cwd = *s.Cwd
	}
	return [3]string{s.Date, cwd, s.Agent}
}

func dedupeSessions(in []federation.SessionRef) []federation.SessionRef {
	seen := map[[3]string]bool{}
	out := in[:0:0]
	for _, s := range in {
		if k := sessionKey(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// newestFirst orders sessions as list_recent_work does: date descending,
// then agent descending.
func newestFirst(a, b federation.SessionRef) int {
	if c := strings.Compare(b.Date, a.Date); c != 0 {
		return c
	}
	return strings.Compare(b.Agent, a.Agent)
}

// rows reads a list of JSON objects, skipping anything else, at most
// maxRows of them.
func rows(v any) []map[string]any {
	list, _ := v.([]any)
	out := make([]map[string]any, 0, min(len(list), maxRows))
	for _, x := range list {
		if m, ok := x.(map[string]any); ok && len(out) < maxRows {
			out = append(out, m)
		}
	}
	return out
}

// strs reads a list of strings, skipping anything else.
func strs(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok && len(out) < maxRows {
			out = append(out, s)
		}
	}
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func union(have, more []string) []string {
	for _, s := range more {
		if !slices.Contains(have, s) {
			have = append(have, s)
		}
	}
	return have
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// oneLine flattens a peer's text to one bounded line, so a peer cannot
// add lines of its own to the prompt context.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return clip(s, maxPeerLine)
}
