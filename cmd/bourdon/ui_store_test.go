package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

var csrfFieldRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// TestUIOnAPostgreSQLStore: bourdon ui --store serves the manifests of a
// PostgreSQL store, and the dashboard's governance actions (promote a
// staged write, roll back) write to that store.
func TestUIOnAPostgreSQLStore(t *testing.T) {
	dbURL := pgtest.Migrated(t)
	w := commit.OnStore(pgtest.Open(t, dbURL))
	ctx := context.Background()
	for _, name := range []string{"One", "Two"} {
		if _, err := w.Commit(ctx, commit.Request{AgentID: "clyde", AgentType: stagingStr("other"), Entities: []any{map[string]any{"name": name}}, Provenance: commit.Provenance{Caller: "clyde"}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Stage(ctx, "openclaw", commit.Request{AgentID: "openclaw", AgentType: stagingStr("other"), Entities: []any{map[string]any{"name": "Staged"}}, Provenance: commit.Provenance{Caller: "openclaw"}}); err != nil {
		t.Fatal(err)
	}

	cmd, link, banner := startUI(t, "ui", "--store", dbURL, "--library", t.TempDir(), "--port", "0")
	if !strings.Contains(strings.Join(banner, "\n"), "(1 agents") {
		t.Errorf("the banner does not count the store's agent: %q", banner)
	}
	base := strings.TrimSuffix(link[:strings.Index(link, "/ui/")], "/")
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	get := func(path string) string {
		t.Helper()
		res, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		return string(body)
	}
	post := func(path string, form url.Values) string {
		t.Helper()
		res, err := client.PostForm(base+path, form)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		notice, _ := url.QueryUnescape(res.Request.URL.RawQuery)
		return notice
	}
	if res, err := client.Get(link); err != nil {
		t.Fatal(err)
	} else {
		res.Body.Close()
	}
	get("/readyz") // the library directory has no agents/: the store answers
	// The doctor of the Federation page checks the store, not the
	// library directory (which has no agents/).
	if fed := get("/ui/federation"); !strings.Contains(fed, "schema version") || !strings.Contains(fed, "vectors: in memory (pgvector") || !strings.Contains(fed, "holds 1 manifest(s)") {
		t.Errorf("the Federation page's doctor does not check the store:\n%s", fed)
	}
	page := get("/ui/governance")
	m := csrfFieldRE.FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, "openclaw") {
		t.Fatalf("the governance page has no CSRF field or no staged write of openclaw:\n%s", page)
	}
	csrf := m[1]
	if notice := post("/ui/governance/staging", url.Values{"csrf": {csrf}, "agent": {"openclaw"}, "action": {"promote"}}); !strings.Contains(notice, "promoted 1 staged write(s) for openclaw") {
		t.Errorf("promote: %q", notice)
	}
	if _, err := w.Store().Manifest(ctx, "openclaw"); err != nil {
		t.Errorf("the promoted manifest is not in the store: %v", err)
	}

	versions, err := w.Store().VersionIDs(ctx, "clyde")
	if err != nil || len(versions) != 1 {
		t.Fatalf("clyde's versions: %v %v", versions, err)
	}
	before, _ := w.CurrentDigest("clyde")
	if notice := post("/ui/governance/rollback", url.Values{"csrf": {csrf}, "agent": {"clyde"}, "version": {versions[0]}, "expected_digest": {before}}); !strings.Contains(notice, "rolled clyde back") {
		t.Errorf("rollback: %q", notice)
	}
	if after, _ := w.CurrentDigest("clyde"); after == before {
		t.Errorf("the rollback did not change clyde's manifest in the store")
	}
	cmd.Process.Signal(syscall.SIGINT)
	if err := cmd.Wait(); err != nil {
		t.Errorf("bourdon ui did not stop cleanly: %v", err)
	}
}
