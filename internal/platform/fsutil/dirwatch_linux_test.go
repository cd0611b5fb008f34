//go:build linux

package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// kept reports whether kt answers name from a kept stat now, without
// changing what it keeps.
func kept(t *testing.T, kt *KeptTree, name string) bool {
	t.Helper()
	h := kt.held.Load()
	if h == nil || h.watch == nil {
		t.Fatal("the directory is not watched")
	}
	_, hit, _ := h.watch.lookup(name, time.Now())
	return hit
}

// TestKeptStatIsUsedUntilAnEventNamesIt: once a file's stat is kept, Stat
// answers from it while other files of the directory change, and stats
// again after the file is written, renamed over, changed in mode or
// removed.
func TestKeptStatIsUsedUntilAnEventNamesIt(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "registry.yaml")
	mustWrite(t, file, "one")
	kt := NewTree(dir).Keep()
	stat := func(want int64) {
		t.Helper()
		fi, err := kt.Stat(file)
		if want < 0 {
			if !os.IsNotExist(err) {
				t.Fatalf("Stat = %v, %v; want it missing", fi, err)
			}
			return
		}
		if err != nil || fi.Size() != want {
			t.Fatalf("Stat = %v, %v; want size %d", fi, err, want)
		}
	}
	stat(3)
	stat(3) // kept from here on
	if !kept(t, kt, "registry.yaml") {
		t.Fatal("the second Stat kept nothing")
	}
	log, err := os.OpenFile(filepath.Join(dir, "audit.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for range 20 {
		if _, err := log.WriteString("a line\n"); err != nil {
			t.Fatal(err)
		}
		stat(3)
	}
	if !kept(t, kt, "registry.yaml") {
		t.Fatal("appending to another file of the directory dropped the kept stat")
	}

	changes := []struct {
		what   string
		change func()
		size   int64
	}{
		{"renamed over", func() {
			mustWrite(t, file+".tmp", "two, longer")
			mustRename(t, file+".tmp", file)
		}, 11},
		{"written in place", func() { mustWrite(t, file, "three") }, 5},
		{"its mode changed", func() {
			if err := os.Chmod(file, 0o600); err != nil {
				t.Fatal(err)
			}
		}, 5},
		{"removed", func() {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
		}, -1},
		{"made again", func() { mustWrite(t, file, "four!!") }, 6},
	}
	before := int64(3)
	for _, c := range changes {
		stat(before)
		stat(before)
		if !kept(t, kt, "registry.yaml") {
			t.Fatalf("before the file was %s: nothing kept", c.what)
		}
		c.change()
		if kept(t, kt, "registry.yaml") {
			t.Fatalf("after the file was %s: the old stat is still kept", c.what)
		}
		stat(c.size)
		before = c.size
	}
	fi, err := kt.Stat(file)
	if err != nil || fi.Mode().Perm() != 0o644 {
		// "made again" wrote a new file with mode 0o644.
		t.Fatalf("Stat = %v, %v", fi, err)
	}
}

// TestKeptStatFollowsTheDirectoryName: a link or directory put where the
// tree's directory was is seen at the next Stat, not after the kept stat
// ages, and so is the parent directory renamed away.
func TestKeptStatFollowsTheDirectoryName(t *testing.T) {
	base := t.TempDir()
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(t, filepath.Join(a, "f"), "in a")
	mustWrite(t, filepath.Join(b, "f"), "in b, longer")
	lib := filepath.Join(base, "lib")
	symlink(t, a, lib)
	kt := NewTree(lib).Keep()
	size := func() int64 {
		t.Helper()
		fi, err := kt.Stat(filepath.Join(lib, "f"))
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	size()
	if size(); !kept(t, kt, "f") {
		t.Fatal("nothing kept")
	}
	symlink(t, b, lib+".new")
	mustRename(t, lib+".new", lib)
	if got := size(); got != 12 {
		t.Fatalf("after the link was pointed at b: size %d, want 12", got)
	}

	// A tree two levels down: its parent renamed away and made again.
	deep := filepath.Join(base, "p", "lib")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(deep, "f"), "old")
	kt = NewTree(deep).Keep()
	for range 2 {
		if _, err := kt.Stat(filepath.Join(deep, "f")); err != nil {
			t.Fatal(err)
		}
	}
	mustRename(t, filepath.Join(base, "p"), filepath.Join(base, "p.old"))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(deep, "f"), "new, longer")
	if fi, err := kt.Stat(filepath.Join(deep, "f")); err != nil || fi.Size() != 11 {
		t.Fatalf("after the parent was replaced: Stat = %v, %v; want size 11", fi, err)
	}
}

