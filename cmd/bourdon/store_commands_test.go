package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// withPassword is url with a password, which the test server (trust
// authentication) ignores and no output may show.
func withPassword(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), "s3cret-pw")
	return u.String()
}

// TestValidateAndAgentsOnAStore: validate --store checks the store's
// manifests (all, or the agents named) and names each by its path in the
// store; agents --store describes them for the tray. Neither shows the
// password.
func TestValidateAndAgentsOnAStore(t *testing.T) {
	dbURL := withPassword(t, pgtest.Migrated(t))
	w := commit.OnStore(pgtest.Open(t, dbURL))
	if _, err := w.Commit(context.Background(), commit.Request{AgentID: "alpha", AgentType: stagingStr("code-assistant"), Entities: []any{map[string]any{"name": "Payments"}}}); err != nil {
		t.Fatal(err)
	}
	// A manifest no write would store (agent.id twice), as a copy of a
	// hand-edited directory can bring in.
	conn, err := pgx.Connect(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	broken := "spec_version: '0.1'\nagent:\n  id: broken\n  type: code-assistant\n  id: other\nlast_updated: '2026-06-29T12:00:00+00:00'\n"
	if _, err := conn.Exec(context.Background(), "INSERT INTO bourdon_manifests (agent_id, data, digest, version) VALUES ('broken', $1, 'x', 1)", []byte(broken)); err != nil {
		t.Fatal(err)
	}
	where := postgres.Redact(dbURL)

	out, errOut, code := runWriteCLI(t, newRootCommand(), "validate", "--store", dbURL)
	if code != 1 || !strings.Contains(out, where+"/agents/broken.l5.yaml:5: duplicate key \"id\"") || strings.Contains(out, "alpha") {
		t.Errorf("validate --store: exit %d, output %q %q", code, out, errOut)
	}
	out, _, code = runWriteCLI(t, newRootCommand(), "validate", "--store", dbURL, "alpha")
	if code != 0 || out != "1 file(s) valid\n" {
		t.Errorf("validate --store alpha: exit %d, output %q", code, out)
	}
	out, errOut, code = runWriteCLI(t, newRootCommand(), "agents", "--store", dbURL)
	if code != 0 || !strings.Contains(out, `"generated_from": "`+where+`/agents"`) || !strings.Contains(out, `"id": "alpha"`) || !strings.Contains(out, `"id": "broken"`) || !strings.Contains(out, `"parse_error"`) {
		t.Errorf("agents --store: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	if strings.Contains(out+errOut, "s3cret-pw") {
		t.Error("the password was shown")
	}
	_, errOut, code = runWriteCLI(t, newRootCommand(), "agents", "--store", "postgres://u:s3cret-pw@127.0.0.1:1/db")
	if code != 2 || !strings.Contains(errOut, "agents: ") || strings.Contains(errOut, "s3cret-pw") {
		t.Errorf("agents on a store that does not answer: exit %d, %q", code, errOut)
	}
}

// TestExportAllIntoAStore: export-all --store commits every agent into
// the store (the library directory keeps only the caches); a second run
// is a no-op read through the caches, and a dry run writes nothing.
func TestExportAllIntoAStore(t *testing.T) {
	deps, _ := fakeExportDeps(t)
	dbURL := withPassword(t, pgtest.Migrated(t))
	pg := pgtest.Open(t, dbURL)
	lib := filepath.Join(t.TempDir(), "library")
	exportAll := func(args ...string) (string, string, int) {
		return runWriteCLI(t, newExportAllCommand(deps), append(args, "--library", lib, "--store", dbURL)...)
	}
	out, errOut, code := exportAll()
	where := postgres.Redact(dbURL)
	if code != 1 || !strings.Contains(out, "ok          alpha") || !strings.Contains(out, where+"/agents/alpha.l5.yaml") || !strings.Contains(out, "error       gamma") {
		t.Errorf("export-all --store: exit %d, stderr %q\n%s", code, errOut, out)
	}
	if _, err := pg.Manifest(context.Background(), "alpha"); err != nil {
		t.Errorf("alpha is not in the store: %v", err)
	}
	if _, err := os.Stat(filepath.Join(lib, "agents")); !os.IsNotExist(err) {
		t.Errorf("the library directory got manifests: %v", err)
	}
	if _, err := os.Stat(filepath.Join(lib, ".bourdon", "exports", "alpha.cache.json")); err != nil {
		t.Errorf("no cache in the library directory: %v", err)
	}
	before, _ := pg.Stamps(context.Background())

	out, _, _ = exportAll("--agent", "alpha")
	if !strings.Contains(out, "no_op       alpha") {
		t.Errorf("the second run:\n%s", out)
	}
	out, _, code = exportAll("--agent", "alpha", "--dry-run", "--access-level", "public")
	if code != 0 || !strings.HasPrefix(out, "would_write alpha") {
		t.Errorf("a dry run on the store: exit %d\n%s", code, out)
	}
	if after, _ := pg.Stamps(context.Background()); len(after) != len(before) || after[0] != before[0] {
		t.Errorf("the no-op or the dry run wrote: %v, then %v", before, after)
	}
	if strings.Contains(out+errOut, "s3cret-pw") {
		t.Error("the password was shown")
	}
}
