package convention

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
)

const copilotFile = `---
# Copilot Bourdon Memory
entities:
  - name: Payments API
    type: project
    summary: Refunds, payouts, ledger outbox — see https://wiki.example.com/payments
    tags: [project, active]
    aliases: [payments-api]
    last_touched: 2026-11-01
  - name: Atlas
    type: project
    summary: "Carte des tuiles,\n  cache limité à 200 Mo ☕"
    tags: atlas
    visibility: public
  - name: Deploy creds
    summary: the api_key lives in vault
  - name: Home budget
    tags: [financial]
    summary: groceries and rent
  - name: "   "
  - just a string
  - name: Ledger
    valid_from: 2026-01-15
    valid_to: soon
    last_touched: 2026-11-02T10:00:00+01:00
sessions:
  - date: 2026-11-03
    cwd: /home/dev/repos/payments-api
    key_actions: [Reviewed the refund PR]
    project_focus: Payments API
  - date: 2026-11-04 10:00:00+00:00
    key_actions: Paired on Atlas eviction
    files_touched: [atlas/cache.go]
  - date: November 5
  - cwd: /tmp
  - date: '2026-11-06'
    visibility: private
    key_actions: [Picked up the dry cleaning]
---
# Copilot notes

Free text, not parsed: sessions: [ignored]
`

const cascadeFile = `---
entities:
  - name: Billing worker
    type: service
    summary: Runs a --- separated pipeline of refund jobs
    tags: [billing]
  - name: Stripe keys
    summary: the secret sauce is sk_test_abc123
  - name: Journal
    tags: [private]
    summary: my notes
  - name: Zürich office
    summary: Ouvert en septembre ☕
    aliases: Zurich
sessions:
  - date: 2026-11-05
    cwd: /home/dev/repos/billing
    key_actions:
      - Split the refund job into two stages
    files_touched: [billing/worker.go]
    project_focus: [Billing worker]
  - date: 2026-11-08T09:30:00Z
    key_actions: Reviewed the ledger outbox
---

# Cascade Bourdon Memory
`

func write(t *testing.T, dir, content string) string {
	t.Helper()
	p := filepath.Join(dir, "memory.md")
	exporttest.Write(t, p, content)
	return p
}

func TestCopilotMatchesTheGoldenManifest(t *testing.T) {
	env := exporttest.Env(t, nil)
	path := write(t, filepath.Join(env.Home, ".copilot-bourdon"), copilotFile)
	out, err := Copilot.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	exporttest.Golden(t, "copilot", out, env.Home)
	manifest := string(exporttest.Manifest(t, out, env.Home))
	for _, leak := range []string{"api_key", "vault", "Home budget", "groceries", "dry cleaning", "wiki.example.com", "ignored"} {
		if strings.Contains(manifest, leak) {
			t.Errorf("the manifest holds %q", leak)
		}
	}
	for _, w := range []string{
		"entities[4]: no name", "entities[5]: not a mapping", `entities[6]: valid_to "soon" is not YYYY-MM-DD`,
		`sessions[2]: date "November 5" is not YYYY-MM-DD`, "sessions[3]: no date",
	} {
		if !exporttest.Warned(out, path, w) {
			t.Errorf("no warning %q in %v", w, out.Warnings)
		}
	}
}

func TestCascadeMatchesTheGoldenManifest(t *testing.T) {
	env := exporttest.Env(t, nil)
	write(t, filepath.Join(env.Home, ".cascade-bourdon"), cascadeFile)
	out, err := Cascade.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	exporttest.Golden(t, "cascade", out, env.Home)
	manifest := string(exporttest.Manifest(t, out, env.Home))
	for _, leak := range []string{"sk_test_", "sauce", "my notes", "Journal"} {
		if strings.Contains(manifest, leak) {
			t.Errorf("the manifest holds %q", leak)
		}
	}
	if !strings.Contains(manifest, "Runs a --- separated pipeline") {
		t.Error("a --- inside a value must not end the front matter")
	}
	if out.Policy != nil || out.Agent.Instance != "" || out.Agent.SpecVersionCompat != "" {
		t.Errorf("cascade writes no policy, instance or compat: %+v %+v", out.Policy, out.Agent)
	}
}

