package claudecode

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

const leakedKey = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"

// fixture writes a realistic Claude Code machine under env's home: two
// projects with auto-memory (and one without), a claude-brain notebook and
// a knowledge graph, with unicode, dates, a credential, broken and
// non-UTF-8 files and a large note.
func fixture(t testing.TB, env *export.Env) {
	t.Helper()
	w := func(rel, content string) { exporttest.Write(t, filepath.Join(env.Home, rel), content) }
	pay := ".claude/projects/-home-dev-repos-payments-api/memory/"
	w(pay+"MEMORY.md", "- [Refund retries](refund_retries.md)\n- [Payments](payments.md)\n")
	w(pay+"refund_retries.md", "---\nname: Refund retries\ndescription: Refunds double-post when the processor times out; fixed by idempotency keys.\ntype: project\ntags: [billing]\n---\n\nBody text, used only when there is no description.\n")
	w(pay+"payments.md", "---\nname: payments api\ntype: reference\n---\n# Payments API: the service\n\nOwns refunds, payouts and the ledger outbox.\n")
	w(pay+"user_role.md", "---\nname: Dev's role\ntype: user\ndescription: Senior engineer, prefers small PRs.\n---\n")
	w(pay+"broken.md", "---\nname: Broken note\ntags: [unclosed\n---\n# Ledger outbox — design\n\nThe outbox table is drained by a worker every second.\n")
	w(pay+"crlf.md", "---\r\nname: Windows note\r\ndescription: Written on Windows, CRLF line ends.\r\n---\r\nbody\r\n")
	w(pay+"latin1.md", "---\nname: Caf\xe9\n---\nnot UTF-8\n")
	w(pay+"big.md", "---\nname: Load test notes\ntype: reference\n---\n\nThe big run: 2 million refunds in an hour.\n\n"+strings.Repeat("filler line of a long log\n", 120_000))
	w(pay+"notes.txt", "not a memory file\n")
	atlas := ".claude/projects/-home-dev-repos-atlas/memory/"
	w(atlas+"MEMORY.md", "- [Atlas](atlas.md)\n")
	w(atlas+"atlas.md", "# Atlas — carte des tuiles ☕\n\n## Context\n\nLe cache des tuiles est limité à 200 Mo;\nl'éviction suit l'ordre LRU.\n\nSecond paragraph.\n")
	w(atlas+"refund.md", "---\nname: Refund Retries\ndescription: Retries of refunds that timed out at the processor are keyed by an idempotency key so a retry never double-posts; see the ledger outbox.\ntags: [billing, payments]\n---\n")
	w(atlas+"family.md", "---\nname: Birthday list\ntags: [family]\n---\nDates to remember.\n")
	w(atlas+"public.md", "---\nname: Open source policy\nvisibility: public\ndescription: We publish tools under Apache-2.0.\n---\n")
	if err := os.MkdirAll(filepath.Join(env.Home, ".claude/projects/-home-dev-scratch"), 0o755); err != nil {
		t.Fatal(err)
	}

	w("claude-brain/PROJECTS/PaymentsAPI/OVERVIEW.md", "---\nowner: dev\n---\n# Payments API — refunds and ledger\n\nThe payments service handles refunds, payouts and the ledger outbox for every storefront, in four currencies, with a nightly reconciliation against the processor's settlement files.\n\n## Status\n\nActive; v2 shipped in October.\n")
	w("claude-brain/PROJECTS/Legacy/OVERVIEW.md", "# Legacy billing\n\nThe old invoicing cron.\n\n## Status: Archived (2026-04-14)\n")
	w("claude-brain/PROJECTS/OldSite/OVERVIEW.md", "# Old marketing site\n\nStatic pages.\n\n## Current Status\nCancelled after the rebrand.\n")
	exporttest.Touch(t, filepath.Join(env.Home, "claude-brain/PROJECTS/OldSite/OVERVIEW.md"), time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC))
	if err := os.MkdirAll(filepath.Join(env.Home, "claude-brain/PROJECTS/Empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	w("claude-brain/LOG/2026-11-05-desktop-session2.md", "Investigated Atlas tile eviction; cache now\ncapped at 200 MB.\n")
	w("claude-brain/LOG/2026-11-05-desktop.md", "# Morning\n\nReviewed the refund PR.\n")
	w("claude-brain/LOG/2026-11-07-laptop.md", "---\nmachine: laptop\n---\nShipped payouts v2 to staging.\n")
	w("claude-brain/LOG/2026-11-01.md", "---\nvisibility: private\n---\nDoctor's appointment moved the review.\n")
	w("claude-brain/LOG/2026-02-30-laptop.md", "A day that does not exist.\n")
	w("claude-brain/LOG/README.md", "How to write logs.\n")
	w("claude-brain/CURRENT.md", "not read\n")

	w("claude-memory/memory.jsonl", strings.Join([]string{
		`{"type":"entity","name":"Stripe","entityType":"organization","observations":["Payment processor for the storefronts","Webhooks arrive at /hooks/stripe","Third observation, not in the summary"]}`,
		`{"type":"entity","name":"Payments API","entityType":"entity/project","observations":["Refund service"]}`,
		`{"type":"relation","from":"Payments API","to":"Stripe","relationType":"uses"}`,
		``,
		`{"type":"entity","name":"Prod database","entityType":"system","observations":["Primary in eu-west","API_KEY is ` + leakedKey + `"]}`,
		`{"type":"entity","name":"Alice Martin","entityType":"person","observations":["Reviews payments PRs"]}`,
		`{"type":"entity","name":"Zürich office","entityType":"location","observations":["Opened 2026-09-01 ☕",42]}`,
		`{not json`,
		"{\"type\":\"entity\",\"name\":\"Bad \xff bytes\",\"entityType\":\"x\"}",
		`{"type":"entity","name":"Odd type","entityType":5}`,
		`["a","list"]`,
		`{"type":"entity","name":"ledger","entityType":"ledger","observations":"Double-entry, one string observation"}`,
	}, "\n")+"\n")
}

func TestExportMatchesTheGoldenManifest(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	out, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	exporttest.Golden(t, ID, out, env.Home)

	manifest := string(exporttest.Manifest(t, out, env.Home))
	for _, leak := range []string{leakedKey, "Prod database", "Alice Martin", "Birthday", "Dev's role", "Doctor", "unclosed", "not read"} {
		if strings.Contains(manifest, leak) {
			t.Errorf("the manifest holds %q", leak)
		}
	}
	for _, w := range []struct {
		file, msg string
		line      int
	}{
		{"latin1.md", "not UTF-8", 2},
		{"broken.md", "malformed YAML front matter", 0},
		{"memory.jsonl", "not a JSON object", 8},
		{"memory.jsonl", "not UTF-8", 9},
		{"memory.jsonl", "entityType is not a string", 10},
		{"memory.jsonl", "not a JSON object", 11},
		{"2026-02-30-laptop.md", "not a date", 0},
	} {
		found := false
		for _, got := range out.Warnings {
			if strings.HasSuffix(got.File, w.file) && strings.Contains(got.Msg, w.msg) && (w.line == 0 || got.Line == w.line) {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning %q about %s line %d in %v", w.msg, w.file, w.line, out.Warnings)
		}
	}
	if len(out.Sources) != 4 {
		t.Errorf("sources: %v", out.Sources)
	}
}

func TestASecondExportWithNothingChangedReadsNothing(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	ctx := context.Background()
	c := export.NewCache()
	first, err := Exporter{}.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	_, reads := c.Stats()
	saved, _ := c.Marshal()

	c = export.LoadCache(saved)
	second, err := Exporter{}.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if hits, r := c.Stats(); r != 0 || hits != reads || c.Changed() {
		t.Errorf("second export: %d hits, %d reads, changed=%v; want %d hits, 0 reads", hits, r, c.Changed(), reads)
	}
	if a, b := exporttest.Manifest(t, first, env.Home), exporttest.Manifest(t, second, env.Home); string(a) != string(b) {
		t.Errorf("the cached export differs:\n%s\n---\n%s", a, b)
	}
	if len(second.Warnings) != len(first.Warnings) {
		t.Errorf("warnings are not replayed: %d then %d", len(first.Warnings), len(second.Warnings))
	}

	exporttest.Write(t, filepath.Join(env.Home, "claude-brain/LOG/2026-11-08-laptop.md"), "Paired on the ledger migration.\n")
	c = export.LoadCache(saved)
	third, err := Exporter{}.Export(ctx, env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, r := c.Stats(); r != 1 {
		t.Errorf("one new log file: %d reads, want 1", r)
	}
	if third.Sessions[0].Date != "2026-11-08" {
		t.Errorf("the new session is not first: %+v", third.Sessions[0])
	}
}

func TestNoSourceIsNotInstalled(t *testing.T) {
	env := exporttest.Env(t, nil)
	_, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if !errors.Is(err, export.ErrNotInstalled) {
		t.Fatalf("err = %v", err)
	}
	h := Exporter{}.Health(context.Background(), env)
	if h.Status != export.StatusBlocked || h.Reason != "No Claude Code memory sources found on this machine" || !strings.Contains(h.Fix, "bourdon setup") {
		t.Errorf("health: %+v", h)
	}
	if p := (Exporter{}).Detect(env); p.Present || p.Path != filepath.Join(env.Home, ".claude") {
		t.Errorf("detect: %+v", p)
	}
}

func TestHealthCountsTheSources(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	h := Exporter{}.Health(context.Background(), env)
	if h.Status != export.StatusOK || h.Reason != "" {
		t.Errorf("all three: %+v", h)
	}
	var keys []string
	for _, d := range h.Details {
		keys = append(keys, d.Key)
	}
	if !slices.Equal(keys, []string{"claude_brain", "auto_memory", "knowledge_graph", "auto_memory_projects"}) {
		t.Errorf("keys: %v", keys)
	}
	if h.Details[3].Value != 2 {
		t.Errorf("projects: %v", h.Details[3].Value)
	}
	if err := os.RemoveAll(filepath.Join(env.Home, "claude-memory")); err != nil {
		t.Fatal(err)
	}
	h = Exporter{}.Health(context.Background(), env)
	if h.Status != export.StatusDegraded || h.Reason != "2/3 Claude Code memory sources found" || h.Details[2].Value != "missing" {
		t.Errorf("two of three: %+v", h)
	}
	if !(Exporter{}).Detect(env).Present {
		t.Error("~/.claude exists")
	}
}

func TestBrainLocation(t *testing.T) {
	env := exporttest.Env(t, nil)
	other := filepath.Join(env.Home, "notes", "brain")
	exporttest.Write(t, filepath.Join(other, "LOG", "2026-10-01.md"), "From the override.\n")
	exporttest.Write(t, filepath.Join(env.Home, "claude-brain", "LOG", "2026-10-02.md"), "From the home.\n")
	vars := map[string]string{"CLAUDE_BRAIN": "~/notes/brain"}
	env.Getenv = func(k string) string { return vars[k] }
	if got := locate(env).brain; got != other {
		t.Errorf("CLAUDE_BRAIN: %q", got)
	}
	vars["CLAUDE_BRAIN"] = "~/no/such/dir"
	if got := locate(env).brain; got != filepath.Join(env.Home, "claude-brain") {
		t.Errorf("a CLAUDE_BRAIN that is not a directory falls back to ~/claude-brain: %q", got)
	}

	// ./claude-brain in the working directory is not read, only pointed at.
	env2 := exporttest.Env(t, nil)
	env2.Cwd = t.TempDir()
	exporttest.Write(t, filepath.Join(env2.Cwd, "claude-brain", "LOG", "2026-10-03.md"), "From the cwd.\n")
	if _, err := (Exporter{}).Export(context.Background(), env2, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
		t.Errorf("a cwd brain must not be read: %v", err)
	}
	if h := (Exporter{}).Health(context.Background(), env2); !strings.Contains(h.Fix, "CLAUDE_BRAIN="+filepath.Join(env2.Cwd, "claude-brain")) {
		t.Errorf("health should point at the cwd brain: %q", h.Fix)
	}
}

func TestSinceFiltersLogSessionsOnly(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	since := time.Date(2026, 11, 6, 0, 0, 0, 0, time.UTC)
	out, err := Exporter{}.Export(context.Background(), env, export.Options{Since: since})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Sessions) != 1 || out.Sessions[0].Date != "2026-11-07" {
		t.Errorf("sessions: %+v", out.Sessions)
	}
	if len(out.Entities) == 0 {
		t.Error("entities are not filtered by since")
	}
}

func TestLogSessionsAreCappedNewestFirst(t *testing.T) {
	env := exporttest.Env(t, nil)
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 130 {
		day := start.AddDate(0, 0, i).Format("2006-01-02")
		exporttest.Write(t, filepath.Join(env.Home, "claude-brain", "LOG", day+"-laptop.md"), "Day "+day+".\n")
	}
	out, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Sessions) != maxSessions || out.Sessions[0].Date != start.AddDate(0, 0, 129).Format("2006-01-02") {
		t.Errorf("%d sessions, first %s", len(out.Sessions), out.Sessions[0].Date)
	}
}

func TestMarkdownRules(t *testing.T) {
	for in, want := range map[string]string{
		"# Payments API — refunds":  "Payments API",
		"# Atlas: map UI":           "Atlas",
		"# bourdon-go":              "bourdon-go",
		"# Clyde -- AI (v0.10.0)":   "Clyde",
		"intro\n## Sub\n# Real one": "Real one",
		"#NoSpace":                  "",
	} {
		if got := title(in); got != want {
			t.Errorf("title(%q) = %q, want %q", in, got, want)
		}
	}
	if got := firstParagraph("\n\n# T\nfirst line\n## inner heading\nsecond line\n\nnext", 500); got != "first line second line" {
		t.Errorf("firstParagraph = %q", got)
	}
	if got := firstParagraph(strings.Repeat("word ", 200), 20); got != "word word word word" {
		t.Errorf("capped firstParagraph = %q", got)
	}
	for body, want := range map[string][]string{
		"## Status\n\nInactive since June":    {"active"},
		"## Status: Cancelled, archived":      {"archived", "canceled"},
		"## current status\nShipped; blocked": {"shipped", "blocked"},
		"## State\nactive":                    nil,
	} {
		if got := statusTags(body); !slices.Equal(got, want) {
			t.Errorf("statusTags(%q) = %v, want %v", body, got, want)
		}
	}
	if got := statusDay("## Status\nArchived 2026-13-01, really 2026-04-14"); got != "2026-04-14" {
		t.Errorf("statusDay = %q", got)
	}
}

func TestCredentialPatterns(t *testing.T) {
	for _, s := range []string{
		"the api_key is in vault", "API-KEY rotated", "service_role token", "stripe secret in 1password",
		"copy the .env file", "password: hunter2", "Bearer  token", "pk_test_abc", "appl_xyz", "hf_abcdefghijklmnop",
		"SSH-KEY for deploys", "keystore.jks",
	} {
		if !hasCredential(s) {
			t.Errorf("%q should match battery B", s)
		}
	}
	for _, s := range []string{"Stripe is our payment processor", "the api key docs", "environment setup", "hf_short"} {
		if hasCredential(s) {
			t.Errorf("%q should not match battery B", s)
		}
	}
	for _, typ := range []string{"person", "entity/User", " Contact ", "family_member", "family-member"} {
		if !isPrivateType(typ) {
			t.Errorf("%q is a person type", typ)
		}
	}
	if isPrivateType("personality") {
		t.Error("personality is not a person type")
	}
}

func TestMergeKeepsTheFirstNameAndTheMostRestrictiveVisibility(t *testing.T) {
	got := mergeEntities(
		[]export.Entity{{Name: "payments api", Type: "reference", Summary: "short", Tags: []string{"a"}}},
		[]export.Entity{{Name: "Payments API ", Type: "project", Summary: "a longer summary", Tags: []string{"b", "a"}, Visibility: "team"}},
		[]export.Entity{{Name: "PAYMENTS API", Summary: "same length summ", ValidTo: "2026-04-14", Visibility: "public"}, {Name: "Atlas"}},
	)
	if len(got) != 2 || got[0].Name != "Atlas" {
		t.Fatalf("merged: %+v", got)
	}
	p := got[1]
	if p.Name != "payments api" || p.Type != "reference" || p.Summary != "a longer summary" || !slices.Equal(p.Tags, []string{"a", "b"}) || p.Visibility != "team" || p.ValidTo != "2026-04-14" {
		t.Errorf("merged: %+v", p)
	}
}

func TestAnExcludeMarkerKeepsAProjectOut(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	exporttest.Write(t, filepath.Join(env.Home, ".claude/projects/-home-dev-repos-atlas/memory", export.ExcludeMarker), "")
	exporttest.Write(t, filepath.Join(env.Home, "claude-brain/PROJECTS/Legacy", export.ExcludeMarker), "")
	out, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range out.Entities {
		if e.Name == "Atlas" || e.Name == "Open source policy" || e.Name == "Legacy billing" {
			t.Errorf("%q comes from an excluded project", e.Name)
		}
	}
	if h := (Exporter{}).Health(context.Background(), env); h.Details[3].Value != 1 {
		t.Errorf("an excluded project is not counted: %v", h.Details[3].Value)
	}
}

// TestTheCacheKeepsNothingOfAPrivateRow: the incremental cache lives in
// the library, so a private row (a note about the person, a private tag,
// a credential in the graph, a private log) is kept there only as the
// digest of its name, and that still hides every entity of the name, as
// the merge would.
func TestTheCacheKeepsNothingOfAPrivateRow(t *testing.T) {
	env := exporttest.Env(t, nil)
	fixture(t, env)
	// A graph entity named like a private note: the merged entity is
	// private, so neither is written (the graph's own unit, which is not
	// private, is cached as it is).
	graph := filepath.Join(env.Home, "claude-memory/memory.jsonl")
	data, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	exporttest.Write(t, graph, string(data)+`{"type":"entity","name":"birthday list","entityType":"note","observations":["Ask about the cake"]}`+"\n")
	c := export.NewCache()
	out, err := Exporter{}.Export(context.Background(), env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := c.Marshal()
	manifest := string(exporttest.Manifest(t, out, env.Home))
	for _, private := range []string{"Prod database", "Primary in eu-west", "Alice Martin", "Reviews payments PRs",
		"Birthday", "Dates to remember", "Dev's role", "Senior engineer", "Doctor"} {
		if strings.Contains(string(saved), private) {
			t.Errorf("the cache holds %q", private)
		}
	}
	for _, private := range []string{"Prod database", "Alice Martin", "Birthday", "birthday", "cake", "Dev's role", "Doctor"} {
		if strings.Contains(manifest, private) {
			t.Errorf("the manifest holds %q", private)
		}
	}
	// From the cache, the same manifest.
	c = export.LoadCache(saved)
	again, err := Exporter{}.Export(context.Background(), env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, reads := c.Stats(); reads != 0 || string(exporttest.Manifest(t, again, env.Home)) != manifest {
		t.Errorf("the export from the cache differs (%d reads)", reads)
	}
}

// A block scalar last in the front matter has no final newline, as the
// reference reads it (found by the differential test,
// internal/export/probe/difftool): the name was written "Atlas tiles\n".
func TestABlockScalarLastInTheFrontMatterEndsWithoutNewline(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".claude/projects/-home-dev-repos-atlas/memory")
	exporttest.Write(t, filepath.Join(dir, "MEMORY.md"), "# Memory\n")
	exporttest.Write(t, filepath.Join(dir, "atlas.md"), "---\ntype: project\nname: >\n  Atlas\n  tiles\n---\n\nTile cache notes.\n")
	exporttest.Write(t, filepath.Join(dir, "ledger.md"), "---\nname: Ledger\ndescription: |\n  Double entry.\n---\n")
	out, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Entities) != 2 || out.Entities[0].Name != "Atlas tiles" || out.Entities[1].Summary != "Double entry." {
		t.Errorf("entities %+v", out.Entities)
	}
}

// A note's repeated tag is written as the note has it; the merge with a
// second row of the name removes repeats from the union, as the reference
// does (found by the differential test, internal/export/probe/difftool).
func TestRepeatedTagsGoOnlyWhenRowsMerge(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".claude/projects/-home-dev-repos-atlas/memory")
	exporttest.Write(t, filepath.Join(dir, "MEMORY.md"), "# Memory\n")
	exporttest.Write(t, filepath.Join(dir, "a.md"), "---\nname: Atlas\ntags: [billing, billing, 7]\n---\n")
	exporttest.Write(t, filepath.Join(dir, "b.md"), "---\nname: Ledger\ntags: [billing, billing]\n---\n")
	exporttest.Write(t, filepath.Join(dir, "c.md"), "---\nname: ledger\ntags: [infra, billing]\n---\n")
	out, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Entities) != 2 {
		t.Fatalf("entities %+v", out.Entities)
	}
	if got := out.Entities[0].Tags; !slices.Equal(got, []string{"billing", "billing", "7"}) {
		t.Errorf("Atlas tags %v", got)
	}
	if got := out.Entities[1].Tags; !slices.Equal(got, []string{"billing", "infra"}) {
		t.Errorf("Ledger tags %v", got)
	}
}
