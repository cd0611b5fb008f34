package postgres_test

import (
	"context"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/memory/store/storetest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestDocuments(t *testing.T) {
	url := pgtest.Migrated(t)
	open := func() store.Documents { return pgtest.Open(t, url).Documents() }
	storetest.Documents(t, open(), open)
}

// TestListenFollowsDocuments: one Listen follows manifests and documents
// on one connection: each listener hears the resync ("") on connecting
// and after the connection is cut, a document's write and removal by
// another process name it on Documents only, and a manifest's write names
// it on Manifests only.
func TestListenFollowsDocuments(t *testing.T) {
	url := pgtest.Migrated(t)
	a, b := pgtest.Open(t, url), pgtest.Open(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	go b.Listen(ctx, postgres.Listeners{
		Manifests: func(id string) { got <- "manifest " + id },
		Documents: func(name string) { got <- "document " + name },
	}, nil)
	resync := func(when string) {
		t.Helper()
		heard := map[string]bool{<-got: true, <-got: true}
		if !heard["manifest "] || !heard["document "] {
			t.Fatalf("%s: %v, want a resync of each listener", when, heard)
		}
	}
	resync("connecting")
	next := func(want string) {
		t.Helper()
		if n := <-got; n != want {
			t.Fatalf("notified of %q, want %q", n, want)
		}
	}
	if _, err := a.Documents().Write(ctx, "requests/REQ-1.yaml", []byte("x")); err != nil {
		t.Fatal(err)
	}
	next("document requests/REQ-1.yaml")
	write(t, commit.OnStore(a), "alpha", "one")
	next("manifest alpha")
	if err := a.Documents().Remove(ctx, "requests/REQ-1.yaml"); err != nil {
		t.Fatal(err)
	}
	next("document requests/REQ-1.yaml")
	if err := exec(t, url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"); err != nil {
		t.Fatal(err)
	}
	resync("after the connection was cut")
	if _, err := a.Documents().Write(ctx, "requests/REQ-2.yaml", []byte("y")); err != nil {
		t.Fatal(err)
	}
	next("document requests/REQ-2.yaml")
}
