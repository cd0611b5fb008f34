package postgres_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func exec(t *testing.T, url, sql string) error {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(context.Background(), sql)
	return err
}

func write(t *testing.T, w *commit.Writer, id, entity string) {
	t.Helper()
	other := "other"
	if _, err := w.Commit(context.Background(), commit.Request{AgentID: id, AgentType: &other, Entities: []any{map[string]any{"name": entity}}}); err != nil {
		t.Fatal(err)
	}
}

func TestMigrateOnceThenNothing(t *testing.T) {
	url := pgtest.URL(t)
	applied, err := postgres.Migrate(context.Background(), url)
	if err != nil || len(applied) == 0 || applied[len(applied)-1] != postgres.SchemaVersion() {
		t.Fatalf("applied %v to a new database: %v", applied, err)
	}
	again, err := postgres.Migrate(context.Background(), url)
	if err != nil || len(again) != 0 {
		t.Fatalf("a second migration applied %v: %v", again, err)
	}
}

func TestOpenRefusesAnUnmigratedOrNewerSchema(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	if _, err := postgres.Open(ctx, url); err == nil || !contains(err, "bourdon store migrate") {
		t.Errorf("opening an empty database: %v", err)
	}
	if _, err := postgres.Migrate(ctx, url); err != nil {
		t.Fatal(err)
	}
	if err := exec(t, url, "INSERT INTO bourdon_schema_migrations (version, name) VALUES (9999, 'from the future')"); err != nil {
		t.Fatal(err)
	}
	var newer *postgres.NewerSchemaError
	if _, err := postgres.Open(ctx, url); !errors.As(err, &newer) {
		t.Errorf("opening a newer schema: %v", err)
	}
	if _, err := postgres.Migrate(ctx, url); !errors.As(err, &newer) {
		t.Errorf("migrating a newer schema: %v", err)
	}
}

func contains(err error, s string) bool { return err != nil && strings.Contains(err.Error(), s) }

func TestHistoryIsAppendOnly(t *testing.T) {
	url := pgtest.Migrated(t)
	w := commit.OnStore(pgtest.Open(t, url))
	write(t, w, "a", "one")
	write(t, w, "a", "two")
	for _, sql := range []string{
		"UPDATE bourdon_versions SET data = 'x'",
		"DELETE FROM bourdon_versions",
		"UPDATE bourdon_provenance SET record = '{}'",
		"DELETE FROM bourdon_provenance",
	} {
		if err := exec(t, url, sql); err == nil || !contains(err, "append-only") {
			t.Errorf("%s: %v", sql, err)
		}
	}
}

// TestNotifiedReplicaSeesTheWrite: two replicas (two stores, two
// libraries) on one database; a write through one reaches the other's
// library as soon as it is notified, whatever its reconcile interval.
func TestNotifiedReplicaSeesTheWrite(t *testing.T) {
	url := pgtest.Migrated(t)
	a, b := pgtest.Open(t, url), pgtest.Open(t, url)
	libB, err := library.OpenStore(t.TempDir(), b, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, commit.OnStore(a), "alpha", "one")
	if _, ok := libB.Snapshot().Agent("alpha"); ok {
		t.Fatal("the replica saw the write before it was notified or reconciled (the test's premise is wrong)")
	}
	libB.Notify()
	ag, ok := libB.Snapshot().Agent("alpha")
	if !ok || len(ag.Manifest.Entities) != 1 {
		t.Fatalf("after Notify: %v %+v", ok, ag)
	}
	gen := libB.Snapshot().Generation
	write(t, commit.OnStore(a), "alpha", "two")
	libB.Notify()
	if ag, _ := libB.Snapshot().Agent("alpha"); len(ag.Manifest.Entities) != 2 || libB.Snapshot().Generation == gen {
		t.Fatalf("the second write: %+v", ag)
	}
}

// TestListenFeedsTheLibrary: Listen delivers another replica's commits
// to the library (LISTEN/NOTIFY, nothing polled).
func TestListenFeedsTheLibrary(t *testing.T) {
	url := pgtest.Migrated(t)
	a, b := pgtest.Open(t, url), pgtest.Open(t, url)
	libB, err := library.OpenStore(t.TempDir(), b, time.Hour, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	go b.Listen(ctx, postgres.Listeners{Manifests: func(id string) { libB.Notify(); got <- id }}, nil)
	if id := <-got; id != "" {
		t.Fatalf("the first call after connecting is a resync (\"\"), not %q", id)
	}
	write(t, commit.OnStore(a), "alpha", "one")
	if id := <-got; id != "alpha" {
		t.Fatalf("notified of %q", id)
	}
	if _, ok := libB.Snapshot().Agent("alpha"); !ok {
		t.Fatal("notified, but the library does not have the agent")
	}
}

// TestReconciliationCatchesAMissedNotification: without any notification,
// the library lists the versions every reconcile interval.
func TestReconciliationCatchesAMissedNotification(t *testing.T) {
	url := pgtest.Migrated(t)
	a, b := pgtest.Open(t, url), pgtest.Open(t, url)
	libB, err := library.OpenStore(t.TempDir(), b, time.Millisecond, nil)
	if err != nil {
		t.Fatal(err)
	}
	write(t, commit.OnStore(a), "alpha", "one")
	for {
		if _, ok := libB.Snapshot().Agent("alpha"); ok {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestListenResyncsAfterLosingItsConnection: when the listening connection
// is cut (here, terminated by the server), Listen reconnects and calls
// back with "" (resync), then delivers notifications again.
func TestListenResyncsAfterLosingItsConnection(t *testing.T) {
	url := pgtest.Migrated(t)
	s := pgtest.Open(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 16)
	go s.Listen(ctx, postgres.Listeners{Manifests: func(id string) { got <- id }}, nil)
	if id := <-got; id != "" {
		t.Fatalf("first call %q", id)
	}
	if err := exec(t, url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"); err != nil {
		t.Fatal(err)
	}
	if id := <-got; id != "" {
		t.Fatalf("after the connection was cut: %q, want a resync", id)
	}
	write(t, commit.OnStore(s), "alpha", "one")
	if id := <-got; id != "alpha" {
		t.Fatalf("after reconnecting: %q", id)
	}
}

// TestPathsNameTheStore: payloads name a manifest or a staged write by the
// store's URL (without its password), never by a directory.
func TestPathsNameTheStore(t *testing.T) {
	url := pgtest.Migrated(t)
	w := commit.OnStore(pgtest.Open(t, url))
	other := "other"
	res, err := w.Commit(context.Background(), commit.Request{AgentID: "a", AgentType: &other})
	staged, serr := w.Stage(context.Background(), "g", commit.Request{AgentID: "g"})
	prefix := postgres.Redact(url)
	if err != nil || serr != nil || res.Path != prefix+"/agents/a.l5.yaml" || staged.Path != prefix+"/staging/g/g.l5.yaml" {
		t.Errorf("paths %q and %q (%v, %v), want them under %s", res.Path, staged.Path, err, serr, prefix)
	}
	if strings.Contains(postgres.Redact("postgres://u:secret@h/db?password=secret"), "secret") {
		t.Error("Redact leaves the password")
	}
}
