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
	dir := filepath.Join(t.TempDir(), "nested")
	path := filepath.Join(dir, "a.l5.yaml")
	for _, content := range []string{"one\n", "two\n"} {
		if err := WriteAtomic(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if string(got) != content {
			t.Errorf("content %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
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
	wg.Add(1)
	go func() {
		defer wg.Done()
		u, err := Lock(context.Background(), path)
		if err == nil {
			close(got)
			u()
		}
	}()
	time.Sleep(20 * time.Millisecond)
	unlock()
	select {
	case <-got:
	case <-time.After(2 * time.Second):
		t.Fatal("the waiter never got the lock after release")
	}
	wg.Wait()
}
