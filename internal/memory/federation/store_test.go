package federation

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// row builds a manifest row from alternating keys and values.
func row(kv ...any) *yaml11.Map {
	m := yaml11.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func writeManifest(t testing.TB, dir, id string, extra ...any) {
	t.Helper()
	doc := row(append([]any{"spec_version", "0.1", "agent", row("id", id, "type", "code-assistant"), "last_updated", "2026-06-29T12:00:00+00:00"}, extra...)...)
	data, err := yaml11.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "agents", id+".l5.yaml"), string(data))
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

func openStore(t testing.TB, dir string, now time.Time) *Store {
	t.Helper()
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	s := New(lib)
	s.Now = func() time.Time { return now }
	return s
}

var june30 = time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)

func seedStore(t *testing.T) *Store {
	dir := t.TempDir()
	copySeed(t, dir)
	return openStore(t, dir, june30)
}

// copySeed copies the conformance seed library's manifests into the
// library at dir.
func copySeed(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []string{"claude-code.l5.yaml", "codex.l5.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../../testdata/conformance/fed_seed_library/agents", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "agents", f), string(data))
	}
}

func TestFindEntityVisibilityAndAliases(t *testing.T) {
	s := seedStore(t)
	got := s.FindEntity("  neurolayer ", visibility.Public, nil)
	want := []EntityMatch{{Name: "Bourdon", Agents: []string{"claude-code"}, Types: []string{"project"},
		Summaries: map[string]string{"claude-code": "Cross-agent memory federation (granted side)."}, Tags: []string{"infra"}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alias lookup (-want +got):\n%s", diff)
	}
	if got := s.FindEntity("Roadmap", visibility.Public, nil); len(got) != 0 {
		t.Errorf("team entity visible at public: %v", got)
	}
	if got := s.FindEntity("roadmap", visibility.Team, nil); len(got) != 1 || got[0].Name != "Roadmap" {
		t.Errorf("team entity at team: %v", got)
	}
	if got := s.FindEntity("Quarterly Revenue", visibility.Team, nil); len(got) != 0 {
		t.Errorf("private entity visible at team: %v", got)
	}
	if got := s.FindEntity("Quarterly Revenue", visibility.Private, nil); len(got) != 1 {
		t.Errorf("private entity at private: %v", got)
	}
	if got := s.FindEntity("", visibility.Private, nil); got == nil || len(got) != 0 {
		t.Errorf("empty name: %#v", got)
	}
	if got := s.QueryAgentMemory("codex", "SecretProj", visibility.Public, nil); len(got) != 1 {
		t.Errorf("query_agent_memory codex: %v", got)
	}
	if got := s.QueryAgentMemory("claude-code", "SecretProj", visibility.Public, nil); len(got) != 0 {
		t.Errorf("query_agent_memory for an agent that does not know the topic: %v", got)
	}
}

func TestFindEntityGroupsByExactName(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a", "known_entities", []any{row("name", "ILTT", "aliases", []any{"if_lift_then_that"}, "summary", "Project")})
	writeManifest(t, dir, "b", "known_entities", []any{row("name", "iltt", "type", "concept")})
	s := openStore(t, dir, june30)
	got := s.FindEntity("ILTT", visibility.Public, nil)
	if len(got) != 2 || got[0].Name != "ILTT" || got[1].Name != "iltt" {
		t.Errorf("want two rows ILTT (a), iltt (b); got %v", got)
	}
	byAlias := s.FindEntity("if_lift_then_that", visibility.Public, nil)
	want := []EntityMatch{{Name: "ILTT", Agents: []string{"a"}, Types: []string{}, Summaries: map[string]string{"a": "Project"}, Tags: []string{}}}
	if diff := cmp.Diff(want, byAlias); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// sessionsLibrary writes agents whose sessions are spread over many days.
func sessionsLibrary(t *testing.T, agents, perAgent int) string {
	dir := t.TempDir()
	for a := range agents {
		var sessions []any
		for i := range perAgent {
			day := june30.AddDate(0, 0, -(i*agents + a))
			sessions = append(sessions, row("date", day.Format("2006-01-02"), "cwd", fmt.Sprintf("/s%d", i), "key_actions", []any{"x"}))
		}
		writeManifest(t, dir, fmt.Sprintf("agent-%d", a), "recent_sessions", sessions)
	}
	return dir
}

func walk(t *testing.T, s *Store, q RecentWorkQuery) ([]SessionRef, []int) {
	t.Helper()
	var all []SessionRef
	var sizes []int
	for pages := 0; ; pages++ {
		if pages > 100 {
			t.Fatal("pagination does not end")
		}
		p, err := s.ListRecentWork(q)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Rows...)
		sizes = append(sizes, len(p.Rows))
		if !p.HasMore {
			if p.NextCursor != nil {
				t.Fatal("last page has a cursor")
			}
			return all, sizes
		}
		q.Cursor = p.NextCursor
	}
}

func TestListRecentWorkCursorWalk(t *testing.T) {
	s := openStore(t, sessionsLibrary(t, 1, 25), june30)
	since := "2000-01-01"
	limit := 10
	rows, sizes := walk(t, s, RecentWorkQuery{PageQuery: PageQuery{Since: &since, Limit: &limit}})
	if !slices.Equal(sizes, []int{10, 10, 5}) {
		t.Errorf("page sizes %v, want [10 10 5]", sizes)
	}
	seen := map[string]bool{}
	for i, r := range rows {
		if seen[r.Date] {
			t.Errorf("session %s twice", r.Date)
		}
		seen[r.Date] = true
		if i > 0 && r.Date > rows[i-1].Date {
			t.Errorf("not newest first at %d: %s after %s", i, r.Date, rows[i-1].Date)
		}
	}
	if len(seen) != 25 {
		t.Errorf("saw %d sessions, want 25", len(seen))
	}
}

func TestListRecentWorkDefaultWindowTravelsInTheCursor(t *testing.T) {
	s := openStore(t, sessionsLibrary(t, 2, 20), june30)
	limit := 5
	rows, _ := walk(t, s, RecentWorkQuery{PageQuery: PageQuery{Limit: &limit}})
	cutoff := june30.AddDate(0, 0, -14).Format("2006-01-02")
	if len(rows) != 15 {
		t.Errorf("default window returned %d sessions, want the 15 of the last 14 days", len(rows))
	}
	for _, r := range rows {
		if r.Date < cutoff {
			t.Errorf("session %s is older than the window start %s", r.Date, cutoff)
		}
	}
	since := "2000-01-01"
	all, _ := walk(t, s, RecentWorkQuery{PageQuery: PageQuery{Since: &since, Limit: &limit}})
	if len(all) != 40 {
		t.Errorf("explicit since returned %d, want 40", len(all))
	}
}

func TestListRecentWorkSinceGrammar(t *testing.T) {
	s := openStore(t, sessionsLibrary(t, 1, 30), june30)
	limit := 100
	count := func(since string) (int, []string) {
		p, err := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since, Limit: &limit}})
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Rows), p.Warnings
	}
	for _, since := range []string{"2026-06-20", "2026-06-20T23:59", "2026-06-20 00:00:00.5Z", "2026-06-20T10:00:00-11:00", "2026-06-20T10:00+1400"} {
		if n, w := count(since); n != 11 || len(w) != 0 {
			t.Errorf("since %q: %d sessions %v, want 11 (the calendar day is kept)", since, n, w)
		}
	}
	for _, since := range []string{"2026-02-30", "2026-06-20T25:00", "yesterday", "20260620", "2026-W25-1", "2026-06-20T10:00+2400"} {
		n, w := count(since)
		if n != 15 || len(w) != 1 || !strings.Contains(w[0], "not a date") {
			t.Errorf("since %q: %d sessions, warnings %v; want the 15 of the default window and a warning", since, n, w)
		}
	}
}