// TestKeptStatAgesOut: a change that no event reports (here the
// grandparent of the tree renamed away and made again) is seen once the
// kept stat is keptStatMaxAge old.
func TestKeptStatAgesOut(t *testing.T) {
	base := t.TempDir()
	deep := filepath.Join(base, "g", "p", "lib")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(deep, "f")
	mustWrite(t, file, "old")
	kt := NewTree(deep).Keep()
	for range 2 {
		if _, err := kt.Stat(file); err != nil {
			t.Fatal(err)
		}
	}
	mustRename(t, filepath.Join(base, "g"), filepath.Join(base, "g.old"))
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, file, "new, longer")
	time.Sleep(keptStatMaxAge + 50*time.Millisecond)
	if fi, err := kt.Stat(file); err != nil || fi.Size() != 11 {
		t.Fatalf("Stat = %v, %v; want size 11 once the kept stat aged", fi, err)
	}
}

// TestKeptStatNeverLagsAWrite: many goroutines Stat while a file is
// replaced again and again; a Stat that starts after a replacement has
// returned always sees it (or a later one).
func TestKeptStatNeverLagsAWrite(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "registry.yaml")
	mustWrite(t, file, "v")
	kt := NewTree(dir).Keep()
	const versions = 150
	var done atomic.Int64 // the last version whose rename returned
	done.Store(1)
	var wg sync.WaitGroup
	var lagged atomic.Int64
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				want := done.Load()
				fi, err := kt.Stat(file)
				if err != nil {
					t.Error(err)
					return
				}
				if fi.Size() < want {
					lagged.Add(1)
				}
			}
		}()
	}
	for v := int64(2); v <= versions; v++ {
		mustWrite(t, file+".tmp", strings.Repeat("v", int(v)))
		mustRename(t, file+".tmp", file)
		done.Store(v)
		time.Sleep(50 * time.Microsecond)
	}
	close(stop)
	wg.Wait()
	if n := lagged.Load(); n > 0 {
		t.Fatalf("%d Stats answered a version older than one already written", n)
	}
}

// TestKeptTreesShareOneDescriptor: trees watching the same directory, or
// one another's parents, each see their own changes, and a tree given up
// stops no other's watch.
func TestKeptTreesShareOneDescriptor(t *testing.T) {
	base := t.TempDir()
	sub := filepath.Join(base, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(base, "f"), "1")
	mustWrite(t, filepath.Join(sub, "f"), "1")
	trees := []*KeptTree{NewTree(base).Keep(), NewTree(base).Keep(), NewTree(sub).Keep()}
	dirs := []string{base, base, sub}
	for round := 2; round < 6; round++ {
		for i, kt := range trees {
			for range 2 {
				fi, err := kt.Stat(filepath.Join(dirs[i], "f"))
				if err != nil || fi.Size() != int64(round-1) {
					t.Fatalf("round %d, tree %d: Stat = %v, %v", round, i, fi, err)
				}
			}
		}
		mustWrite(t, filepath.Join(base, "f"), strings.Repeat("x", round))
		mustWrite(t, filepath.Join(sub, "f"), strings.Repeat("x", round))
		if round == 3 {
			// Give the second tree's watch up, as the collector would.
			trees[1].held.Load().watch.release()
			trees[1] = NewTree(base).Keep()
		}
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRename(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(fmt.Errorf("rename: %w", err))
	}
}
