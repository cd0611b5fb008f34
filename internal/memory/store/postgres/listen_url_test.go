package postgres_test

import (
	"context"
	"net/url"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestPoolSettingsInTheURL: the pool's settings in a store's URL
// (pool_max_conns, as docs/deploy.md suggests) are not sent to the server
// by the connections of their own that Migrate and Listen open, which the
// server would refuse for them (leaving a replica to reconciliation
// alone).
func TestPoolSettingsInTheURL(t *testing.T) {
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("pool_max_conns", "6")
	q.Set("pool_max_conn_lifetime", "1h")
	u.RawQuery = q.Encode()
	if _, err := postgres.Migrate(context.Background(), u.String()); err != nil {
		t.Fatal(err)
	}
	s := pgtest.Open(t, u.String())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	go s.Listen(ctx, postgres.Listeners{Manifests: func(id string) { got <- id }}, nil)
	if id := <-got; id != "" {
		t.Fatalf("the first call after connecting is a resync (\"\"), not %q", id)
	}
	write(t, commit.OnStore(s), "alpha", "one")
	if id := <-got; id != "alpha" {
		t.Fatalf("notified of %q", id)
	}
}