func TestListRecentWorkOrderAndFilters(t *testing.T) {
	s := seedStore(t)
	since := "2026-06-01"
	p, err := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since, Level: visibility.Team}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range p.Rows {
		got = append(got, r.Date+" "+r.Agent)
	}
	want := []string{"2026-06-08 codex", "2026-06-08 claude-code", "2026-06-07 claude-code", "2026-06-05 codex"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	unknown := "nobody"
	p, _ = s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since, Agent: unknown, Level: visibility.Private}})
	if len(p.Rows) != 0 {
		t.Errorf("unknown agent returned %d rows", len(p.Rows))
	}
	p, _ = s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since, Agent: "codex", Level: visibility.Public}, Summary: true})
	if len(p.Rows) != 1 || p.Rows[0].KeyActions != nil || p.Rows[0].FilesTouched != nil {
		t.Errorf("summary page for codex at public: %+v", p.Rows)
	}
	for _, c := range []struct{ limit, want int }{{0, 1}, {-5, 1}, {1000, 4}} {
		lim := c.limit
		p, _ := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since, Limit: &lim, Level: visibility.Team}})
		if len(p.Rows) != c.want {
			t.Errorf("limit %d: %d rows, want %d", c.limit, len(p.Rows), c.want)
		}
	}
}

