package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/storetest"
)

func TestDirDocuments(t *testing.T) {
	dir := t.TempDir()
	open := func() store.Documents { return store.NewDirDocuments(dir, 0o600) }
	storetest.Documents(t, open(), open)
}

// TestDirDocumentsMakePrivateDirectories: the root and the directories a
// write or a lock creates get the x bits of the files' r bits, so private
// documents (0600) live in private directories (0700).
func TestDirDocumentsMakePrivateDirectories(t *testing.T) {
	for _, op := range []string{"write", "lock"} {
		root := filepath.Join(t.TempDir(), "home", ".bourdon")
		d := store.NewDirDocuments(root, 0o600)
		switch op {
		case "write":
			if _, err := d.Write(context.Background(), "sub/doc", []byte("x")); err != nil {
				t.Fatal(err)
			}
		case "lock":
			unlock, err := d.Lock(context.Background(), "sub/doc.lock")
			if err != nil {
				t.Fatal(err)
			}
			unlock()
		}
		for _, dir := range []string{root, filepath.Join(root, "sub")} {
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %s: %v %v, want 0700", op, dir, fi.Mode(), err)
			}
		}
	}
}

// TestFileDocumentFollowsALinkInItsPlace: a file that is a symbolic link
// to elsewhere is its target's document: written in place, the link kept.
func TestFileDocumentFollowsALinkInItsPlace(t *testing.T) {
	target := filepath.Join(t.TempDir(), "real.yaml")
	if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "federation.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	docs, name := store.FileDocument(link, 0o600)
	ctx := context.Background()
	if data, _, err := docs.Read(ctx, name, 0); string(data) != "old\n" || err != nil {
		t.Fatalf("read through the link: %q %v", data, err)
	}
	if _, err := docs.Write(ctx, name, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(target); string(data) != "new\n" {
		t.Errorf("the target holds %q", data)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}
	// A plain path is its directory's document of that name.
	plain := filepath.Join(t.TempDir(), "x.yaml")
	if docs, name := store.FileDocument(plain, 0o600); docs.Root() != filepath.Dir(plain) || name != "x.yaml" {
		t.Errorf("plain path: %s %s", docs.Root(), name)
	}
}

// TestDirDocumentsRevisionOfNamesInTurn: Revision remembers the last
// name's path; asked names in turn (the same one again, another, a name
// that is not one), it answers what a DirDocuments asked each name once
// answers, and sees a document written in between.
func TestDirDocumentsRevisionOfNamesInTurn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := store.NewDirDocuments(dir, 0o600)
	for _, name := range []string{"a.yaml", "sub/b.yaml"} {
		if _, err := docs.Write(ctx, name, []byte(name)); err != nil {
			t.Fatal(err)
		}
	}
	check := func(name string) {
		t.Helper()
		got, gerr := docs.Revision(ctx, name)
		want, werr := store.NewDirDocuments(dir, 0o600).Revision(ctx, name)
		if got != want || (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("Revision(%q) = %q, %v; a fresh DirDocuments says %q, %v", name, got, gerr, want, werr)
		}
	}
	for _, name := range []string{"a.yaml", "a.yaml", "sub/b.yaml", "../x", "../x", "a.yaml", "missing.yaml", "sub/b.yaml"} {
		check(name)
	}
	before, _ := docs.Revision(ctx, "a.yaml")
	if _, err := docs.Write(ctx, "a.yaml", []byte("longer than before")); err != nil {
		t.Fatal(err)
	}
	if after, _ := docs.Revision(ctx, "a.yaml"); after == before {
		t.Errorf("a document rewritten keeps its revision %q", after)
	}
	check("a.yaml")
}
