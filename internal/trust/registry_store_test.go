package trust_test

import (
	"github.com/getbourdon/bourdon-go/internal/trust"

	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// pgRegistry returns a function opening the registry of one fresh
// PostgreSQL store, each call on a pool of its own (as each replica or
// CLI process holds one).
func pgRegistry(t *testing.T) func() *trust.Registry {
	url := pgtest.Migrated(t)
	return func() *trust.Registry {
		return trust.NewRegistry(pgtest.Open(t, url).Documents(), trust.RegistryDocument)
	}
}

// TestRegistryInPostgresIsTheFileByteForByte: the same changes, with the
// same clock, make the same bytes in a file and in the database (the
// random token hashes aside), so that bourdon store copy can move the
// registry either way unchanged.
func TestRegistryInPostgresIsTheFileByteForByte(t *testing.T) {
	file := trust.TestRegistry(t)
	db := pgRegistry(t)()
	db.SetClockForTest(trust.FixedClock(time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC), time.Minute))
	for _, r := range []*trust.Registry{file, db} {
		if _, err := r.Add("claude-code", trust.TierTrusted, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Add("openclaw", trust.TierQuarantined, []string{"claude-code"}); err != nil {
			t.Fatal(err)
		}
		if err := r.Grant("openclaw", "codex"); err != nil {
			t.Fatal(err)
		}
		if err := r.Revoke("claude-code"); err != nil {
			t.Fatal(err)
		}
		if err := r.SetSubject("openclaw", "person@example.com"); err != nil {
			t.Fatal(err)
		}
	}
	// Tokens are random: give both the same hashes before comparing.
	fileData, _ := os.ReadFile(file.Path())
	dbData, _, err := db.DocumentsForTest().Read(context.Background(), trust.RegistryDocument, 0)
	if err != nil {
		t.Fatal(err)
	}
	hashes := func(b []byte) []string {
		var out []string
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "token_sha256: ") {
				out = append(out, line)
			}
		}
		return out
	}
	fh, dh := hashes(fileData), hashes(dbData)
	if len(fh) != 2 || len(dh) != 2 {
		t.Fatalf("hash lines %q %q", fh, dh)
	}
	for i := range fh {
		dbData = []byte(strings.Replace(string(dbData), dh[i], fh[i], 1))
	}
	if diff := cmp.Diff(string(fileData), string(dbData)); diff != "" {
		t.Errorf("database document (-file +database)\n%s", diff)
	}
	if !strings.HasSuffix(db.Path(), "/documents/"+trust.RegistryDocument) {
		t.Errorf("Path %q", db.Path())
	}
}

// TestRegistryInPostgresIsSharedAtOnce: what one process (a CLI, another
// replica) changes, a server's trust.Registry sees on its very next call, with
// no wait, every time.
func TestRegistryInPostgresIsSharedAtOnce(t *testing.T) {
	open := pgRegistry(t)
	cli, server := open(), open()
	if server.IsConfigured() || server.Err() != nil {
		t.Fatalf("an empty database: configured %v, %v", server.IsConfigured(), server.Err())
	}
	tok, err := cli.Add("codex", trust.TierQuarantined, nil)
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 20; round++ {
		if c, ok := server.Authenticate(tok); !ok || c.ID != "codex" {
			t.Fatalf("round %d: the current token is refused", round)
		}
		next, err := cli.Rotate("codex")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := server.Authenticate(tok); ok {
			t.Fatalf("round %d: a rotated token still authenticates", round)
		}
		tok = next
	}
	if err := cli.SetTier("codex", trust.TierTrusted); err != nil {
		t.Fatal(err)
	}
	if c, ok := server.Authenticate(tok); !ok || c.Tier != trust.TierTrusted {
		t.Fatalf("the tier change is not seen: %+v", c)
	}
	if err := cli.Revoke("codex"); err != nil {
		t.Fatal(err)
	}
	if _, ok := server.Authenticate(tok); ok {
		t.Fatal("a revoked token still authenticates")
	}
	if !server.IsConfigured() || server.HasActiveAgents() {
		t.Error("a registry of one revoked member")
	}
}