func TestListRecentWorkBadCursor(t *testing.T) {
	s := seedStore(t)
	for _, c := range []string{"xyz", "eyJvZmZzZXQiOi0xfQ==", "bm90IGpzb24=", "e30="} {
		_, err := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Cursor: &c}})
		var ce *CursorError
		if !errors.As(err, &ce) || err.Error() != "invalid cursor: '"+c+"'" {
			t.Errorf("cursor %q: err = %v", c, err)
		}
	}
	// The reference's own cursors (offset 2, padded) and lenient forms read.
	for _, c := range []string{"eyJvZmZzZXQiOjJ9", "eyJvZmZzZXQiOiIyIn0=", "eyJvZmZzZXQiOjIuN30"} {
		if _, err := DecodeCursor(c); err != nil {
			t.Errorf("cursor %q: %v", c, err)
		}
	}
	if got := (Cursor{Offset: 2}).Encode(); got != "eyJvZmZzZXQiOjJ9" {
		t.Errorf("offset 2 encodes as %q, the reference writes eyJvZmZzZXQiOjJ9", got)
	}
	if got := (Cursor{Offset: 10}).Encode(); got != "eyJvZmZzZXQiOjEwfQ==" {
		t.Errorf("offset 10 encodes as %q, the reference writes eyJvZmZzZXQiOjEwfQ==", got)
	}
}

func TestCrossAgentSummary(t *testing.T) {
	s := seedStore(t)
	got := s.CrossAgentSummary(" bourdon ", visibility.Team, 0)
	if got.Project != "bourdon" || !slices.Equal(got.Agents, []string{"claude-code", "codex"}) || len(got.RecentSessions) != 1 || len(got.Entities) != 1 {
		t.Errorf("summary: %+v", got)
	}
	if got.Truncated || got.TotalSessions != nil {
		t.Errorf("untruncated summary reports truncation: %+v", got)
	}
	dir := sessionsLibrary(t, 1, 0)
	var sessions []any
	for i := range 30 {
		sessions = append(sessions, row("date", fmt.Sprintf("2026-05-%02d", i+1), "project_focus", []any{"Big"}))
	}
	writeManifest(t, dir, "busy", "recent_sessions", sessions)
	s = openStore(t, dir, june30)
	got = s.CrossAgentSummary("big", visibility.Public, 10)
	if len(got.RecentSessions) != 10 || !got.Truncated || *got.TotalSessions != 30 || got.RecentSessions[0].Date != "2026-05-30" {
		t.Errorf("truncated summary: %d sessions, truncated %v, first %v", len(got.RecentSessions), got.Truncated, got.RecentSessions[0])
	}
}

