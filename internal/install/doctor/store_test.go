package doctor

import (
	"context"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// checksOf returns the report's lines of the given kinds, as text.
func checksOf(r *Report, kinds ...string) string {
	var b strings.Builder
	for _, c := range r.Checks {
		for _, k := range kinds {
			if c.Check == k {
				b.WriteString(strings.ToUpper(string(c.Status)) + " " + c.Check + ": " + c.Message)
				if c.Fix != "" {
					b.WriteString("; fix: " + c.Fix)
				}
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}

// TestDoctorOnAStore: with --store, doctor checks the database (it
// answers, its schema, pgvector) and the manifests in it, not the
// library directory; the exports' freshness and staged writes are the
// store's.
func TestDoctorOnAStore(t *testing.T) {
	m := healthy(t)
	url := pgtest.Migrated(t)
	pg := pgtest.Open(t, url)
	w := commit.OnStore(pg)
	other := "code-assistant"
	if _, err := w.Commit(context.Background(), commit.Request{AgentID: "claude-code", AgentType: &other, Entities: []any{map[string]any{"name": "payments-api"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Stage(context.Background(), "codex", commit.Request{AgentID: "codex", AgentType: &other}); err != nil {
		t.Fatal(err)
	}
	r := m.doctor(func(o *Options) { o.Store = url })
	where := postgres.Redact(url)
	got := checksOf(r, "store", "schema", "vectors", "library", "manifest", "staging")
	for _, want := range []string{
		"OK store: " + where + " answers (PostgreSQL ",
		"OK schema: schema version " + itoa(postgres.SchemaVersion()) + ", this bourdon's; no migration pending",
		"OK vectors: in memory (pgvector ",
		"OK library: " + where + " holds 1 manifest(s)",
		"OK manifest: 1 manifest(s) valid",
		"OK staging: 1 staged write(s) awaiting review",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if r.Library != where {
		t.Errorf("the report's library is %q, want %q", r.Library, where)
	}
	exports := checksOf(r, "export")
	if !strings.Contains(exports, "WARN export: never exported into "+where+"; fix: bourdon export-all --store "+where) {
		t.Errorf("codex has no manifest in the store:\n%s", exports)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestDoctorOnAStoreToMigrate: an empty database fails the schema check
// with the migrations pending and the command that applies them; a newer
// schema says to upgrade bourdon.
func TestDoctorOnAStoreToMigrate(t *testing.T) {
	m := healthy(t)
	url := pgtest.URL(t)
	r := m.doctor(func(o *Options) { o.Store = url })
	got := checksOf(r, "schema", "library")
	want := "FAIL schema: schema version 0, this bourdon needs " + itoa(postgres.SchemaVersion()) + ": "
	if !strings.Contains(got, want) || !strings.Contains(got, "0001_library.sql") || !strings.Contains(got, "fix: bourdon store migrate --store "+postgres.Redact(url)) || checksOf(r, "library") != "" || !r.Failed() {
		t.Errorf("an unmigrated database:\n%s", got)
	}
	if _, err := postgres.Migrate(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "INSERT INTO bourdon_schema_migrations (version, name) VALUES (9999, 'from the future')"); err != nil {
		t.Fatal(err)
	}
	got = checksOf(m.doctor(func(o *Options) { o.Store = url }), "schema")
	if !strings.Contains(got, "FAIL schema: schema version 9999, newer than this bourdon knows") || !strings.Contains(got, "fix: upgrade bourdon") {
		t.Errorf("a newer schema:\n%s", got)
	}
}

// TestDoctorOnAStoreThatDoesNotAnswer: a database that cannot be reached
// is one failed check, naming the store without its password.
func TestDoctorOnAStoreThatDoesNotAnswer(t *testing.T) {
	m := healthy(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	u := &url.URL{Scheme: "postgres", User: url.UserPassword("bourdon", "s3cret-pw"), Host: addr, Path: "/bourdon"}
	r := m.doctor(func(o *Options) { o.Store = u.String() })
	got := checksOf(r, "store", "schema", "library")
	if !strings.HasPrefix(got, "FAIL store: ") || strings.Count(got, "\n") != 1 || !strings.Contains(got, addr) || !r.Failed() {
		t.Errorf("an unreachable store:\n%s", got)
	}
	if all := text(r); strings.Contains(all, "s3cret-pw") {
		t.Errorf("the report shows the password:\n%s", all)
	}
}

// TestDoctorOnAStoreChecksItsAuditLog: on a store, the audit check is the
// table's (this month's partition, then OK), not the --audit-log file's.
func TestDoctorOnAStoreChecksItsAuditLog(t *testing.T) {
	m := healthy(t)
	url := pgtest.Migrated(t)
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "DROP TABLE IF EXISTS "+pgx.Identifier{"bourdon_audit_" + time.Now().UTC().Format("2006_01")}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	got := checksOf(m.doctor(func(o *Options) { o.Store = url }), "audit")
	if !strings.HasPrefix(got, "WARN audit: bourdon_audit has no partition bourdon_audit_"+time.Now().UTC().Format("2006_01")) || strings.Count(got, "\n") != 1 {
		t.Errorf("without this month's partition:\n%s", got)
	}
	if err := pgtest.Open(t, url).AuditLog().Prepare(context.Background(), time.Now()); err != nil {
		t.Fatal(err)
	}
	got = checksOf(m.doctor(func(o *Options) { o.Store = url }), "audit")
	if !strings.HasPrefix(got, "OK audit: decisions are recorded in bourdon_audit") {
		t.Errorf("with this month's partition:\n%s", got)
	}
}
