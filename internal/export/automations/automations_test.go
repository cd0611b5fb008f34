package automations

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

const leakedKey = "sk_live_51HxQabcdefSECRET"

// scheduled writes automations in the claude/codex/cursor format under dir.
func scheduled(t testing.TB, dir string) {
	t.Helper()
	w := func(rel, content string) { exporttest.Write(t, filepath.Join(dir, rel), content) }
	w("nightly-triage/automation.toml", `version = 1
id = "nightly-triage"
name = "Nightly triage"
status = "active"
rrule = "FREQ=DAILY;BYHOUR=2"
kind = "cron"
cwds = ["/home/dev/repos/payments-api", "/home/dev/repos/atlas"]
`)
	w("nightly-triage/memory.md", `# Nightly triage
Lines before the first date are ignored.
2026-11-20
- Triaged 4 issues; one release blocker
- runtime: 4m
2026-11-21 run: Checked billing drift in Stripe
- dashboard needs a manual refresh
- first run
- Triaged 4 issues; one release blocker
2026-11-22
- runtime 3m
2026-11-23 — Bourdon memory coverage: rotate the password
- GitHub Action workflow run failed: CI failure on main
- deploy token is `+leakedKey+`
- see https://ci.example.com/runs/42 for the log
2026-13-40
- a date that does not exist
2026-11-24x not a header, not an action either
`)
	w("weekly-digest/automation.toml", "name = \"Weekly digest\nstatus = \"PAUSED\"\n")
	w("weekly-digest/memory.md", "2026-11-18\n- Wrote the weekly digest for ILTT and Prun; café ☕ commandé\n- Long action: "+strings.Repeat("détail ", 60)+"\n")
	w("latin/automation.toml", "id = \"latin\"\nname = \"Latin-1 notes\"\nstatus = \"ACTIVE\"\n")
	w("latin/memory.md", "2026-11-19\n- Caf\xe9 run\n")
	w("no-config/memory.md", "2026-11-19\n- never read\n")
	w("README.md", "not an automation\n")
}

func copilotFixture(t testing.TB, dir string) {
	t.Helper()
	w := func(rel, content string) { exporttest.Write(t, filepath.Join(dir, rel), content) }
	w("pr-review/automation.toml", `id = "pr-review"
name = "PR review"
status = "ACTIVE"
trigger = "pull_request"
kind = "pr-review"
repos = ["getbourdon/payments-api", "getbourdon/atlas", ""]
`)
	w("pr-review/memory.md", `# PR review — Run Memory
2026-11-20 Reviewed #412
- first run
- run: flagged a missing idempotency key
- runtime 2m
2026-11-22
- Approved #415 after the ledger fix
`)
	w("issue-triage/automation.toml", "id = \"issue-triage\"\nkind = \"issue-triage\"\n")
	w("issue-triage/memory.md", "2026-11-21\n- Labelled 7 issues; api_key leak report escalated\n")
}

type fixtureCase struct {
	x       Exporter
	dir     func(home string) string
	write   func(testing.TB, string)
	secrets []string
}

func cases() []fixtureCase {
	return []fixtureCase{
		{ClaudeCode, func(h string) string { return filepath.Join(h, ".claude", "automations") }, scheduled, []string{leakedKey, "password", "ci.example.com", "never read"}},
		{Codex, func(h string) string { return filepath.Join(h, ".codex", "automations") }, scheduled, []string{leakedKey, "password", "never read"}},
		{Copilot, func(h string) string { return filepath.Join(h, ".copilot-bourdon", "automations") }, copilotFixture, []string{"api_key", "leak report"}},
		{Cursor, func(h string) string { return filepath.Join(h, ".cursor", "automations") }, scheduled, []string{leakedKey, "password", "never read"}},
	}
}

