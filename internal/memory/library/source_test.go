package library

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// flakyStore is a ManifestStore of one manifest whose listing fails while
// down is set, counting the listings asked of it.
type flakyStore struct {
	mu       sync.Mutex
	down     bool
	listings int
}

func (f *flakyStore) ManifestPath(id string) string { return "db/agents/" + id + ManifestSuffix }

func (f *flakyStore) Manifest(_ context.Context, id string) ([]byte, error) {
	if id != "alpha" {
		return nil, os.ErrNotExist
	}
	return []byte("spec_version: '0.1'\nagent:\n  id: alpha\n  type: other\n"), nil
}

func (f *flakyStore) Versions(context.Context) (map[string]int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.listings++
	if f.down {
		return nil, errors.New("no answer in time")
	}
	return map[string]int64{"alpha": 1}, nil
}

func (f *flakyStore) set(down bool) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
	return f.listings
}

// TestAStoreThatFailsIsNotAskedOnEveryRead: once a listing fails, reads
// are served the last snapshot without asking the store again (each would
// wait out its bound), until the library is notified or its probe sees
// the store answer.
func TestAStoreThatFailsIsNotAskedOnEveryRead(t *testing.T) {
	src := &flakyStore{}
	lib, err := OpenStore(t.TempDir(), src, time.Hour, nil) // no probe within the test
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	src.set(true)
	lib.Notify()
	lib.Snapshot() // this listing fails
	before := src.set(true)
	lib.Notify() // a notification (the listener reconnected) asks again, once
	for range 3 {
		if _, ok := lib.Snapshot().Agent("alpha"); !ok {
			t.Fatal("the last snapshot is no longer served")
		}
	}
	if n := src.set(true) - before; n != 1 {
		t.Errorf("after a failed listing and a notification, three reads asked for %d listings, want 1", n)
	}
	for range 3 { // that listing failed too: no more are asked
		lib.Snapshot()
	}
	if n := src.set(false) - before; n != 1 {
		t.Errorf("while failing, reads asked for %d more listings, want none", n-1)
	}

	// The probe, every interval, finds the store back.
	src2 := &flakyStore{}
	lib2, err := OpenStore(t.TempDir(), src2, time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lib2.Close()
	src2.set(true)
	lib2.Notify()
	lib2.Snapshot()
	src2.set(false)
	for { // the go test timeout bounds the wait
		lib2.Snapshot()
		lib2.watch.(*sourceWatcher).mu.Lock()
		down := lib2.watch.(*sourceWatcher).down
		lib2.watch.(*sourceWatcher).mu.Unlock()
		if !down {
			break
		}
		time.Sleep(time.Millisecond)
	}
}