func TestWorkstreamsAndNotes(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a",
		"known_workstreams", []any{
			row("name", "Outbox", "status", "paused", "last_touched", "2026-06-01", "summary", "a view", "tags", []any{"x"}),
			row("name", "Secret plan", "status", "active", "visibility", "private"),
		},
		"notes", []any{
			row("date", "2026-06-25", "text", "first"),
			row("date", "2026-06-28", "text", "team note", "visibility", "team"),
		})
	writeManifest(t, dir, "b",
		"known_workstreams", []any{row("name", "Outbox", "last_touched", "2026-06-20", "related_entities", []any{"Ledger"})},
		"notes", []any{row("date", "2026-06-26", "text", "second")})
	s := openStore(t, dir, june30)
	page, err := s.ListWorkstreams(WorkstreamQuery{Level: visibility.Public})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Rows) != 1 {
		t.Fatalf("workstreams: %+v", page.Rows)
	}
	w := page.Rows[0]
	if w.Name != "Outbox" || !slices.Equal(w.Agents, []string{"a", "b"}) || w.Status != "active" ||
		*w.LastTouched != "2026-06-20" || w.Statuses["a"] != "paused" || w.Statuses["b"] != "active" {
		t.Errorf("merged workstream: %+v", w)
	}
	page, _ = s.ListWorkstreams(WorkstreamQuery{Level: visibility.Public, Status: "Paused"})
	if len(page.Rows) != 1 || !slices.Equal(page.Rows[0].Agents, []string{"a"}) {
		t.Errorf("status filter: %+v", page.Rows)
	}
	if _, err := s.ListWorkstreams(WorkstreamQuery{Status: "stalled"}); err == nil || !strings.Contains(err.Error(), "active, paused, done, archived") {
		t.Errorf("bad status: %v", err)
	}
	notes, err := s.ListNotes(PageQuery{Level: visibility.Public})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, n := range notes.Rows {
		texts = append(texts, n.Agent+":"+n.Text)
	}
	if !slices.Equal(texts, []string{"b:second", "a:first"}) {
		t.Errorf("notes %v", texts)
	}
}

func TestAgentManifestFiltersEveryRowList(t *testing.T) {
	s := seedStore(t)
	m, ok := s.AgentManifest("claude-code", visibility.Public)
	if !ok {
		t.Fatal("claude-code missing")
	}
	ents := m.Value("known_entities").([]any)
	sess := m.Value("recent_sessions").([]any)
	if len(ents) != 1 || len(sess) != 1 {
		t.Errorf("public manifest has %d entities, %d sessions; want 1, 1", len(ents), len(sess))
	}
	if m.Value("visibility_policy") == nil || m.Value("capabilities") == nil {
		t.Error("other keys must pass through")
	}
	if _, ok := s.AgentManifest("nobody", visibility.Public); ok {
		t.Error("unknown agent found")
	}
}

func TestExportAgents(t *testing.T) {
	s := seedStore(t)
	env := s.ExportAgents("host", visibility.Team, nil)
	if len(env.Agents) != 2 || env.Agents[0].ID != "claude-code" || *env.Agents[0].SessionCount != 2 {
		t.Fatalf("export: %+v", env.Agents)
	}
	pub := s.ExportAgents("host", visibility.Public, nil)
	if *pub.Agents[0].SessionCount != 1 {
		t.Errorf("public egress shows %d claude-code sessions, want 1", *pub.Agents[0].SessionCount)
	}
	writeFile(t, filepath.Join(s.Library().AgentsDir(), "broken.l5.yaml"), "agent: [unclosed\n")
	env = s.ExportAgents("host", visibility.Team, nil)
	last := env.Agents[len(env.Agents)-1]
	if last.ID != "broken" || last.ParseError == nil || last.Type != nil {
		t.Errorf("broken file row: %+v", last)
	}
}

func TestAgentIDsCompleteAPrefix(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"claude-code", "claude-desktop", "codex", "cursor"} {
		writeManifest(t, dir, id)
	}
	s := openStore(t, dir, june30)
	for _, tc := range []struct {
		prefix string
		max    int
		reader Reader
		keep   func(string) bool
		want   []string
		total  int
	}{
		{"CL", 10, nil, nil, []string{"claude-code", "claude-desktop"}, 2},
		{"c", 2, nil, nil, []string{"claude-code", "claude-desktop"}, 4},
		{"", 10, func(id string) bool { return id != "codex" }, nil, []string{"claude-code", "claude-desktop", "cursor"}, 3},
		{"c", 10, nil, func(id string) bool { return id != "cursor" }, []string{"claude-code", "claude-desktop", "codex"}, 3},
		{"claude-code-and-more", 10, nil, nil, nil, 0},
	} {
		got, total := s.AgentIDs(tc.prefix, tc.max, tc.reader, tc.keep)
		if !slices.Equal(got, tc.want) || total != tc.total {
			t.Errorf("AgentIDs(%q, %d) = %v, %d; want %v, %d", tc.prefix, tc.max, got, total, tc.want, tc.total)
		}
	}
}