func TestABrokenFileFailsTheExportNamingTheLine(t *testing.T) {
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".copilot-bourdon")
	path := write(t, dir, "---\nentities:\n  - name: A\n    tags: [unclosed\n---\n")
	_, err := Copilot.Export(context.Background(), env, export.Options{})
	if err == nil || !strings.Contains(err.Error(), path+":") || !strings.Contains(err.Error(), "malformed YAML front matter") {
		t.Errorf("malformed: %v", err)
	}
	if h := Copilot.Health(context.Background(), env); h.Status != export.StatusDegraded || h.Reason != "Memory file present but could not be parsed." {
		t.Errorf("health: %+v", h)
	}

	write(t, dir, "---\nentities:\n  - name: Caf\xe9\n---\n")
	_, err = Copilot.Export(context.Background(), env, export.Options{})
	if err == nil || !strings.Contains(err.Error(), path+":3:") || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("not UTF-8: %v", err)
	}

	cdir := filepath.Join(env.Home, ".cascade-bourdon")
	write(t, cdir, "---\nentities: [\n---\n")
	if h := Cascade.Health(context.Background(), env); h.Status != export.StatusDegraded || h.Reason != "Memory file has no valid YAML front-matter" {
		t.Errorf("cascade health: %+v", h)
	}
}

func TestAFileWithoutFrontMatterExportsNothing(t *testing.T) {
	env := exporttest.Env(t, nil)
	path := write(t, filepath.Join(env.Home, ".cascade-bourdon"), "# Notes\n\nJust text.\n")
	out, err := Cascade.Export(context.Background(), env, export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Entities)+len(out.Sessions) != 0 || !exporttest.Warned(out, path, "no YAML front matter") {
		t.Errorf("out: %+v", out)
	}
}

func TestAMissingFileIsNotInstalled(t *testing.T) {
	env := exporttest.Env(t, nil)
	for _, x := range []Exporter{Copilot, Cascade} {
		if _, err := x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
			t.Errorf("%s: %v", x.Info().ID, err)
		}
		if h := x.Health(context.Background(), env); h.Status != export.StatusBlocked || h.Details[0].Key != "expected_path" || strings.Contains(h.Fix, "init") {
			t.Errorf("%s health: %+v", x.Info().ID, h)
		}
		if x.Detect(env).Present {
			t.Errorf("%s detected", x.Info().ID)
		}
	}
	os.MkdirAll(filepath.Join(env.Home, ".copilot-bourdon"), 0o755)
	os.MkdirAll(filepath.Join(env.Home, ".cascade-bourdon"), 0o755)
	for _, x := range []Exporter{Copilot, Cascade} {
		if _, err := x.Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
			t.Errorf("%s without memory.md: %v", x.Info().ID, err)
		}
		if h := x.Health(context.Background(), env); h.Status != export.StatusDegraded {
			t.Errorf("%s health without memory.md: %+v", x.Info().ID, h)
		}
		if !x.Detect(env).Present {
			t.Errorf("%s not detected", x.Info().ID)
		}
	}
}

func TestHealthCountsTheRows(t *testing.T) {
	env := exporttest.Env(t, nil)
	write(t, filepath.Join(env.Home, ".copilot-bourdon"), copilotFile)
	write(t, filepath.Join(env.Home, ".cascade-bourdon"), cascadeFile)
	h := Copilot.Health(context.Background(), env)
	if h.Status != export.StatusOK || h.Details[1].Key != "entity_count" || h.Details[1].Value != 7 || h.Details[2].Value != 5 {
		t.Errorf("copilot: %+v", h)
	}
	h = Cascade.Health(context.Background(), env)
	if h.Status != export.StatusOK || len(h.Details) != 5 || h.Details[3].Value != 4 || h.Details[4].Value != 2 {
		t.Errorf("cascade: %+v", h)
	}
}

func TestCopilotHomeVariable(t *testing.T) {
	env := exporttest.Env(t, nil)
	other := filepath.Join(env.Home, "sync", "copilot")
	write(t, other, "---\nentities:\n  - name: From the override\n---\n")
	write(t, filepath.Join(env.Home, ".copilot-bourdon"), "---\nentities:\n  - name: From the home\n---\n")
	env.Getenv = func(k string) string {
		if k == "COPILOT_BOURDON_HOME" {
			return "~/sync/copilot"
		}
		return ""
	}
	out, err := Copilot.Export(context.Background(), env, export.Options{})
	if err != nil || len(out.Entities) != 1 || out.Entities[0].Name != "From the override" {
		t.Errorf("out=%+v err=%v", out, err)
	}
	if p := Copilot.Detect(env); p.Path != other || !p.Present {
		t.Errorf("detect: %+v", p)
	}
}

