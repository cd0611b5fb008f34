package store_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// TestCachedReadsAgainOnlyOnAChange: a Cached parses the document once
// per revision, sees another writer's change at the next Get, and says
// why a document cannot be parsed until it is fixed.
func TestCachedReadsAgainOnlyOnAChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := store.NewDirDocuments(dir, 0o600)
	loads := 0
	c := store.NewCached(docs, "doc", func(ctx context.Context) (string, store.Revision, error) {
		loads++
		data, rev, err := docs.Read(ctx, "doc", 100)
		if errors.Is(err, fs.ErrNotExist) {
			return "(none)", store.NoRevision, nil
		}
		if err == nil && string(data) == "bad" {
			err = errors.New("cannot parse")
		}
		return string(data), rev, err
	}, func(err error) error { return fmt.Errorf("doc is unreadable: %w", err) })
	get := func(want string, wantLoads int) {
		t.Helper()
		got, err := c.Get(ctx)
		if got != want || err != nil || loads != wantLoads {
			t.Errorf("Get: %q, %v after %d loads; want %q after %d", got, err, loads, want, wantLoads)
		}
	}
	get("(none)", 1)
	get("(none)", 1)
	other := store.NewDirDocuments(dir, 0o600) // another process's
	if _, err := other.Write(ctx, "doc", []byte("one")); err != nil {
		t.Fatal(err)
	}
	get("one", 2)
	get("one", 2)
	if _, err := other.Write(ctx, "doc", []byte("bad")); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Get(ctx); got != "" || err == nil || err.Error() != "doc is unreadable: cannot parse" {
		t.Errorf("Get of a bad document: %q, %v", got, err)
	}
	rev, err := other.Write(ctx, "doc", []byte("two"))
	if err != nil {
		t.Fatal(err)
	}
	c.Set(rev, "two, as written", nil) // a writer records what it wrote
	loads = 0
	get("two, as written", 0)
}
