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

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
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
	case <-time.After(30 * time.Second):
		t.Fatal("no change reported within 30 s")
	}
	return change{}
}

// nothingSince checks that Watch reported nothing after last: it appends
// a marker paragraph to doc and expects the next change to be the
// marker's alone, rebuilt from last. Anything a step caused is reported
// before the marker, which changes only after it.
func nothingSince(t *testing.T, ch <-chan change, last *knowledge.Snapshot, doc string) {
	t.Helper()
	appendFile(t, doc, "\nThe marker.\n")
	c := next(t, ch)
	if c.old != last || c.new.Version != last.Version+1 || !slices.Equal(c.changed, []string{pinDoc}) || len(c.added)+len(c.removed) != 0 {
		t.Errorf("after version %d, a change from version %d to %d (changed %v, added %v, removed %v); want only the marker's, to version %d",
			last.Version, c.old.Version, c.new.Version, c.changed, c.added, c.removed, last.Version+1)
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
	nothingSince(t, ch, kb.Current(), doc)
}

// The writes of a burst are burstPace apart, so that Watch sees them one
// by one; they count as one burst when none is burstGap or more after the
// one before: well under the quiet time (200 ms) after which Watch
// rebuilds, even if it took one of its ticks late.
const (
	burstPace = 20 * time.Millisecond
	burstGap  = 100 * time.Millisecond
)

func TestWatchCoalescesBursts(t *testing.T) {
	for attempt := 1; !burst(t); attempt++ {
		// Two writes were too far apart to be one burst (the machine is
		// busy): Watch may rightly have rebuilt twice. Try again, afresh.
		if attempt == 10 {
			t.Fatalf("in 10 bursts, two writes were %v or more apart each time; cannot test coalescing on a machine this busy", burstGap)
		}
	}
}

// burst changes a document and a manifest four times in a burst and
// checks that Watch rebuilt once, then nothing more. It reports false,
// checking nothing, when the writes turned out not to be one burst.
func burst(t *testing.T) bool {
	f := newFixture(t)
	kb := f.open(t)
	ch := watch(t, kb)
	doc := filepath.Join(f.overlay, "docs", "pin-a-namzu-release.md")
	var gap time.Duration // the longest time between two writes
	last := time.Now()
	for i := range 4 {
		if i > 0 {
			time.Sleep(burstPace) // not a wait: it spreads the burst out
		}
		appendFile(t, doc, "\nBurst.\n")
		now := time.Now()
		writeFile(t, f.manifest("librarian"), librarian+strings.Repeat("- name: Burst\n", i+1))
		gap, last = max(gap, now.Sub(last), time.Since(now)), time.Now()
	}
	c := next(t, ch)
	if gap >= burstGap {
		t.Logf("a burst had writes %v apart, not under %v: trying again", gap, burstGap)
		return false
	}
	wantAdded := []string{"bourdon.entity.librarian.burst", "bourdon.entity.librarian.burst-2", "bourdon.entity.librarian.burst-3", "bourdon.entity.librarian.burst-4"}
	if !slices.Equal(c.changed, []string{pinDoc}) || !slices.Equal(c.added, wantAdded) || len(c.removed) != 0 {
		t.Errorf("burst: changed %v, added %v, removed %v", c.changed, c.added, c.removed)
	}
	if c.new.Version != c.old.Version+1 {
		t.Errorf("burst rebuilt %d times, want once", c.new.Version-c.old.Version)
	}
	nothingSince(t, ch, c.new, doc)
	return true
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
	if !logs.waitFor("rebuild failed", 30*time.Second) {
		t.Fatalf("no failure logged; logs:\n%s", logs.String())
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
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{} // holds a value after a write; see written
}

// written returns the channel that gets a value after every write; s.mu
// must be held.
func (s *syncBuffer) written() chan struct{} {
	if s.wrote == nil {
		s.wrote = make(chan struct{}, 1)
	}
	return s.wrote
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case s.written() <- struct{}{}:
	default:
	}
	return s.b.Write(p)
}

// waitFor reports whether the buffer holds text within d, looking again
// after every write.
func (s *syncBuffer) waitFor(text string, d time.Duration) bool {
	timeout := time.After(d)
	for {
		s.mu.Lock()
		found, wrote := strings.Contains(s.b.String(), text), s.written()
		s.mu.Unlock()
		if found {
			return true
		}
		select {
		case <-wrote:
		case <-timeout:
			return false
		}
	}
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
