package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestPgDumpRestoreServesTheSameStore backs a store up as docs/deploy.md
// says (pg_dump, custom and plain formats, from a live replica's
// database), restores each dump into a new empty database (pg_restore;
// psql), and checks that the restored store is the same: `bourdon store
// migrate` has nothing to do, every table holds the same rows (the
// manifests' digests and versions among them), a replica serving it
// answers every read tool as one serving the original does, a commit
// through it continues the history (the provenance sequence was restored
// too), and history is still append-only.
func TestPgDumpRestoreServesTheSameStore(t *testing.T) {
	pgDump, pgRestore, psql := pgtest.Tool(t, "pg_dump"), pgtest.Tool(t, "pg_restore"), pgtest.Tool(t, "psql")
	url := pgtest.Migrated(t)
	runOK(t, binary, "store", "copy", seedLibrary(t), url)
	origLib := t.TempDir()
	orig := startHTTP(t, "--store", url, "--library", origLib, "--allow-unauthenticated", "--quiet")
	cs := orig.connect(t)
	for i := range 3 { // archived versions and provenance records to restore
		if res, err := commitEntity(cs, "codex", fmt.Sprintf("Backup probe %d", i)); callFailure(res, err) != "" {
			t.Fatal(callFailure(res, err))
		}
	}
	dumps := t.TempDir()
	custom, plain := filepath.Join(dumps, "bourdon.dump"), filepath.Join(dumps, "bourdon.sql")
	runOK(t, pgDump, "--format=custom", "--file="+custom, "--dbname="+url)
	runOK(t, pgDump, "--format=plain", "--no-owner", "--file="+plain, "--dbname="+url)
	want := tableDigests(t, url)
	version, records, archived := rowCounts(t, url, "codex")
	if strings.HasPrefix(want["bourdon_manifests"], "0 rows") {
		t.Fatal("the dumped store holds no manifests")
	}
	for _, restore := range []struct {
		name string
		into func(target string)
	}{
		{"pg_restore", func(target string) {
			runOK(t, pgRestore, "--no-owner", "--single-transaction", "--exit-on-error", "--dbname="+target, custom)
		}},
		{"psql", func(target string) {
			runOK(t, psql, "--quiet", "--no-psqlrc", "--single-transaction", "--set=ON_ERROR_STOP=1", "--dbname="+target, "--file="+plain)
		}},
	} {
		lib := t.TempDir() // the parent's: a subtest's name in the path reads as a credential to export_agents' redaction
		t.Run(restore.name, func(t *testing.T) {
			target := pgtest.URL(t) // a new, empty database
			restore.into(target)
			if out := runOK(t, binary, "store", "migrate", "--store", target); !strings.Contains(out, "nothing to do") {
				t.Errorf("store migrate on the restored database: %s", out)
			}
			got := tableDigests(t, target)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("restored tables differ:\n%v\nwant\n%v", got, want)
			}
			restored := startHTTP(t, "--store", target, "--library", lib, "--allow-unauthenticated", "--quiet")
			rs := restored.connect(t)
			normal := func(v any) string {
				if m, ok := v.(map[string]any); ok {
					delete(m, "recognition_latency_us") // a measured time
				}
				data, _ := json.Marshal(v)
				s := string(data)
				for _, r := range []struct{ old, new string }{{postgres.Redact(url), "STORE"}, {postgres.Redact(target), "STORE"}, {origLib, "LIB"}, {lib, "LIB"}} {
					s = strings.ReplaceAll(s, r.old, r.new)
				}
				return s
			}
			answersAlike(t, cs, rs, normal, "after a restore", "the original")
			if res, err := commitEntity(rs, "codex", "After the restore"); callFailure(res, err) != "" {
				t.Fatalf("commit on the restored store: %s", callFailure(res, err))
			}
			if v, r, a := rowCounts(t, target, "codex"); v != version+1 || r != records+1 || a != archived+1 {
				t.Errorf("codex after a commit on the restored store: version %d, %d provenance records, %d archived versions; want %d, %d, %d", v, r, a, version+1, records+1, archived+1)
			}
			if _, err := dbConn(t, target).Exec(context.Background(), "DELETE FROM bourdon_provenance"); err == nil || !strings.Contains(err.Error(), "append-only") {
				t.Errorf("deleting provenance on the restored store: %v, want the append-only refusal", err)
			}
		})
	}
}

