package knowledge_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/knowledge"
)

// change is one call of Watch's onChange.
type change struct {
	old, new                *knowledge.Snapshot
	changed, added, removed []string
}

// watch runs kb.Watch until the test ends and returns its changes.
func watch(t *testing.T, kb *knowledge.Base) <-chan change {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan change, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		kb.Watch(ctx, func(old, new *knowledge.Snapshot, changed, added, removed []string) {
			ch <- change{old, new, changed, added, removed}
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	return ch
}

// next waits for the next change.
func next(t *testing.T, ch <-chan change) change {
	t.Helper()
	select {
	case c := <-ch:
		if c.new.Version <= c.old.Version {
			t.Errorf("change from version %d to %d", c.old.Version, c.new.Version)
		}
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no change reported")
	}
	return change{}
}

// quiet fails the test if a change is reported within d.
func quiet(t *testing.T, ch <-chan change, d time.Duration) {
	t.Helper()
	select {
	case c := <-ch:
		t.Errorf("unexpected change: changed %v, added %v, removed %v", c.changed, c.added, c.removed)
	case <-time.After(d):
	}
}

const newDoc = `---
uid: cogitave.learn.docs.watch-test
title: Watch test
description: A document added while the base watches.
type: how-to
owner: cogitave/platform
lastReviewed: 2026-07-01
products:
  - namzu
roles:
  - developer
level: beginner
---

# Watch test
`

func TestWatch(t *testing.T) {
	f := newFixture(t)
	kb := f.open(t)
	ch := watch(t, kb)
	doc := filepath.Join(f.overlay, "docs", "pin-a-namzu-release.md")
	added := filepath.Join(f.overlay, "docs", "watch-test.md")

	steps := []struct {
		name                    string
		do                      func()
		changed, added, removed []string
	}{
		{"corpus file modified", func() { appendFile(t, doc, "\nA new paragraph.\n") }, []string{pinDoc}, nil, nil},
		{"corpus file added", func() { writeFile(t, added, newDoc) }, nil, []string{"cogitave.learn.docs.watch-test"}, nil},
		{"corpus file removed", func() { remove(t, added) }, nil, nil, []string{"cogitave.learn.docs.watch-test"}},
		{"entity modified", func() {
			writeFile(t, f.manifest("librarian"), strings.Replace(librarian, "visibility: team", "visibility: private", 1))
		}, []string{"bourdon.entity.librarian.foo-bar"}, nil, nil},
		{"entity added", func() {
			writeFile(t, f.manifest("librarian"), strings.Replace(librarian, "visibility: team", "visibility: private", 1)+"- name: Fresh\n")
		}, nil, []string{"bourdon.entity.librarian.fresh"}, nil},
		{"entity removed", func() { writeFile(t, f.manifest("librarian"), librarian) },
			[]string{"bourdon.entity.librarian.foo-bar"}, nil, []string{"bourdon.entity.librarian.fresh"}},
	}
	for _, st := range steps {
		before := kb.Current()
		st.do()
		c := next(t, ch)
		if c.old != before || c.new != kb.Current() {
			t.Errorf("%s: reported versions %d to %d, want %d to the current %d", st.name, c.old.Version, c.new.Version, before.Version, kb.Current().Version)
		}
		if !slices.Equal(c.changed, st.changed) || !slices.Equal(c.added, st.added) || !slices.Equal(c.removed, st.removed) {
			t.Errorf("%s: changed %v, added %v, removed %v; want %v, %v, %v", st.name, c.changed, c.added, c.removed, st.changed, st.added, st.removed)
		}
	}
	quiet(t, ch, 300*time.Millisecond)
}

func TestWatchCoalescesBursts(t *testing.T) {
	f := newFixture(t)
	kb := f.open(t)
	ch := watch(t, kb)
	doc := filepath.Join(f.overlay, "docs", "pin-a-namzu-release.md")
	for i := range 4 {
		appendFile(t, doc, "\nBurst.\n")
		writeFile(t, f.manifest("librarian"), librarian+strings.Repeat("- name: Burst\n", i+1))
		time.Sleep(20 * time.Millisecond)
	}
	c := next(t, ch)
	wantAdded := []string{"bourdon.entity.librarian.burst", "bourdon.entity.librarian.burst-2", "bourdon.entity.librarian.burst-3", "bourdon.entity.librarian.burst-4"}
	if !slices.Equal(c.changed, []string{pinDoc}) || !slices.Equal(c.added, wantAdded) || len(c.removed) != 0 {
		t.Errorf("burst: changed %v, added %v, removed %v", c.changed, c.added, c.removed)
	}
	if c.new.Version != c.old.Version+1 {
		t.Errorf("burst rebuilt %d times, want once", c.new.Version-c.old.Version)
	}
	quiet(t, ch, 400*time.Millisecond)
}

func TestWatchKeepsSnapshotWhenRebuildFails(t *testing.T) {
	f := newFixture(t)
	var logs syncBuffer
	opts := f.options()
	opts.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	kb, err := knowledge.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ch := watch(t, kb)
	first := kb.Current()
	moved := f.overlay + ".moved"
	if err := os.Rename(f.overlay, moved); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "rebuild failed") {
		if time.Now().After(deadline) {
			t.Fatalf("no failure logged; logs:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if kb.Current() != first {
		t.Error("a failed rebuild replaced the snapshot")
	}
	if err := os.Rename(moved, f.overlay); err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(f.overlay, "docs", "pin-a-namzu-release.md"), "\nBack.\n")
	if c := next(t, ch); c.old != first || !slices.Equal(c.changed, []string{pinDoc}) {
		t.Errorf("after the root came back: from version %d, changed %v", c.old.Version, c.changed)
	}
}

func remove(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