func TestExportsMatchTheGoldenManifests(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.x.Info().ID, func(t *testing.T) {
			env := exporttest.Env(t, nil)
			dir := c.dir(env.Home)
			c.write(t, dir)
			out, err := c.x.Export(context.Background(), env, export.Options{})
			if err != nil {
				t.Fatal(err)
			}
			exporttest.Golden(t, c.x.Info().ID, out, env.Home)
			manifest := string(exporttest.Manifest(t, out, env.Home))
			for _, s := range c.secrets {
				if strings.Contains(manifest, s) {
					t.Errorf("the manifest holds %q", s)
				}
			}
			if c.x.f.copilot {
				return
			}
			if !exporttest.Warned(out, "weekly-digest/automation.toml", "invalid TOML") || !exporttest.Warned(out, "latin/memory.md", "not UTF-8") ||
				!exporttest.Warned(out, "nightly-triage/memory.md", "2026-13-40: not a date") {
				t.Errorf("warnings: %v", out.Warnings)
			}
			for _, w := range out.Warnings {
				if strings.HasSuffix(w.File, "automation.toml") && w.Line == 0 {
					t.Errorf("a TOML error names its line: %v", w)
				}
			}
		})
	}
}

func TestAMissingDirectoryIsNotInstalled(t *testing.T) {
	for _, c := range cases() {
		env := exporttest.Env(t, nil)
		if _, err := c.x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
			t.Errorf("%s: %v", c.x.Info().ID, err)
		}
		h := c.x.Health(context.Background(), env)
		if h.Status != export.StatusBlocked || h.Details[0].Key != "automations_dir" || h.Details[0].Value != c.dir(env.Home) {
			t.Errorf("%s health: %+v", c.x.Info().ID, h)
		}
		for _, gone := range []string{"init", "automation-memory-append", "--automations-dir"} {
			if strings.Contains(h.Fix, gone) {
				t.Errorf("%s: the fix names %q, which does not exist: %s", c.x.Info().ID, gone, h.Fix)
			}
		}
		if p := c.x.Detect(env); p.Present || p.Path != c.dir(env.Home) {
			t.Errorf("%s detect: %+v", c.x.Info().ID, p)
		}
		os.MkdirAll(c.dir(env.Home), 0o755)
		if h := c.x.Health(context.Background(), env); h.Status != export.StatusDegraded || h.Reason != "No automation.toml files found." {
			t.Errorf("%s empty: %+v", c.x.Info().ID, h)
		}
	}
}

func TestHealthCountsAutomationsAndRuns(t *testing.T) {
	env := exporttest.Env(t, nil)
	scheduled(t, filepath.Join(env.Home, ".claude", "automations"))
	h := ClaudeCode.Health(context.Background(), env)
	want := []any{filepath.Join(env.Home, ".claude", "automations"), 3, 3, 4, 2}
	for i, d := range h.Details {
		if d.Value != want[i] {
			t.Errorf("%s = %v, want %v", d.Key, d.Value, want[i])
		}
	}
	if h.Status != export.StatusOK {
		t.Errorf("%+v", h)
	}
}

func TestEnvironmentVariablesNameTheDirectory(t *testing.T) {
	for _, c := range []struct {
		x    Exporter
		vars map[string]string
		rel  string
	}{
		{ClaudeCode, map[string]string{"CLAUDE_AUTOMATIONS_DIR": "~/auto", "CLAUDE_HOME": "~/ch"}, "auto"},
		{ClaudeCode, map[string]string{"CLAUDE_HOME": "~/ch"}, "ch/automations"},
		{Codex, map[string]string{"CODEX_HOME": "~/cx"}, "cx/automations"},
		{Cursor, map[string]string{"CURSOR_DIR": "~/cd", "CURSOR_HOME": "~/chome"}, "cd/automations"},
		{Cursor, map[string]string{"CURSOR_HOME": "~/chome"}, "chome/automations"},
		{Copilot, map[string]string{"COPILOT_AUTOMATIONS_HOME": "~/ca", "COPILOT_BOURDON_HOME": "~/cb"}, "ca"},
		{Copilot, map[string]string{"COPILOT_BOURDON_HOME": "~/cb"}, "cb/automations"},
	} {
		env := exporttest.Env(t, c.vars)
		if got, want := c.x.Detect(env).Path, filepath.Join(env.Home, c.rel); got != want {
			t.Errorf("%s %v: %s, want %s", c.x.Info().ID, c.vars, got, want)
		}
	}
}

