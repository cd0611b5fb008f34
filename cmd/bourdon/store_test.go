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
	if code != 0 || !strings.HasSuffix(out, fmt.Sprintf("; schema version %d\n", postgres.SchemaVersion())) || !strings.Contains(out, ": applied 1") {
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
	if out, errOut, code = store("copy", lib, url); code != 0 || out != "copied 1 agents (1 archived versions, 2 provenance records) and 0 staged writes\n" {
		t.Fatalf("copy: %d %q %q", code, out, errOut)
	}
	out, errOut, code = runWriteCLI(t, newHistoryCommand(), "list", "clyde", "--store", url)
	digest, _ := w.CurrentDigest("clyde")
	if code != 0 || !strings.HasPrefix(out, "current  "+digest[:8]+"\n") || strings.Count(out, "\n") != 2 {
		t.Errorf("history list --store: %d %q %q", code, out, errOut)
	}
	back := filepath.Join(t.TempDir(), "back")
	if out, errOut, code = store("copy", url, back); code != 0 {
		t.Fatalf("copy back: %d %q %q", code, out, errOut)
	}
	want, _ := os.ReadFile(w.ManifestPath("clyde"))
	got, err := os.ReadFile(commit.New(back).ManifestPath("clyde"))
	if err != nil || string(got) != string(want) {
		t.Errorf("the round trip changed the manifest: %v\n%s\nwant\n%s", err, got, want)
	}
	if _, errOut, code = store("copy", lib, url); code != 1 || !strings.Contains(errOut, "already has this agent") {
		t.Errorf("copy over: %d %q", code, errOut)
	}
}
