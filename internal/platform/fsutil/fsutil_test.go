package fsutil

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestWriteAtomicReplacesAndLeavesNoTemp(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteAtomic": WriteAtomic, "WriteCache": WriteCache} {
		dir := filepath.Join(t.TempDir(), "nested")
		path := filepath.Join(dir, "a.l5.yaml")
		for _, content := range []string{"one\n", "two\n"} {
			if err := write(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if string(got) != content {
				t.Errorf("%s: content %q, want %q", name, got, content)
			}
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("%s: directory holds %d entries, want only the file", name, len(entries))
		}
		if err := write(filepath.Join(path, "below-a-file"), nil, 0o644); err == nil {
			t.Errorf("%s: writing below a file must fail", name)
		}
	}
}

func TestLockExcludesAndWaits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locks", "x.lock")
	unlock, err := Lock(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := Lock(ctx, path); err == nil {
		t.Fatal("a second holder got the lock")
	}
	var wg sync.WaitGroup
	got := make(chan struct{})
	failed := make(chan error, 1)
	waiting := &waitingContext{Context: context.Background(), waiting: make(chan struct{})}
	wg.Add(1)
	go func() {
		defer wg.Done()
		u, err := Lock(waiting, path)
		if err != nil {
			failed <- err
			return
		}
		close(got)
		u()
	}()
	// Release the lock only once the waiter has found it held.
	select {
	case <-waiting.waiting:
	case <-got:
		t.Fatal("a second holder got the lock")
	case err := <-failed:
		t.Fatalf("the waiter gave up: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the waiter never tried the lock")
	}
	unlock()
	select {
	case <-got:
	case err := <-failed:
		t.Fatalf("the waiter gave up: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the waiter never got the lock after release")
	}
	wg.Wait()
}

// waitingContext closes waiting when Done is first asked for, which Lock
// does once it has found the lock held and waits to try again.
type waitingContext struct {
	context.Context
	once    sync.Once
	waiting chan struct{}
}

func (c *waitingContext) Done() <-chan struct{} {
	c.once.Do(func() { close(c.waiting) })
	return c.Context.Done()
}