func TestSinceKeepsLaterSessions(t *testing.T) {
	env := exporttest.Env(t, nil)
	write(t, filepath.Join(env.Home, ".cascade-bourdon"), cascadeFile)
	out, err := Cascade.Export(context.Background(), env, export.Options{Since: time.Date(2026, 11, 8, 0, 0, 0, 0, time.UTC)})
	if err != nil || len(out.Sessions) != 1 || out.Sessions[0].Date != "2026-11-08" {
		t.Errorf("sessions: %+v %v", out.Sessions, err)
	}
}

func TestALargeFileIsBoundedAndIncremental(t *testing.T) {
	env := exporttest.Env(t, nil)
	var b strings.Builder
	b.WriteString("---\nsessions:\n")
	for i := range 600 {
		fmt.Fprintf(&b, "  - date: 2026-%02d-%02d\n    key_actions: [%q]\n", 1+i%12, 1+i%28, "Action "+strings.Repeat("x", 300))
	}
	b.WriteString("---\n")
	b.WriteString(strings.Repeat("A long body line that nobody parses.\n", 50_000))
	path := write(t, filepath.Join(env.Home, ".copilot-bourdon"), b.String())

	c := export.NewCache()
	out, err := Copilot.Export(context.Background(), env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Sessions) != maxSessions || !exporttest.Warned(out, path, "600 sessions") {
		t.Errorf("%d sessions, warnings %v", len(out.Sessions), out.Warnings)
	}
	exporttest.Valid(t, exporttest.Manifest(t, out, env.Home))
	saved, _ := c.Marshal()

	c = export.LoadCache(saved)
	if _, err := Copilot.Export(context.Background(), env, export.Options{Cache: c}); err != nil {
		t.Fatal(err)
	}
	if hits, reads := c.Stats(); hits != 1 || reads != 0 {
		t.Errorf("unchanged: %d hits, %d reads", hits, reads)
	}
	write(t, filepath.Join(env.Home, ".copilot-bourdon"), copilotFile)
	c = export.LoadCache(saved)
	out, err = Copilot.Export(context.Background(), env, export.Options{Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if _, reads := c.Stats(); reads != 1 || len(out.Sessions) != 2 {
		t.Errorf("changed: %d reads, %d sessions", reads, len(out.Sessions))
	}
}

// TestTheCacheKeepsNothingOfAPrivateRow: the incremental cache lives in
// the library, so a private entity or session is not kept there, and the
// export from the cache is the same.
func TestTheCacheKeepsNothingOfAPrivateRow(t *testing.T) {
	for _, tc := range []struct {
		x       Exporter
		dir     string
		content string
		private []string
	}{
		{Copilot, ".copilot-bourdon", copilotFile, []string{"Home budget", "groceries", "dry cleaning"}},
		{Cascade, ".cascade-bourdon", cascadeFile, []string{"Journal", "my notes"}},
	} {
		env := exporttest.Env(t, nil)
		write(t, filepath.Join(env.Home, tc.dir), tc.content)
		c := export.NewCache()
		out, err := tc.x.Export(context.Background(), env, export.Options{Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		exporttest.CacheLacks(t, c, tc.private...)
		saved, _ := c.Marshal()
		c = export.LoadCache(saved)
		again, err := tc.x.Export(context.Background(), env, export.Options{Cache: c})
		if err != nil {
			t.Fatal(err)
		}
		if _, reads := c.Stats(); reads != 0 || string(exporttest.Manifest(t, again, env.Home)) != string(exporttest.Manifest(t, out, env.Home)) {
			t.Errorf("%s: the export from the cache differs (%d reads)", tc.x.Info().ID, reads)
		}
	}
}

// A block scalar last in the front matter has no final newline, as both
// references read it (found by the differential test,
// internal/export/probe/difftool).
func TestABlockScalarLastInTheFrontMatterEndsWithoutNewline(t *testing.T) {
	env := exporttest.Env(t, nil)
	file := "---\nsessions:\n  - date: 2026-11-03\n    cwd: |\n      /home/dev/repos/payments-api\n---\n"
	write(t, filepath.Join(env.Home, ".copilot-bourdon"), file)
	write(t, filepath.Join(env.Home, ".cascade-bourdon"), file)
	for _, x := range []Exporter{Copilot, Cascade} {
		out, err := x.Export(context.Background(), env, export.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Sessions) != 1 || out.Sessions[0].Cwd != "/home/dev/repos/payments-api" {
			t.Errorf("%s: sessions %+v", x.Info().ID, out.Sessions)
		}
	}
}