func TestASecondExportReadsOnlyWhatChanged(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".claude", "automations")
	scheduled(t, dir)
	ctx := context.Background()
	c := export.NewCache()
	first, err := ClaudeCode.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := c.Marshal()
	c = export.LoadCache(saved)
	second, err := ClaudeCode.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if hits, reads := c.Stats(); hits != 3 || reads != 0 {
		t.Errorf("unchanged: %d hits, %d reads", hits, reads)
	}
	if a, b := exporttest.Manifest(t, first, env.Home), exporttest.Manifest(t, second, env.Home); string(a) != string(b) || len(first.Warnings) != len(second.Warnings) {
		t.Errorf("the cached export differs:\n%s\n---\n%s", a, b)
	}

	f, err := os.OpenFile(filepath.Join(dir, "weekly-digest", "memory.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "2026-11-25\n- Wrote the digest again\n")
	f.Close()
	c = export.LoadCache(saved)
	third, err := ClaudeCode.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if hits, reads := c.Stats(); hits != 2 || reads != 1 {
		t.Errorf("one memory.md changed: %d hits, %d reads", hits, reads)
	}
	if third.Sessions[0].Date != "2026-11-25" {
		t.Errorf("the new run is not first: %+v", third.Sessions[0])
	}
}

func TestSinceKeepsLaterRuns(t *testing.T) {
	env := exporttest.Env(t, nil)
	scheduled(t, filepath.Join(env.Home, ".codex", "automations"))
	out, err := Codex.Export(context.Background(), env, export.Options{Since: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range out.Sessions {
		if s.Date < "2026-11-21" {
			t.Errorf("session of %s kept", s.Date)
		}
	}
	if len(out.Sessions) != 2 {
		t.Errorf("%d sessions", len(out.Sessions))
	}
}

func TestCutTextsStayWithinTheirLimit(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".cursor", "automations")
	long := strings.Repeat("Très long nom ", 20)
	exporttest.Write(t, filepath.Join(dir, "long/automation.toml"), fmt.Sprintf("name = %q\nrrule = %q\n", long, strings.Repeat("FREQ=DAILY;", 40)))
	exporttest.Write(t, filepath.Join(dir, "long/memory.md"), "2026-11-20\n- "+strings.Repeat("word ", 100)+"\n")
	out, err := Cursor.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	title := out.Sessions[0].KeyActions[1]
	if n := utf8.RuneCountInString(title); n > len("run: ")+maxTitle || n < len("run: ")+maxTitle-5 || !strings.HasSuffix(title, "...") {
		t.Errorf("title of %d code points: %q", n, title)
	}
	if n := utf8.RuneCountInString(out.Entities[0].Summary); n > maxSummary || n < maxSummary-5 {
		t.Errorf("summary of %d code points", n)
	}
	if n := utf8.RuneCountInString(out.Sessions[0].KeyActions[2]); n != 180 {
		t.Errorf("action of %d code points", n)
	}
}

func TestALargeMemoryIsReadFromItsEnd(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".claude", "automations", "heartbeat")
	exporttest.Write(t, filepath.Join(dir, "automation.toml"), "name = \"Heartbeat\"\nstatus = \"ACTIVE\"\n")
	var b strings.Builder
	b.WriteString("2026-01-01\n- the oldest run, beyond the window\n")
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	for i := range 20_000 {
		fmt.Fprintf(&b, "%s\n- beat %d: all green on the payments dashboard\n", day.AddDate(0, 0, i/40).Format("2006-01-02"), i)
	}
	exporttest.Write(t, filepath.Join(dir, "memory.md"), b.String())
	out, err := ClaudeCode.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Sessions) != maxSessions || !exporttest.Warned(out, "", "the newest 500") {
		t.Errorf("%d sessions, warnings %v", len(out.Sessions), out.Warnings)
	}
	if last := day.AddDate(0, 0, 19_999/40).Format("2006-01-02"); out.Sessions[0].Date != last || !strings.Contains(out.Sessions[0].KeyActions[2], "beat 19960") {
		t.Errorf("newest day first, its runs in file order: %s %v", out.Sessions[0].Date, out.Sessions[0].KeyActions)
	}
	exporttest.Valid(t, exporttest.Manifest(t, out, env.Home))
	if h := ClaudeCode.Health(context.Background(), env); h.Details[3].Value.(int) >= 20_000 {
		t.Errorf("only the last %d code points are read: %v runs", maxMemory, h.Details[3].Value)
	}
}

