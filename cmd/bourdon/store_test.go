package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestStoreMigrateCopyAndHistory: migrate a database, copy a directory
// library into it, read its history there with --store, copy it back:
// the manifests come back byte for byte.
func TestStoreMigrateCopyAndHistory(t *testing.T) {
	url := pgtest.URL(t)
	store := func(args ...string) (string, string, int) { return runWriteCLI(t, newStoreCommand(), args...) }
	out, errOut, code := store("migrate", "--store", url)
	if code != 0 || !strings.Contains(out, fmt.Sprintf("schema version %d", postgres.SchemaVersion())) {
		t.Fatalf("migrate: %d %q %q", code, out, errOut)
	}
	if out, _, code = store("migrate", "--store", url); code != 0 || !strings.Contains(out, "nothing to do") {
		t.Fatalf("migrate again: %d %q", code, out)
	}
	if _, errOut, code = store("migrate", "--store", "/a/dir"); code != 1 || !strings.Contains(errOut, "postgres:// URL") {
		t.Errorf("migrate a directory: %d %q", code, errOut)
	}

	lib := t.TempDir()
	w := commit.New(lib)
	ctx := context.Background()
	for _, name := range []string{"One", "Two"} {
		if _, err := w.Commit(ctx, commit.Request{AgentID: "clyde", AgentType: stagingStr("other"), Entities: []any{map[string]any{"name": name}}, Provenance: commit.Provenance{Caller: "clyde"}}); err != nil {
			t.Fatal(err)
		}
	}
	if out, errOut, code = store("copy", lib, url, "--no-audit"); code != 0 || out != "copied 1 agents (1 archived versions, 2 provenance records) and 0 staged writes\n" {
		t.Fatalf("copy: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runWriteCLI(t, newHistoryCommand(), "list", "clyde", "--store", url)
	digest, _ := w.CurrentDigest("clyde")
	if code != 0 || !strings.HasPrefix(out, "current  "+digest[:8]+"\n") || strings.Count(out, "\n") != 2 {
		t.Errorf("history list --store: %d %q %q", code, out, errOut)
	}
	back := filepath.Join(t.TempDir(), "back")
	if out, errOut, code = store("copy", url, back, "--no-audit"); code != 0 {
		t.Fatalf("copy back: %d %q %q", code, out, errOut)
	}
	want, _ := os.ReadFile(w.ManifestPath("clyde"))
	got, err := os.ReadFile(commit.New(back).ManifestPath("clyde"))
	if err != nil || string(got) != string(want) {
		t.Errorf("the round trip changed the manifest: %v\n%s\nwant\n%s", err, got, want)
	}
	if _, errOut, code = store("copy", lib, url, "--no-audit"); code != 1 || !strings.Contains(errOut, "already has this agent") {
		t.Errorf("copy over: %d %q", code, errOut)
	}
}

// TestStoreCopyCarriesTheAuditLog: copying a library into PostgreSQL
// brings its audit log, damaged lines reported and skipped; bourdon audit
// --store shows what bourdon audit showed of the file; copying back gives
// the file's good lines byte for byte; a log that has entries takes no
// copy, before anything is copied; prune-audit drops months.
func TestStoreCopyCarriesTheAuditLog(t *testing.T) {
	url := pgtest.URL(t)
	store := func(args ...string) (string, string, int) { return runWriteCLI(t, newStoreCommand(), args...) }
	if _, errOut, code := store("migrate", "--store", url); code != 0 {
		t.Fatalf("migrate: %q", errOut)
	}
	fixture, err := os.ReadFile(filepath.Join("..", "..", "testdata", "conformance", "on_disk", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "audit.jsonl")
	lines := strings.SplitAfter(string(fixture), "\n")
	damaged := lines[0] + "{not json\n" + strings.Join(lines[1:], "") + `{"ts": "2026-06-29T00:00:09`
	if err := os.WriteFile(path, []byte(damaged), 0o600); err != nil {
		t.Fatal(err)
	}
	lib := t.TempDir()
	out, errOut, code := store("copy", lib, url, "--audit-log", path)
	if code != 0 || !strings.HasSuffix(out, "copied 5 audit entries (2 lines skipped)\n") ||
		!strings.Contains(errOut, "line 2: not a JSON object") || !strings.Contains(errOut, "line 7: not a JSON object") {
		t.Fatalf("copy in: %d %q %q", code, out, errOut)
	}
	for _, args := range [][]string{{}, {"--json"}, {"--denied"}, {"--agent", "operator", "--limit", "1"}, {"--since", "2026-06-29T00:00:02Z", "--json"}} {
		want, wantErr, _ := runWriteCLI(t, newRootCommand(), append([]string{"audit", "--audit-log", path}, args...)...)
		got, gotErr, code := runWriteCLI(t, newRootCommand(), append([]string{"audit", "--store", url}, args...)...)
		if code != 0 || got != want || gotErr != wantErr || want == "" {
			t.Errorf("audit %v: --store shows\n%s%s\nthe file shows\n%s%s", args, got, gotErr, want, wantErr)
		}
	}
	// Copied again, the same entries are there already: nothing to do.
	if out, errOut, code := store("copy", lib, url, "--audit-log", path); code != 0 || strings.Contains(out, "audit entries") {
		t.Errorf("a second copy in: %d %q %q", code, out, errOut)
	}
	// Once the two logs differ, a copy either way would mix them.
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n" + `{"ts": "2026-06-29T00:00:10.000000Z", "agent": "operator", "tool": "list_agents", "namespace": "*", "decision": "allow", "detail": ""}` + "\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, errOut, code := store("copy", lib, url, "--audit-log", path); code != 1 || !strings.Contains(errOut, "destination's audit log already has other entries") {
		t.Errorf("a copy in of a log that grew: %d %q", code, errOut)
	}
	if _, errOut, code := store("copy", url, t.TempDir(), "--audit-log", path); code != 1 || !strings.Contains(errOut, "audit.jsonl already has other entries") {
		t.Errorf("a copy back over another log: %d %q", code, errOut)
	}
	back := filepath.Join(t.TempDir(), "back.jsonl")
	if out, errOut, code := store("copy", url, t.TempDir(), "--audit-log", back); code != 0 || !strings.HasSuffix(out, "copied 5 audit entries (0 lines skipped)\n") {
		t.Fatalf("copy back: %d %q %q", code, out, errOut)
	}
	if got, _ := os.ReadFile(back); string(got) != string(fixture) {
		t.Errorf("the round trip gave\n%s\nwant\n%s", got, fixture)
	}

	if _, errOut, code := store("prune-audit", "--store", url, "--before", "June"); code != 1 || !strings.Contains(errOut, "name a month") {
		t.Errorf("prune-audit --before June: %d %q", code, errOut)
	}
	if out, errOut, code := store("prune-audit", "--store", url, "--before", "2026-07"); code != 0 || !strings.Contains(out, "dropped 5 audit entries before 2026-07 (1 monthly partitions)") {
		t.Errorf("prune-audit: %d %q %q", code, out, errOut)
	}
	if out, _, _ := runWriteCLI(t, newRootCommand(), "audit", "--store", url); out != "no audit entries match\n" {
		t.Errorf("after the prune: %q", out)
	}
}
