//go:build unix

package fsutil

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeWithOutside returns a tree and a directory outside it holding
// secret.txt.
func treeWithOutside(t *testing.T) (Tree, string) {
	t.Helper()
	base := t.TempDir()
	lib := filepath.Join(base, "lib")
	outside := filepath.Join(base, "elsewhere")
	for _, d := range []string{lib, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	return NewTree(lib), outside
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func wantOutside(t *testing.T, what string, err error, link string) {
	t.Helper()
	var oe *OutsideError
	if !errors.As(err, &oe) {
		t.Fatalf("%s: err = %v, want an *OutsideError", what, err)
	}
	if oe.Link != link || !strings.Contains(err.Error(), link) {
		t.Errorf("%s: the error must name the link %s: %v", what, link, err)
	}
}

func TestTreeRefusesLinksThatLeaveIt(t *testing.T) {
	tr, outside := treeWithOutside(t)
	lib := tr.Dir()

	// A file that is a link to a file outside, absolute or relative.
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(lib, "agents", "abs.l5.yaml"))
	symlink(t, "../../elsewhere/secret.txt", filepath.Join(lib, "agents", "rel.l5.yaml"))
	for _, name := range []string{"abs.l5.yaml", "rel.l5.yaml"} {
		path := filepath.Join(lib, "agents", name)
		_, err := tr.ReadRegular(path, 0)
		wantOutside(t, name, err, path)
	}

	// A folder that is a link to a folder outside: nothing may be read or
	// written through it.
	symlink(t, outside, filepath.Join(lib, "history", "codex"))
	link := filepath.Join(lib, "history", "codex")
	_, err := tr.ReadRegular(filepath.Join(link, "secret.txt"), 0)
	wantOutside(t, "read through a folder link", err, link)
	err = tr.WriteAtomic(filepath.Join(link, "versions", "v1.l5.yaml"), []byte("x"), 0o644)
	wantOutside(t, "write through a folder link", err, link)
	_, _, err = tr.OpenAppend(filepath.Join(link, "provenance.jsonl"), 0o644)
	wantOutside(t, "append through a folder link", err, link)
	err = tr.MkdirAll(filepath.Join(link, "versions"), 0o755)
	wantOutside(t, "mkdir through a folder link", err, link)
	_, err = tr.ReadDir(link)
	wantOutside(t, "list a folder link", err, link)
	symlink(t, outside, filepath.Join(lib, ".locks"))
	_, err = tr.Lock(context.Background(), filepath.Join(lib, ".locks", "codex.lock"))
	wantOutside(t, "lock through a folder link", err, filepath.Join(lib, ".locks"))
	entries, _ := os.ReadDir(outside)
	if len(entries) != 1 {
		t.Errorf("something was written outside the tree: %v", entries)
	}
	if err := tr.Check(filepath.Join(lib, "agents", "new.l5.yaml")); err != nil {
		t.Errorf("a path without a link: %v", err)
	}

	// A path that is not under the tree at all.
	if _, err := tr.ReadRegular(filepath.Join(outside, "secret.txt"), 0); err == nil {
		t.Error("a path outside the tree was read")
	}
}

func TestTreeFollowsRelativeLinksInside(t *testing.T) {
	tr, _ := treeWithOutside(t)
	lib := tr.Dir()
	if err := tr.WriteAtomic(filepath.Join(lib, "store", "codex.yaml"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	symlink(t, "../store/codex.yaml", filepath.Join(lib, "agents", "codex.l5.yaml"))
	data, err := tr.ReadRegular(filepath.Join(lib, "agents", "codex.l5.yaml"), 0)
	if err != nil || string(data) != "inside" {
		t.Fatalf("a relative link inside: %q %v", data, err)
	}
	symlink(t, "store", filepath.Join(lib, "history"))
	if err := tr.WriteAtomic(filepath.Join(lib, "history", "v.yaml"), []byte("v"), 0o644); err != nil {
		t.Errorf("a write through a folder link inside: %v", err)
	}
	// An absolute link, even to a place inside, is not followed; the error
	// says so.
	symlink(t, filepath.Join(lib, "store", "codex.yaml"), filepath.Join(lib, "agents", "abs.l5.yaml"))
	_, err = tr.ReadRegular(filepath.Join(lib, "agents", "abs.l5.yaml"), 0)
	if !IsOutside(err) || !strings.Contains(err.Error(), "relative") {
		t.Errorf("an absolute link inside: %v", err)
	}
}

func TestTreeWriteReplacesALinkInsteadOfWritingThroughIt(t *testing.T) {
	tr, outside := treeWithOutside(t)
	path := filepath.Join(tr.Dir(), "agents", "codex.l5.yaml")
	symlink(t, filepath.Join(outside, "secret.txt"), path)
	if err := tr.WriteAtomic(path, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret.txt")); string(data) != "secret" {
		t.Errorf("the link's target was written: %q", data)
	}
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a file: %v %v", fi, err)
	}
}
