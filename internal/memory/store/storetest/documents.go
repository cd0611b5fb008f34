// Package storetest holds the behaviour every store backend must show,
// as tests each backend's package runs on an instance of its own.
package storetest

import (
	"context"
	"errors"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// Documents checks a store.Documents that holds no documents yet. open
// returns another instance over the same documents (another replica's),
// or the same one where the backend has no such thing.
func Documents(t *testing.T, docs store.Documents, open func() store.Documents) {
	ctx := context.Background()
	t.Run("missing", func(t *testing.T) {
		if _, _, err := docs.Read(ctx, "none.yaml", 1<<20); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("reading a missing document: %v", err)
		}
		if rev, err := docs.Revision(ctx, "none.yaml"); rev != store.NoRevision || err != nil {
			t.Errorf("revision of a missing document: %q, %v", rev, err)
		}
		if err := docs.Remove(ctx, "none.yaml"); err != nil {
			t.Errorf("removing a missing document: %v", err)
		}
		if got, err := docs.List(ctx, "nowhere"); len(got) != 0 || err != nil {
			t.Errorf("listing a missing dir: %v, %v", got, err)
		}
	})
	t.Run("write read remove", func(t *testing.T) {
		seen := map[store.Revision]bool{}
		other := open()
		for i, content := range []string{"one\n", "", "two, longer\n"} {
			rev, err := docs.Write(ctx, "d/doc.yaml", []byte(content))
			if err != nil || rev == store.NoRevision {
				t.Fatalf("write %d: %q, %v", i, rev, err)
			}
			if seen[rev] {
				t.Errorf("write %d repeats revision %q", i, rev)
			}
			seen[rev] = true
			data, got, err := other.Read(ctx, "d/doc.yaml", 1<<20)
			if string(data) != content || got != rev || err != nil {
				t.Errorf("read after write %d: %q at %q, %v; want %q at %q", i, data, got, err, content, rev)
			}
			if now, err := other.Revision(ctx, "d/doc.yaml"); now != rev || err != nil {
				t.Errorf("revision after write %d: %q, %v; want %q", i, now, err, rev)
			}
			if i == 0 {
				// Keep the clock's resolution from hiding the next write
				// in a backend that stamps by time.
				time.Sleep(10 * time.Millisecond)
			}
		}
		var tl *fsutil.TooLargeError
		if _, _, err := docs.Read(ctx, "d/doc.yaml", 5); !errors.As(err, &tl) {
			t.Errorf("reading 12 bytes with a limit of 5: %v", err)
		}
		if data, _, err := docs.Read(ctx, "d/doc.yaml", 0); string(data) != "two, longer\n" || err != nil {
			t.Errorf("reading without a limit: %q, %v", data, err)
		}
		if err := docs.Remove(ctx, "d/doc.yaml"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := other.Read(ctx, "d/doc.yaml", 1<<20); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("reading a removed document: %v", err)
		}
		rev, err := docs.Write(ctx, "d/doc.yaml", []byte("one\n"))
		if err != nil || seen[rev] {
			t.Errorf("a document written again after its removal has revision %q (seen before: %v), %v", rev, seen[rev], err)
		}
	})
	t.Run("list", func(t *testing.T) {
		for _, name := range []string{"l/b.yaml", "l/a.yaml", "l/sub/c.yaml", "lx.yaml", "l.yaml"} {
			if _, err := docs.Write(ctx, name, []byte(name)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := open().List(ctx, "l")
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, d := range got {
			names = append(names, d.Name)
			if d.Revision == store.NoRevision || d.Modified.IsZero() {
				t.Errorf("%s listed without a revision or time: %+v", d.Name, d)
			}
		}
		if want := []string{"l/a.yaml", "l/b.yaml"}; !slices.Equal(names, want) {
			t.Errorf("listing l: %v, want %v", names, want)
		}
		root, err := docs.List(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		names = names[:0]
		for _, d := range root {
			names = append(names, d.Name)
		}
		if want := []string{"l.yaml", "lx.yaml"}; !slices.Equal(names, want) {
			t.Errorf("listing the root: %v, want %v", names, want)
		}
	})
	t.Run("names", func(t *testing.T) {
		for _, name := range []string{"", "/abs.yaml", "../out.yaml", "a/../b.yaml", "a//b.yaml", "a\\b.yaml", "./a.yaml", "a/", "nul\x00.yaml"} {
			if _, err := docs.Write(ctx, name, []byte("x")); err == nil {
				t.Errorf("wrote a document named %q", name)
			}
			if _, _, err := docs.Read(ctx, name, 10); err == nil || errors.Is(err, os.ErrNotExist) {
				t.Errorf("read of a document named %q: %v, want a refusal", name, err)
			}
			if _, err := docs.Lock(ctx, name); err == nil {
				t.Errorf("took a lock named %q", name)
			}
		}
	})
	t.Run("lock", func(t *testing.T) {
		// Two holders (one per instance) each increment a counter n
		// times under the lock: no increment may be lost.
		const n = 25
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for _, d := range []store.Documents{docs, open()} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range n {
					if err := increment(ctx, d); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		data, _, err := docs.Read(ctx, "counter", 100)
		if err != nil || string(data) != strconv.Itoa(2*n) {
			t.Errorf("counter after %d increments: %q, %v", 2*n, data, err)
		}

		unlock, err := docs.Lock(ctx, "held.lock")
		if err != nil {
			t.Fatal(err)
		}
		waiting, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if u, err := open().Lock(waiting, "held.lock"); err == nil {
			u()
			t.Error("took a lock another holder holds")
		}
		unlock()
		u, err := open().Lock(ctx, "held.lock")
		if err != nil {
			t.Fatalf("taking a released lock: %v", err)
		}
		u()
	})
}

func increment(ctx context.Context, d store.Documents) error {
	unlock, err := d.Lock(ctx, "counter.lock")
	if err != nil {
		return err
	}
	defer unlock()
	data, _, err := d.Read(ctx, "counter", 100)
	n := 0
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return err
	default:
		if n, err = strconv.Atoi(string(data)); err != nil {
			return err
		}
	}
	_, err = d.Write(ctx, "counter", []byte(strconv.Itoa(n+1)))
	return err
}
