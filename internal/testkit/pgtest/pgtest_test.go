package pgtest

import (
	"context"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func TestURLGivesAnEmptyDatabase(t *testing.T) {
	u := URL(t)
	conn, err := pgx.Connect(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d tables in a new database", n)
	}
}

func TestServerStopsAndStartsOnTheSameData(t *testing.T) {
	s := NewServer(t)
	u := s.Migrated(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)"); err != nil {
		t.Fatal(err)
	}
	s.Stop(t)
	if err := conn.Ping(ctx); err == nil {
		t.Error("a connection survived the stop")
	}
	conn.Close(ctx)
	if c, err := pgx.Connect(ctx, u); err == nil {
		c.Close(ctx)
		t.Fatal("connected to a stopped server")
	}
	s.Start(t)
	conn, err = pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, "SELECT n FROM kept").Scan(&n); err != nil || n != 7 {
		t.Fatalf("after the restart: %d, %v", n, err)
	}
}
