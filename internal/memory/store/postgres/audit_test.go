package postgres_test

import (
	"context"
	"fmt"
	neturl "net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// ts is the entry time of minute m and microsecond us of 2026-06-29.
func ts(m, us int) string {
	return trust.FormatTS(time.Date(2026, 6, 29, 10, m, 0, us*1000, time.UTC))
}

// lines returns what a reader shows of a log for f: each entry's JSON
// line and table row, newest first, as bourdon audit prints them.
func lines(t *testing.T, a *trust.Audit, f trust.AuditFilter) ([]string, bool) {
	t.Helper()
	var out []string
	full, err := a.Recent(f, func(e trust.Entry) bool {
		out = append(out, string(e.Line()), e.TableRow())
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, full
}

func record(t *testing.T, a *trust.Audit, es ...trust.Entry) {
	t.Helper()
	for _, e := range es {
		if err := a.Record(e); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAuditOfTwoReplicasReadsInTimeOrder: two replicas write one log;
// a third process reads every entry of both in time order, whichever
// replica wrote it and whenever it arrived, and equal entries of one
// microsecond in the order they arrived.
func TestAuditOfTwoReplicasReadsInTimeOrder(t *testing.T) {
	url := pgtest.Migrated(t)
	a := trust.NewAudit(pgtest.Open(t, url).AuditLog())
	b := trust.NewAudit(pgtest.Open(t, url).AuditLog())
	var want []trust.Entry
	for i := range 40 {
		e := trust.Entry{TS: ts(i/4, i%4*10), Agent: fmt.Sprintf("agent-%d", i%3), Op: "find_entity", Namespace: "ns", Decision: trust.Allow}
		if i%5 == 0 {
			e.Decision, e.Detail = trust.Deny, "tier"
		}
		want = append(want, e)
	}
	// a writes the odd entries, then b, whose clock runs behind, the
	// even ones: they arrive after a's later ones.
	for start, replica := range []*trust.Audit{a, b} {
		for i := 1 - start; i < len(want); i += 2 {
			record(t, replica, want[i])
		}
	}
	same := trust.Entry{TS: ts(59, 0), Agent: "x", Op: "first", Namespace: "*", Decision: trust.Allow}
	second := same
	second.Op = "second"
	record(t, b, same)
	record(t, a, second)
	want = append(want, same, second)

	reader := trust.NewAudit(pgtest.Open(t, url).AuditLog())
	got, err := reader.Entries(trust.AuditFilter{})
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("entries of both replicas:\n got %v\nwant %v (%v)", got, want, err)
	}
	got, err = reader.Entries(trust.AuditFilter{Agent: "agent-1", DenialsOnly: true})
	var denied []trust.Entry
	for _, e := range want {
		if e.Agent == "agent-1" && e.Decision == trust.Deny {
			denied = append(denied, e)
		}
	}
	if err != nil || !slices.Equal(got, denied) {
		t.Errorf("agent-1's denials: %v, want %v (%v)", got, denied, err)
	}
	// More entries than one page of a read, then a limit.
	for i := range 1200 {
		record(t, a, trust.Entry{TS: trust.FormatTS(time.Date(2026, 7, 1, 0, 0, 0, i*1000, time.UTC)), Agent: "bulk", Op: "op"})
	}
	all, err := reader.Entries(trust.AuditFilter{Agent: "bulk"})
	if err != nil || len(all) != 1200 || all[0].TS >= all[1199].TS {
		t.Errorf("1200 bulk entries: %d (%v)", len(all), err)
	}
	last, full := lines(t, reader, trust.AuditFilter{Limit: 3})
	if !full || len(last) != 6 || last[0] != string(all[1199].Line()) {
		t.Errorf("the last 3: %v full=%v", last, full)
	}
}

// TestAuditShowsWhatTheFileShows: the same entries recorded in a file and
// in the database read back as the same lines and rows, for every
// filter bourdon audit has.
func TestAuditShowsWhatTheFileShows(t *testing.T) {
	file := trust.OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	db := trust.NewAudit(pgtest.Open(t, pgtest.Migrated(t)).AuditLog())
	es := []trust.Entry{
		{TS: ts(1, 0), Agent: "alice", Op: "find_entity"},
		{TS: ts(2, 0), Agent: "bob", Op: "commit_memory", Namespace: "team/ä", Decision: trust.Deny, Detail: `tier "public" \ no`},
		{TS: ts(3, 0), Agent: "alice", Op: "list_recent_work", Decision: trust.Allow, Detail: "staged"},
		{TS: ts(4, 0), Agent: "carol", Op: "x\ty\u0001", Namespace: "ns", Decision: trust.Deny, Detail: "line\nbreak"},
		{TS: "2026-06-29T12:05:00+02:00", Agent: "dave", Op: "zone"},
	}
	for _, a := range []*trust.Audit{file, db} {
		record(t, a, es...)
	}
	for _, f := range []trust.AuditFilter{
		{}, {Limit: 2}, {Agent: "alice"}, {DenialsOnly: true},
		{Since: time.Date(2026, 6, 29, 10, 3, 0, 0, time.UTC)},
	} {
		want, wantFull := lines(t, file, f)
		got, full := lines(t, db, f)
		if !slices.Equal(got, want) || full != wantFull || len(want) == 0 {
			t.Errorf("%+v:\n got %q %v\nwant %q %v", f, got, full, want, wantFull)
		}
	}
}

func partitions(t *testing.T, url string) []string {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	rows, _ := conn.Query(context.Background(), `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'bourdon_audit'::regclass ORDER BY 1`)
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func count(t *testing.T, url, table string) int {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var n int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAuditPartitionsAndRetention: months get their partitions ahead and
// on first use; an entry whose month's partition cannot be made lands in
// the DEFAULT partition; pruning drops whole months, and the DEFAULT
// partition's older rows, and keeps the rest readable.
func TestAuditPartitionsAndRetention(t *testing.T) {
	ctx := context.Background()
	url := pgtest.Migrated(t)
	log := pgtest.Open(t, url).AuditLog()
	if err := log.Prepare(ctx, time.Date(2030, 12, 15, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if got := partitions(t, url); !slices.Equal(got, []string{"bourdon_audit_2030_12", "bourdon_audit_2031_01", "bourdon_audit_default"}) {
		t.Errorf("after Prepare in December 2030: %v", got)
	}
	a := trust.NewAudit(log)
	at := func(y int, m time.Month) string { return trust.FormatTS(time.Date(y, m, 10, 0, 0, 0, 0, time.UTC)) }
	record(t, a, trust.Entry{TS: at(2030, 12), Agent: "dec"}, trust.Entry{TS: at(2031, 2), Agent: "feb"})
	if got := partitions(t, url); !slices.Contains(got, "bourdon_audit_2031_02") || !slices.Contains(got, "bourdon_audit_2031_03") {
		t.Errorf("an entry of February 2031 made its month and the next: %v", got)
	}
	// A row already in the DEFAULT partition for May 2031 (written by a
	// role that may not create tables) keeps that month's partition from
	// being made: entries of May still land.
	if err := exec(t, url, `INSERT INTO bourdon_audit (at, ts, agent, op, namespace, decision, detail)
		VALUES ('2031-05-01T00:00:00Z', '2031-05-01T00:00:00.000000Z', 'early', 'op', '*', 'allow', '')`); err != nil {
		t.Fatal(err)
	}
	record(t, a, trust.Entry{TS: at(2031, 5), Agent: "may"})
	if n := count(t, url, "bourdon_audit_default"); n != 2 {
		t.Errorf("%d rows in the default partition, want 2", n)
	}
	es, err := a.Entries(trust.AuditFilter{})
	if err != nil || len(es) != 4 || es[3].Agent != "may" {
		t.Fatalf("entries: %v (%v)", es, err)
	}

	if _, err := log.Prune(ctx, time.Date(2031, 2, 3, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("pruning before the middle of a month")
	}
	st, err := log.Prune(ctx, time.Date(2031, 2, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || !slices.Equal(st.Partitions, []string{"bourdon_audit_2030_12", "bourdon_audit_2031_01"}) || st.Entries != 1 {
		t.Fatalf("prune before February 2031: %+v (%v)", st, err)
	}
	es, err = a.Entries(trust.AuditFilter{})
	if err != nil || len(es) != 3 || es[0].Agent != "feb" {
		t.Fatalf("entries after the prune: %v (%v)", es, err)
	}
	// Pruning rewrote the DEFAULT partition: its rows are in May's now.
	if n := count(t, url, "bourdon_audit_default"); n != 0 {
		t.Errorf("%d rows left in the default partition", n)
	}
	st, err = log.Prune(ctx, time.Date(2031, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || st.Entries != 3 {
		t.Fatalf("prune before June 2031: %+v (%v)", st, err)
	}
	if es, _ := a.Entries(trust.AuditFilter{}); len(es) != 0 {
		t.Errorf("entries left: %v", es)
	}
	record(t, a, trust.Entry{TS: at(2031, 4), Agent: "late"})
	if es, _ := a.Entries(trust.AuditFilter{}); len(es) != 1 {
		t.Errorf("an entry of a pruned month is recorded again: %v", es)
	}
}

func TestAuditIsAppendOnly(t *testing.T) {
	url := pgtest.Migrated(t)
	record(t, trust.NewAudit(pgtest.Open(t, url).AuditLog()), trust.Entry{TS: ts(0, 0), Agent: "a", Op: "op"})
	month := "bourdon_audit_2026_06"
	for _, sql := range []string{
		"UPDATE bourdon_audit SET agent = 'b'",
		"DELETE FROM bourdon_audit",
		"DELETE FROM " + month,
		"UPDATE " + month + " SET detail = 'x'",
	} {
		if err := exec(t, url, sql); err == nil || !contains(err, "append-only") {
			t.Errorf("%s: %v", sql, err)
		}
	}
}

// TestAuditImportAndEach: a log copied in comes out in the same order;
// a log that has entries takes no copy.
func TestAuditImportAndEach(t *testing.T) {
	ctx := context.Background()
	log := pgtest.Open(t, pgtest.Migrated(t)).AuditLog()
	var want []trust.Entry
	for i := range 1100 {
		want = append(want, trust.Entry{TS: trust.FormatTS(time.Date(2025, time.Month(1+i%12), 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)), Agent: "a", Op: "op", Namespace: "*", Decision: trust.Allow})
	}
	slices.SortStableFunc(want, func(x, y trust.Entry) int { xt, _ := x.Time(); yt, _ := y.Time(); return xt.Compare(yt) })
	each := func(yield func(trust.Entry) error) error {
		for _, e := range want {
			if err := yield(e); err != nil {
				return err
			}
		}
		return nil
	}
	n, err := log.Import(ctx, each)
	if err != nil || n != len(want) {
		t.Fatalf("imported %d: %v", n, err)
	}
	var got []trust.Entry
	if err := log.Each(ctx, func(e trust.Entry) error { got = append(got, e); return nil }); err != nil || !slices.Equal(got, want) {
		t.Fatalf("Each returned %d entries, want %d (%v)", len(got), len(want), err)
	}
	if _, err := log.Import(ctx, each); err == nil || !contains(err, "already has entries") {
		t.Errorf("a second import: %v", err)
	}
}

// TestAuditOfADownDatabase: while the database is down, a call is
// answered all the same and the audit write fails with an error naming
// the store (never its password); once it is back, entries are recorded
// again, without a restart.
func TestAuditOfADownDatabase(t *testing.T) {
	srv := pgtest.NewServer(t)
	url := srv.Migrated(t)
	audit := trust.NewAudit(pgtest.Open(t, url).AuditLog())
	lib := mcptest.CopyDir(t, filepath.Join("..", "..", "..", "..", "testdata", "conformance", "fed_seed_library"))
	server, _ := mcptest.NewServer(t, lib, mcpserver.Options{Audit: audit})
	cs := mcptest.Connect(t, server.Server, "in-memory")
	find := func() {
		t.Helper()
		if _, res := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "Payments API"}); res.IsError {
			t.Fatalf("find_entity: %v", res.Content)
		}
	}
	srv.Stop(t)
	find()
	err := audit.Record(trust.Entry{Agent: "a", Op: "op"})
	if err == nil || !contains(err, "the store postgres://") {
		t.Errorf("recording into a stopped database: %v", err)
	}
	srv.Start(t)
	// Each pooled connection the restart cut may fail one write before
	// the pool replaces it; this test used one or two.
	for range 5 {
		find()
	}
	es, err := audit.Entries(trust.AuditFilter{})
	if err != nil || len(es) == 0 || es[0].Op != "find_entity" {
		t.Errorf("entries after the restart: %v (%v)", es, err)
	}
}

// TestAuditUnderARoleThatCannotErase: replicas run as a role granted only
// SELECT and INSERT on the log (deploy.md's advice) record and read
// entries, their months in the DEFAULT partition since they cannot make
// partitions, and can neither delete entries nor drop a partition.
func TestAuditUnderARoleThatCannotErase(t *testing.T) {
	url := pgtest.Migrated(t)
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	role := "auditor_" + strings.TrimPrefix(u.Path, "/")
	if err := exec(t, url, fmt.Sprintf(`CREATE ROLE %[1]s LOGIN PASSWORD 'secret';
		GRANT SELECT ON bourdon_schema_migrations TO %[1]s;
		GRANT SELECT, INSERT ON bourdon_audit TO %[1]s;
		GRANT USAGE ON SEQUENCE bourdon_audit_seq TO %[1]s`, role)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = exec(t, url, fmt.Sprintf("DROP OWNED BY %[1]s; DROP ROLE %[1]s", role)) })
	u.User = neturl.UserPassword(role, "secret")
	replica := u.String()
	log := pgtest.Open(t, replica).AuditLog()
	if err := log.Prepare(context.Background(), time.Date(2032, 3, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("a role without CREATE made partitions")
	}
	a := trust.NewAudit(log)
	record(t, a, trust.Entry{TS: trust.FormatTS(time.Date(2032, 3, 5, 0, 0, 0, 0, time.UTC)), Agent: "a", Op: "op"})
	if es, err := a.Entries(trust.AuditFilter{}); err != nil || len(es) != 1 {
		t.Fatalf("entries: %v (%v)", es, err)
	}
	if n := count(t, url, "bourdon_audit_default"); n != 1 {
		t.Errorf("%d rows in the default partition, want 1", n)
	}
	for _, sql := range []string{"DELETE FROM bourdon_audit", "DROP TABLE bourdon_audit_default", "TRUNCATE bourdon_audit"} {
		if err := exec(t, replica, sql); err == nil {
			t.Errorf("the replica's role ran %s", sql)
		}
	}
	if n := count(t, url, "bourdon_audit"); n != 1 {
		t.Errorf("%d entries left, want 1", n)
	}
}
