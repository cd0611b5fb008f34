package federation

// These tests pin the places where this server deliberately differs from
// the Python reference (docs/compatibility.md lists each one and why).

import (
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestDecisionUnknownVisibilityFailsClosed(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a", "known_entities", []any{
		row("name", "Confidential", "visibility", "confidential"),
		row("name", "Numeric", "visibility", int64(3)),
		row("name", "Unset"),
		row("name", "Shouty", "visibility", "TEAM"),
	})
	s := openStore(t, dir, june30)
	for _, c := range []struct {
		name  string
		level visibility.Level
		want  int
	}{
		{"Confidential", visibility.Team, 0}, {"Confidential", visibility.Private, 1},
		{"Numeric", visibility.Team, 0},
		{"Unset", visibility.Public, 1},
		{"Shouty", visibility.Public, 0}, {"Shouty", visibility.Team, 1},
	} {
		if got := len(s.FindEntity(c.name, c.level, nil)); got != c.want {
			t.Errorf("%s at %v: %d matches, want %d", c.name, c.level, got, c.want)
		}
	}
}

func TestDecisionScalarListsAreOneItemLists(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a",
		"known_entities", []any{row("name", "ILTT", "aliases", "If Lift", "tags", "infra")},
		"recent_sessions", []any{row("date", "2026-06-20", "project_focus", "Bourdon", "key_actions", "shipped")})
	s := openStore(t, dir, june30)
	m := s.FindEntity("if lift", visibility.Public, nil)
	if len(m) != 1 || !slices.Equal(m[0].Tags, []string{"infra"}) {
		t.Errorf("scalar alias/tags: %+v", m)
	}
	if len(s.FindEntity("i", visibility.Public, nil)) != 0 {
		t.Error("a scalar alias must not be split into characters")
	}
	since := "2026-06-01"
	p, _ := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since}})
	if len(p.Rows) != 1 || !slices.Equal(p.Rows[0].ProjectFocus, []string{"Bourdon"}) || !slices.Equal(*p.Rows[0].KeyActions, []string{"shipped"}) {
		t.Errorf("scalar session lists: %+v", p.Rows)
	}
	if got := s.CrossAgentSummary("bourdon", visibility.Public, 0); len(got.RecentSessions) != 1 {
		t.Errorf("scalar project_focus must count for the project summary: %+v", got)
	}
}

func TestDecisionDatesAreDatesHoweverWritten(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a", "recent_sessions", []any{
		row("date", yaml11.Date{Year: 2026, Month: 6, Day: 20}, "cwd", "/unquoted"),
		row("date", "2026-06-21T10:00:00", "cwd", "/datetime"),
		row("date", "2026-05-01", "cwd", "/old"),
		row("date", "", "cwd", "/blank"),
		row("cwd", "/missing"),
	})
	s := openStore(t, dir, june30)
	since := "2026-06-01"
	p, _ := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &since}})
	var cwds []string
	for _, r := range p.Rows {
		cwds = append(cwds, *r.Cwd)
	}
	if !slices.Equal(cwds, []string{"/datetime", "/unquoted"}) {
		t.Errorf("with a cutoff: %v; want the datetime and the unquoted date, not the old or undated rows", cwds)
	}
	if p.Rows[1].Date != "2026-06-20" {
		t.Errorf("an unquoted date reads %q, want 2026-06-20", p.Rows[1].Date)
	}
	// Without a cutoff (a later page with no saved window) every row shows.
	c := Cursor{}.Encode()
	p, _ = s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Cursor: &c}})
	if len(p.Rows) != 5 {
		t.Errorf("without a cutoff: %d rows, want 5", len(p.Rows))
	}
}

func TestDecisionEmptyCursorIsAFirstPage(t *testing.T) {
	s := openStore(t, sessionsLibrary(t, 1, 30), june30)
	empty := ""
	p, err := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Cursor: &empty}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rows) != 15 {
		t.Errorf("cursor \"\" returned %d rows; it must keep the 14-day window (15 rows)", len(p.Rows))
	}
}

func TestDecisionInvalidSinceOnALaterPageKeepsTheWindow(t *testing.T) {
	s := openStore(t, sessionsLibrary(t, 1, 30), june30)
	limit := 5
	first, _ := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Limit: &limit}})
	bad := "last tuesday"
	limit = 100
	rest, _ := s.ListRecentWork(RecentWorkQuery{PageQuery: PageQuery{Since: &bad, Cursor: first.NextCursor, Limit: &limit}})
	if len(rest.Rows) != 10 || len(rest.Warnings) != 1 {
		t.Errorf("later page with an invalid since: %d rows, warnings %v; want the other 10 of the window", len(rest.Rows), rest.Warnings)
	}
}

func TestDecisionMemoryFiltersWorkstreamsAndNotes(t *testing.T) {
	dir := t.TempDir()
	writeManifest(t, dir, "a",
		"known_workstreams", []any{row("name", "Open", "status", "active"), row("name", "Hidden", "status", "active", "visibility", "private")},
		"notes", []any{row("date", "2026-06-01", "text", "t", "visibility", "team"), "not a row"})
	s := openStore(t, dir, june30)
	m, _ := s.AgentManifest("a", visibility.Public)
	if ws := m.Value("known_workstreams").([]any); len(ws) != 1 {
		t.Errorf("workstreams at public: %v", ws)
	}
	if notes := m.Value("notes").([]any); len(notes) != 0 {
		t.Errorf("notes at public: %v", notes)
	}
}
