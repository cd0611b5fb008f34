package postgres_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// noHang is the generous bound within which a call must end while the
// database does not answer (the store's own bound is 1 s here): beyond
// it, the call is taken for a hang.
const noHang = time.Minute

// within runs fn and fails the test if it has not returned within noHang.
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("%s: %s", what, time.Since(start)) }()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(noHang):
		t.Fatalf("%s did not end within %s while the database was partitioned", what, noHang)
	}
}

// TestAPartitionedDatabaseFailsCallsAndHeals: a store whose database
// stops answering (a proxy that blackholes, keeping every connection
// open) fails every read and write within its bound, with an error naming
// the store; its library goes on serving the last snapshot; after the
// partition heals (the connections open during it stay silent for ever,
// as after a partition longer than the server's patience), the listener
// notices its connection is dead, reconnects and resyncs, the library
// takes in what another replica wrote meanwhile, and writes work again.
func TestAPartitionedDatabaseFailsCallsAndHeals(t *testing.T) {
	direct, proxied, proxy := pgtest.Partitioned(t, time.Second)
	s := pgtest.Open(t, proxied)
	other := commit.OnStore(pgtest.Open(t, direct)) // a replica on the other side of the partition
	// Closed before the pools, which wait for pgx's cancel requests.
	t.Cleanup(proxy.Close)
	lib, err := library.OpenStore(t.TempDir(), s, 50*time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 64)
	go s.Listen(ctx, postgres.Listeners{Manifests: func(id string) { lib.Notify(); got <- id }}, nil)
	if id := <-got; id != "" {
		t.Fatalf("first call %q", id)
	}
	w := commit.OnStore(s)
	write(t, w, "alpha", "before")
	if id := <-got; id != "alpha" {
		t.Fatalf("notified of %q", id)
	}
	if _, ok := lib.Snapshot().Agent("alpha"); !ok {
		t.Fatal("notified, but the library does not have alpha")
	}

	proxy.Blackhole()
	named := "the store " + postgres.Redact(proxied) + " failed: "
	other2 := "other"
	within(t, "a commit", func() {
		_, err := w.Commit(ctx, commit.Request{AgentID: "alpha", AgentType: &other2, Entities: []any{map[string]any{"name": "lost"}}})
		if !contains(err, named) {
			t.Errorf("a commit while partitioned: %v, want an error starting %q", err, named)
		}
	})
	within(t, "reads of the store", func() {
		if _, err := s.Manifest(ctx, "alpha"); !contains(err, named) {
			t.Errorf("Manifest: %v", err)
		}
		if _, err := s.Versions(ctx); !contains(err, named) {
			t.Errorf("Versions: %v", err)
		}
		if _, err := s.Provenance(ctx, "alpha"); !contains(err, named) {
			t.Errorf("Provenance: %v", err)
		}
	})
	write(t, other, "beta", "meanwhile")
	within(t, "reading the library", func() {
		for range 3 {
			if ag, ok := lib.Snapshot().Agent("alpha"); !ok || len(ag.Manifest.Entities) != 1 {
				t.Fatalf("the library lost its last snapshot: %v %+v", ok, ag)
			}
		}
	})
	for len(got) > 0 {
		if id := <-got; id != "" {
			t.Fatalf("a notification %q crossed the partition", id)
		}
	}

	proxy.Heal()
	healed := time.Now()
	if id := <-got; id != "" { // the go test timeout bounds the wait
		t.Fatalf("after the partition: %q, want a resync", id)
	}
	t.Logf("resync %s after healing", time.Since(healed))
	write(t, w, "alpha", "after")
	for id := range got { // notified again
		if id == "alpha" {
			break
		}
	}
	for {
		_, beta := lib.Snapshot().Agent("beta")
		ag, _ := lib.Snapshot().Agent("alpha")
		if beta && len(ag.Manifest.Entities) == 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	data, err := s.Manifest(ctx, "alpha")
	if err != nil || strings.Contains(string(data), "lost") || !strings.Contains(string(data), "before") {
		t.Errorf("alpha after the partition (%v):\n%s", err, data)
	}
}

// TestTimeoutParameter: bourdon_timeout in the URL sets the operation
// bound, is never sent to the server, and a bad value is refused without
// the password.
func TestTimeoutParameter(t *testing.T) {
	if err := postgres.CheckURL("postgres://u:s3cret@h/db?bourdon_timeout=30s"); err != nil {
		t.Errorf("a valid bound: %v", err)
	}
	for _, bad := range []string{"soon", "0s", "-1s"} {
		err := postgres.CheckURL("postgres://u:s3cret@h/db?bourdon_timeout=" + bad)
		if !contains(err, "bourdon_timeout") || contains(err, "s3cret") {
			t.Errorf("bourdon_timeout=%s: %v", bad, err)
		}
	}
	// The server would refuse an unknown parameter: this opens.
	pgtest.Open(t, pgtest.Migrated(t)+"&bourdon_timeout=30s")
}

// TestVectorsSay: how doctor and the banner put what the server offers.
func TestVectorsSay(t *testing.T) {
	for v, want := range map[postgres.Vectors]string{
		{}:                                       "in memory (pgvector not available)",
		{Available: "0.8.0"}:                     "in memory (pgvector 0.8.0 available, not used)",
		{Available: "0.8.0", Installed: "0.7.4"}: "in memory (pgvector 0.7.4 installed, not used)",
	} {
		if got := v.String(); got != want {
			t.Errorf("%+v: %q, want %q", v, got, want)
		}
	}
	pg := pgtest.Open(t, pgtest.Migrated(t))
	if v, err := pg.Vectors(context.Background()); err != nil || v.String() == "" {
		t.Errorf("this server: %+v %v", v, err)
	}
}