// TestRegistryInPostgresWritersLoseNothing: eight processes' registries
// (a pool each, so the advisory lock is what excludes them) add rows at
// the same time.
func TestRegistryInPostgresWritersLoseNothing(t *testing.T) {
	open := pgRegistry(t)
	const writers, each = 8, 8
	regs := make([]*trust.Registry, writers)
	for w := range regs {
		regs[w] = open()
	}
	tokens := make([][]string, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				tok, err := regs[w].Add(fmt.Sprintf("w%d-%d", w, i), trust.TierQuarantined, nil)
				if err != nil {
					t.Error(err)
					return
				}
				tokens[w] = append(tokens[w], tok)
			}
		}()
	}
	wg.Wait()
	r := open()
	members, err := r.List()
	if err != nil || len(members) != writers*each {
		t.Fatalf("%d members, %v", len(members), err)
	}
	for w := range tokens {
		for i, tok := range tokens[w] {
			if c, ok := r.Authenticate(tok); !ok || c.ID != fmt.Sprintf("w%d-%d", w, i) {
				t.Errorf("w%d-%d: %+v %v", w, i, c, ok)
			}
		}
	}
}

// TestRegistryInPostgresFailsClosed: a document that does not parse lets
// nobody in and is never overwritten; a repaired one is seen at once.
func TestRegistryInPostgresFailsClosed(t *testing.T) {
	open := pgRegistry(t)
	r := open()
	ctx := context.Background()
	tok := "bdn_" + strings.Repeat("3", 48)
	good := "agents:\n  a: {tier: trusted, token_sha256: " + trust.HashToken(tok) + "}\n"
	bad := good + "  b: {revoked: 1}\n"
	if _, err := r.DocumentsForTest().Write(ctx, trust.RegistryDocument, []byte(bad)); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := r.Identify(tok); ok || !errors.Is(err, trust.ErrUnreadable) {
		t.Errorf("Identify off a corrupt registry: %v %v", ok, err)
	}
	if err := r.Err(); !errors.Is(err, trust.ErrUnreadable) || !strings.Contains(err.Error(), "/documents/federation.yaml") || !strings.Contains(err.Error(), "revoked is not a boolean") {
		t.Errorf("Err() = %v", err)
	}
	if _, err := open().Add("clyde", trust.TierTrusted, nil); !errors.Is(err, trust.ErrUnreadable) {
		t.Errorf("Add: %v", err)
	}
	if data, _, _ := r.DocumentsForTest().Read(ctx, trust.RegistryDocument, 0); string(data) != bad {
		t.Error("a change overwrote the corrupt document")
	}
	if _, err := r.DocumentsForTest().Write(ctx, trust.RegistryDocument, []byte(good)); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Authenticate(tok); !ok {
		t.Errorf("not recovered after repair: %v", r.Err())
	}
	if _, ok, err := r.Identify("bdn_" + strings.Repeat("4", 48)); ok || err != nil {
		t.Errorf("an unknown token: %v %v, want refused without an error", ok, err)
	}
}

// TestSymlinkedRegistryFile: a registry path that is a symbolic link to a
// file elsewhere (kept with dotfiles) is followed: the target is read and
// changed in place, the link stays a link, and the lock file is next to
// the target.
func TestSymlinkedRegistryFile(t *testing.T) {
	target := trust.CopyFixture(t)
	link := filepath.Join(t.TempDir(), ".bourdon", "federation.yaml")
	if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	r := trust.OpenRegistry(link)
	if _, ok := r.Authenticate("bdn_" + strings.Repeat("b", 48)); !ok {
		t.Fatalf("the fixture's member does not authenticate through the link: %v", r.Err())
	}
	tok, err := r.Add("clyde", trust.TierTrusted, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if _, ok := trust.OpenRegistry(target).Authenticate(tok); !ok {
		t.Error("the change did not reach the target")
	}
	if _, err := os.Stat(target + ".lock"); err != nil {
		t.Errorf("no lock file next to the target: %v", err)
	}
	if r.Path() != link {
		t.Errorf("Path %q, want the path given", r.Path())
	}
}

// A registry inside a directory whose documents are refused (here: a
// symbolic link inside the tree leading out of it) fails closed.
func TestRegistryBehindAnOutsideLinkFailsClosed(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	r := trust.NewRegistry(store.NewDirDocuments(dir, 0o600), "sub/federation.yaml")
	if _, err := r.Add("clyde", trust.TierTrusted, nil); err == nil {
		t.Error("a write left the tree")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("written outside: %v", entries)
	}
}
