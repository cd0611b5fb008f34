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
