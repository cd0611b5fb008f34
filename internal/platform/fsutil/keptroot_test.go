//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

// TestKeptTreeStatsAsTreeDoes: Stat through the kept directory answers
// what Tree.Stat answers (the same file, or the same error) for files,
// links inside and outside, paths outside the tree, a missing file, and
// after the directory is removed, made again, renamed over or replaced
// by a file.
func TestKeptTreeStatsAsTreeDoes(t *testing.T) {
	tr, outside := treeWithOutside(t)
	lib := tr.Dir()
	kept := tr.Keep()
	write := func(rel, data string) {
		t.Helper()
		p := filepath.Join(lib, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	populate := func(content string) {
		t.Helper()
		write("federation.yaml", content)
		write("agents/a.l5.yaml", "a")
		symlink(t, "../federation.yaml", filepath.Join(lib, "agents", "inside.l5.yaml"))
		symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(lib, "agents", "abs.l5.yaml"))
		symlink(t, "../../elsewhere/secret.txt", filepath.Join(lib, "agents", "rel.l5.yaml"))
		symlink(t, filepath.Join(lib, "federation.yaml"), filepath.Join(lib, "absinside.yaml"))
	}
	paths := []string{
		filepath.Join(lib, "federation.yaml"),
		filepath.Join(lib, "agents", "a.l5.yaml"),
		filepath.Join(lib, "agents", "inside.l5.yaml"),
		filepath.Join(lib, "agents", "abs.l5.yaml"),
		filepath.Join(lib, "agents", "rel.l5.yaml"),
		filepath.Join(lib, "absinside.yaml"),
		filepath.Join(lib, "missing.yaml"),
		filepath.Join(lib, "agents", "missing", "x.yaml"),
		filepath.Join(lib, "federation.yaml", "under-a-file"),
		filepath.Join(outside, "secret.txt"),
		filepath.Join(lib, "..", "elsewhere", "secret.txt"),
		lib,
	}
	compare := func(step string) {
		t.Helper()
		// Each path twice in a row: the second Stat makes it relative
		// from memory.
		var twice []string
		for _, p := range paths {
			twice = append(twice, p, p)
		}
		for _, p := range twice {
			want, werr := tr.Stat(p)
			got, gerr := kept.Stat(p)
			switch {
			case (werr == nil) != (gerr == nil):
				t.Errorf("%s: Stat(%s) = %v, want %v", step, p, gerr, werr)
			case werr != nil:
				if gerr.Error() != werr.Error() || IsOutside(gerr) != IsOutside(werr) {
					t.Errorf("%s: Stat(%s) error %q, want %q", step, p, gerr, werr)
				}
			case !os.SameFile(got, want) || got.Size() != want.Size() || !got.ModTime().Equal(want.ModTime()) || got.Mode() != want.Mode():
				t.Errorf("%s: Stat(%s) = %v %d %v, want %v %d %v", step, p, got.Mode(), got.Size(), got.ModTime(), want.Mode(), want.Size(), want.ModTime())
			}
		}
	}
	populate("one")
	compare("first")
	compare("again, kept open")

	write("federation.yaml.tmp", "two, longer")
	if err := os.Rename(filepath.Join(lib, "federation.yaml.tmp"), filepath.Join(lib, "federation.yaml")); err != nil {
		t.Fatal(err)
	}
	compare("a file renamed over")

	if err := os.RemoveAll(lib); err != nil {
		t.Fatal(err)
	}
	compare("the directory removed")
	populate("three")
	compare("the directory made again")

	if err := os.Rename(lib, lib+".old"); err != nil {
		t.Fatal(err)
	}
	populate("four, in a new directory")
	compare("the directory renamed away and made again")

	next := lib + ".next"
	if err := os.Mkdir(next, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(next, "federation.yaml"), []byte("five"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(lib); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, lib); err != nil {
		t.Fatal(err)
	}
	compare("another directory renamed over it")

	if err := os.RemoveAll(lib); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lib, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	compare("a file in its place")
}