// runOK runs a program and returns its output, failing t if it fails.
func runOK(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(name), strings.Join(args[:1], " "), err, out)
	}
	return string(out)
}

// dbConn connects to the database at url, closed when t ends.
func dbConn(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// tableDigests reads every bourdon_ table of the database at url: by
// table, the md5 of its rows as text in order, and for bourdon_manifests
// the agents' digests and versions themselves.
func tableDigests(t *testing.T, url string) map[string]string {
	t.Helper()
	ctx := context.Background()
	conn := dbConn(t, url)
	rows, _ := conn.Query(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = 'public' AND table_name LIKE 'bourdon\_%' ORDER BY 1`)
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, table := range tables {
		var sum string
		q := fmt.Sprintf(`SELECT count(*) || ' rows, md5 ' || coalesce(md5(string_agg(r::text, E'\n' ORDER BY r::text)), '-') FROM %s r`, pgx.Identifier{table}.Sanitize())
		if table == "bourdon_documents" {
			// A replica writes its drift watermarks after it answers, so
			// they may change between the dump and this digest.
			q += ` WHERE name <> '.bourdon/watermarks.json'`
		}
		if err := conn.QueryRow(ctx, q).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		out[table] = sum
	}
	rows, _ = conn.Query(ctx, `SELECT agent_id || ' ' || digest || ' v' || version FROM bourdon_manifests ORDER BY agent_id`)
	manifests, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	out["bourdon_manifests"] += "; " + strings.Join(manifests, ", ")
	return out
}

// TestLockTimeoutEndsAQueuedWrite sets lock_timeout on the database, as
// docs/deploy.md's recipe does on the role: a commit queued on an agent's
// advisory lock (held here by another session) past it is a tool error
// naming the store and the timeout, leaves nothing behind, and the next
// commit, once the lock is free, goes through.
func TestLockTimeoutEndsAQueuedWrite(t *testing.T) {
	url := pgtest.Migrated(t)
	ctx := context.Background()
	holder := dbConn(t, url)
	if _, err := holder.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{holder.Config().Database}.Sanitize()+" SET lock_timeout = '200ms'"); err != nil {
		t.Fatal(err)
	}
	s := startHTTP(t, "--store", url, "--library", t.TempDir(), "--allow-unauthenticated", "--quiet")
	cs := s.connect(t)
	const lock = "SELECT %s(hashtextextended('bourdon:agent:team', 0))" // the key store/postgres locks an agent's writes with
	if _, err := holder.Exec(ctx, fmt.Sprintf(lock, "pg_advisory_lock")); err != nil {
		t.Fatal(err)
	}
	res, err := commitEntity(cs, "team", "queued")
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := mcptest.SingleText(res); !res.IsError || !strings.Contains(text, "the store "+postgres.Redact(url)+" failed: ") || !strings.Contains(text, "lock timeout") {
		t.Errorf("a commit queued past lock_timeout: isError=%v %s", res.IsError, text)
	}
	if _, err := holder.Exec(ctx, fmt.Sprintf(lock, "pg_advisory_unlock")); err != nil {
		t.Fatal(err)
	}
	if res, err := commitEntity(cs, "team", "after"); callFailure(res, err) != "" {
		t.Fatalf("a commit once the lock is free: %s", callFailure(res, err))
	}
	if version, records, archived := rowCounts(t, url, "team"); version != 1 || records != 1 || archived != 0 {
		t.Errorf("team: version %d, %d provenance records, %d archived versions; want the second commit alone", version, records, archived)
	}
}
