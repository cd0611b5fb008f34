package main

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestStoreCopyCarriesRequests: bourdon store copy takes a library's
// requests, proposals (pending and decided) and drift watermarks into
// PostgreSQL, where bourdon requests --store reads them, and back into a
// directory: the same files, byte for byte, with the same modes. A
// document the destination holds with other bytes is refused, and
// nothing is written.
func TestStoreCopyCarriesRequests(t *testing.T) {
	ctx := context.Background()
	lib := t.TempDir()
	s, err := requests.Open(requestsDir(lib))
	if err != nil {
		t.Fatal(err)
	}
	form := `{"problem": "Refunds are posted twice.", "desiredOutcome": "Every refund is posted once.", "type": "fix", "area": "payments", "identity": "github:bob", "owner": "demo/payments"}`
	p, err := s.ProposeIntake(ctx, []byte(form), "agent:codex")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Approve(ctx, p.ID, "cli:alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ProposeIntake(ctx, []byte(form), "agent:codex"); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(lib, ".bourdon"), 0o755)
	os.WriteFile(filepath.Join(lib, filepath.FromSlash(drift.LibraryName)), []byte(`{"version": 1, "surfaces": {}}`+"\n"), 0o644)
	before := libraryFiles(t, lib)
	if len(before) != 4 {
		t.Fatalf("the library holds %v", before)
	}

	url := pgtest.Migrated(t)
	run := func(cmd string, args ...string) (string, string, int) {
		t.Helper()
		if cmd == "requests" {
			return runWriteCLI(t, newRequestsCommand(), args...)
		}
		return runWriteCLI(t, newStoreCommand(), args...)
	}
	out, errOut, code := run("store", "copy", lib, url)
	if code != 0 || !strings.HasSuffix(out, "\ncopied 4 requests, proposals and drift watermarks\n") {
		t.Fatalf("copy: %d %q %q", code, out, errOut)
	}
	if out, errOut, code := run("requests", "list-proposals", "--store", url); code != 0 || strings.Count(out, "prop-") != 1 {
		t.Errorf("requests list-proposals --store: %d %q %q", code, out, errOut)
	}
	if out, _, code := run("store", "copy", lib, url); code != 0 || strings.Contains(out, "requests") {
		t.Errorf("copy again: %d %q (nothing new to write)", code, out)
	}

	back := filepath.Join(t.TempDir(), "back")
	if out, errOut, code := run("store", "copy", url, back); code != 0 {
		t.Fatalf("copy back: %d %q %q", code, out, errOut)
	}
	after := libraryFiles(t, back)
	for name, want := range before {
		if got := after[name]; got != want {
			t.Errorf("%s came back as %q, want %q", name, got, want)
		}
	}
	if len(after) != len(before) {
		t.Errorf("came back with %d files, want %d", len(after), len(before))
	}

	// A request changed in the directory is not copied over the other.
	os.WriteFile(filepath.Join(lib, "requests", "REQ-9999-0001.yaml"), []byte("id: new\n"), 0o644)
	r, _, _ := s.All()
	os.WriteFile(s.Root()+"/"+r[0].ID+".yaml", []byte("edited\n"), 0o644)
	if _, errOut, code := run("store", "copy", lib, url); code != 1 || !strings.Contains(errOut, "exists with other content") {
		t.Errorf("copy over a changed request: %d %q", code, errOut)
	}
	if _, _, err := pgtest.Open(t, url).Documents().Read(ctx, "requests/REQ-9999-0001.yaml", 100); err == nil {
		t.Error("a refused copy wrote a document")
	}
}

// libraryFiles returns the mode and bytes of every file of a library's
// requests and watermarks, lock files left out, by path from the library.
func libraryFiles(t *testing.T, lib string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, dir := range []string{"requests", ".bourdon"} {
		err := filepath.WalkDir(filepath.Join(lib, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, ".lock") {
				return err
			}
			fi, err := d.Info()
			if err != nil {
				return err
			}
			data, err := os.ReadFile(path)
			rel, _ := filepath.Rel(lib, path)
			out[rel] = fi.Mode().String() + " " + string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}