func TestRunHeaders(t *testing.T) {
	for line, want := range map[string]bool{
		"2026-11-20":            true,
		"2026-11-20 run: x":     true,
		"2026-11-20—x":          true,
		"2026-11-20x":           false,
		"2026-11-201":           false,
		"2026-11-20é":           false,
		"2026-11-20_draft":      false,
		"- 2026-11-20 a bullet": false,
	} {
		if _, _, ok := runHeader(line); ok != want {
			t.Errorf("runHeader(%q) = %v", line, ok)
		}
	}
}

func TestAnExcludeMarkerKeepsAnAutomationOut(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".codex", "automations")
	scheduled(t, dir)
	exporttest.Write(t, filepath.Join(dir, "nightly-triage", export.ExcludeMarker), "")
	out, err := Codex.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range out.Sessions {
		if strings.Contains(s.KeyActions[0], "nightly-triage") {
			t.Errorf("an excluded automation's run: %v", s.KeyActions)
		}
	}
	if len(out.Entities) == 0 || out.Entities[0].Name != "latin" || len(out.Sessions) != 1 {
		t.Errorf("entities %v, %d sessions", out.Entities, len(out.Sessions))
	}
}

// TestTheCacheKeepsNothingOfAPrivateRow: a configuration whose status is
// a private tag is not written, and the incremental cache, which lives in
// the library, does not keep its name, status or schedule; its id still
// keeps a project of that name out, as the dropped entity did.
func TestTheCacheKeepsNothingOfAPrivateRow(t *testing.T) {
	for _, c := range cases() {
		t.Run(c.x.Info().ID, func(t *testing.T) {
			env := exporttest.Env(t, nil)
			dir := c.dir(env.Home)
			c.write(t, dir)
			exporttest.Write(t, filepath.Join(dir, "ILTT", "automation.toml"),
				"name = \"Zebra diary\"\nstatus = \"personal\"\nrrule = \"FREQ=ZEBRAWEEKLY\"\n")
			cache := export.NewCache()
			out, err := c.x.Export(context.Background(), env, export.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			exporttest.CacheLacks(t, cache, "Zebra", "ZEBRA", "personal", "PERSONAL")
			manifest := string(exporttest.Manifest(t, out, env.Home))
			if strings.Contains(manifest, "Zebra") || strings.Contains(manifest, "name: ILTT") {
				t.Errorf("the private automation shows in the manifest:\n%s", manifest)
			}
			saved, _ := cache.Marshal()
			cache = export.LoadCache(saved)
			again, err := c.x.Export(context.Background(), env, export.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			if _, reads := cache.Stats(); reads != 0 || string(exporttest.Manifest(t, again, env.Home)) != manifest {
				t.Errorf("the export from the cache differs (%d reads)", reads)
			}
		})
	}
}

// A repository name over the schema's 128 code points (found by the
// differential test, internal/export/probe/difftool) is cut, not written
// whole: the manifest would fail validation and nothing be exported.
func TestALongRepositoryNameIsCut(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".copilot-bourdon", "automations", "nightly")
	long := "dev/" + strings.Repeat("outbox-relay-", 12) + "end"
	exporttest.Write(t, filepath.Join(dir, "automation.toml"), fmt.Sprintf("id = \"nightly\"\nrepos = [%q]\n", long))
	exporttest.Write(t, filepath.Join(dir, "memory.md"), "2026-11-20\n- Checked the relay\n")
	out, err := Copilot.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Entities) != 2 {
		t.Fatalf("entities %+v", out.Entities)
	}
	repo := out.Entities[1]
	if n := utf8.RuneCountInString(repo.Name); n != maxName || !strings.HasPrefix(long, strings.TrimSuffix(repo.Name, Copilot.f.ellipsis)) {
		t.Errorf("repository entity named %q (%d code points)", repo.Name, n)
	}
	if got := out.Sessions[0].ProjectFocus; len(got) != 1 || got[0] != long {
		t.Errorf("project_focus %v: the whole name (no bound applies there)", got)
	}
	exporttest.Valid(t, exporttest.Manifest(t, out, env.Home))
}
