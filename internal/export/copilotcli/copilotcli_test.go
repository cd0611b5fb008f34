package copilotcli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"

	_ "modernc.org/sqlite"
)

// schemaV4 is the session store's layout as Copilot CLI writes it
// (schema_version 4), with the columns the exporter reads and the ones it
// must leave alone.
var schemaV4 = []string{
	`CREATE TABLE schema_version (version INTEGER NOT NULL)`,
	`INSERT INTO schema_version VALUES (4)`,
	`CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT,
		summary TEXT, created_at TEXT, updated_at TEXT)`,
	`CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, turn_index INTEGER NOT NULL,
		user_message TEXT, assistant_response TEXT, timestamp TEXT, UNIQUE(session_id, turn_index))`,
	`CREATE TABLE checkpoints (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
		checkpoint_number INTEGER NOT NULL, title TEXT, overview TEXT, history TEXT, work_done TEXT,
		technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT,
		UNIQUE(session_id, checkpoint_number))`,
	`CREATE TABLE session_files (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,
		file_path TEXT NOT NULL, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT, UNIQUE(session_id, file_path))`,
	`CREATE TABLE session_refs (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, ref_type TEXT NOT NULL,
		ref_value TEXT NOT NULL, turn_index INTEGER, created_at TEXT, UNIQUE(session_id, ref_type, ref_value))`,
	`CREATE TABLE dynamic_context_items (repository TEXT NOT NULL, branch TEXT NOT NULL, src TEXT NOT NULL,
		name TEXT NOT NULL, description TEXT NOT NULL DEFAULT '', content TEXT NOT NULL DEFAULT '',
		read_count INTEGER NOT NULL DEFAULT 0, count INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (repository, branch, src, name))`,
}

// The sentinel sits in columns the exporter never reads (turn bodies,
// checkpoint overviews and history): it must never reach the manifest.
const sentinel = "COPILOT_CLI_SENTINEL_DO_NOT_LEAK"

// fixture is a realistic store: three repositories, dates across two
// months, unicode, a credential in a summary, a row whose summary is not
// UTF-8, a session with no date, a personal dynamic-context item.
var fixture = []string{
	`INSERT INTO sessions VALUES
		('s-refunds', '/home/dev/src/payments-api', 'acme/payments-api', 'cli', 'main',
		 'Add refund idempotency keys', '2026-11-02T09:00:00.000Z', '2026-11-02T10:30:00.000Z'),
		('s-cafe', '/home/dev/src/café-menu', 'acme/café-menu', 'cli', 'feat/ünïcode',
		 'Traduire le menu du café ☕ en japonais — メニュー', '2026-11-05T14:00:00.000Z', '2026-11-05T15:00:00.000Z'),
		('s-secret', '/home/dev/src/payments-api', 'acme/payments-api', 'cli', 'main',
		 'rotate the STRIPE api_key in staging', '2026-11-04T08:15:00.000Z', '2026-11-04T08:45:00.000Z'),
		('s-docs', '/home/dev/notes', NULL, 'cli', NULL,
		 '  see   https://example.com/guide?x=1 for   the
		  release checklist  ', '2026-10-28 17:05:00', '2026-10-28 18:00:00'),
		('s-late', '/home/dev/src/infra', 'acme/infra', 'cli', 'main',
		 NULL, NULL, '2026-11-06T07:00:00+01:00'),
		('s-nodate', '/home/dev/tmp', 'acme/tmp', 'cli', 'main', 'no timestamps at all', NULL, NULL),
		('s-binary', '/home/dev/src/infra', 'acme/infra', 'cli', 'main',
		 CAST(x'6f6b20ff20626164' AS TEXT), '2026-11-03T11:00:00.000Z', '2026-11-03T11:00:00.000Z')`,
	`INSERT INTO turns (session_id, turn_index, user_message, assistant_response) VALUES
		('s-refunds', 0, 'add idempotency keys ` + sentinel + `', 'done ` + sentinel + `'),
		('s-refunds', 1, 'and tests', 'ok'), ('s-refunds', 2, 'migrate', 'ok'),
		('s-refunds', 3, 'wire', 'ok'), ('s-refunds', 4, 'ship', 'ok'),
		('s-cafe', 0, 'traduis', 'はい')`,
	`INSERT INTO checkpoints (session_id, checkpoint_number, title, overview, history) VALUES
		('s-refunds', 1, 'Idempotency table migration', '` + sentinel + `', '` + sentinel + `'),
		('s-refunds', 2, 'Handler wired', 'x', 'x'),
		('s-refunds', 3, 'Tests green', 'x', 'x'),
		('s-refunds', 4, 'Deployed to staging', 'x', 'x'),
		('s-cafe', 1, NULL, 'untitled checkpoint', 'x'),
		('s-cafe', 2, 'Menu en 日本語', 'x', 'x')`,
	`INSERT INTO session_files (session_id, file_path, tool_name, turn_index) VALUES
		('s-refunds', 'src/refunds/handler.go', 'edit', 0),
		('s-refunds', 'migrations/0042_idempotency.sql', 'create', 1),
		('s-refunds', 'src/refunds/handler_test.go', 'create', 2),
		('s-cafe', 'menu/ja.md', 'create', 0)`,
	`INSERT INTO session_refs (session_id, ref_type, ref_value) VALUES
		('s-refunds', 'commit', '3f2a9c1'), ('s-refunds', 'pr', '#412'),
		('s-refunds', 'issue', '#77'), ('s-refunds', 'commit', 'b7e01d4'),
		('s-cafe', 'pr', '#9')`,
	`INSERT INTO dynamic_context_items VALUES
		('acme/payments-api', 'main', 'copilot', 'refund-patterns',
		 'Refunds are idempotent: the key is the order id plus the attempt number.', '', 3, 12),
		('acme/payments-api', 'main', 'user', 'acme/payments-api', 'duplicate of the repository', '', 1, 9),
		('acme/café-menu', 'main', '', 'menu-style', '', 'Le menu suit la charte « Café Ünïcode ».', 0, 5),
		('acme/infra', 'main', 'personal', 'home-network', 'my home router notes', '', 0, 4),
		('acme/infra', 'main', 'copilot', '', 'nameless item', '', 0, 2)`,
}

func newStore(t testing.TB, path string, stmts ...[]string) {
	t.Helper()
	db, err := sql.Open("sqlite", nativestore.DSN(path, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, list := range stmts {
		for _, q := range list {
			if _, err := db.Exec(q); err != nil {
				t.Fatalf("%v\n%s", err, q)
			}
		}
	}
}

func home(t *testing.T) (*export.Env, string) {
	t.Helper()
	env := exporttest.Env(t, nil)
	dir := filepath.Join(env.Home, ".copilot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return env, filepath.Join(dir, dbName)
}

func export1(t *testing.T, env *export.Env, opts export.Options) *export.Output {
	t.Helper()
	out, err := Exporter{}.Export(context.Background(), env, opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportGolden(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture)
	out := export1(t, env, export.Options{})
	exporttest.Golden(t, "copilot-cli", out, env.Home)

	data := manifest(t, out, env)
	if strings.Contains(string(data), sentinel) || strings.Contains(string(data), "STRIPE") {
		t.Error("a column the exporter must not read, or a redacted summary, reached the manifest")
	}
	if strings.Contains(string(data), "home-network") {
		t.Error("an entity tagged personal must be dropped")
	}
	var msgs []string
	for _, w := range out.Warnings {
		if w.File != db {
			t.Errorf("warning %q does not name the store", w)
		}
		msgs = append(msgs, w.Msg)
	}
	want := []string{
		`session "s-binary" skipped: its summary is not valid UTF-8`,
		`session "s-nodate" skipped: neither created_at nor updated_at is a date`,
	}
	if !slices.Equal(msgs, want) {
		t.Errorf("warnings = %q, want %q", msgs, want)
	}
}

func TestSinceIsAnInstant(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture)
	since := time.Date(2026, 11, 4, 8, 15, 0, 0, time.UTC)
	out := export1(t, env, export.Options{Since: since})
	var dates []string
	for _, s := range out.Sessions {
		dates = append(dates, s.Date)
	}
	// s-late's only stamp is its updated_at, 06:00 UTC; the rest are kept
	// at or after 08:15 on the 4th.
	if want := []string{"2026-11-06", "2026-11-05", "2026-11-04"}; !slices.Equal(dates, want) {
		t.Errorf("dates = %v, want %v", dates, want)
	}
	var names []string
	for _, e := range out.Entities {
		names = append(names, e.Name)
	}
	if want := []string{"acme/infra", "acme/café-menu", "acme/payments-api", "refund-patterns", "menu-style"}; !slices.Equal(names, want) {
		t.Errorf("entities = %q, want %q", names, want)
	}
}

func TestMissingStoreIsNotInstalled(t *testing.T) {
	env := exporttest.Env(t, nil)
	_, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if !errors.Is(err, export.ErrNotInstalled) {
		t.Fatalf("err = %v, want ErrNotInstalled", err)
	}
	if p := (Exporter{}).Detect(env); p.Present || p.Path != filepath.Join(env.Home, ".copilot") {
		t.Errorf("Detect = %+v", p)
	}
	if h := (Exporter{}).Health(context.Background(), env); h.Status != export.StatusBlocked || h.Details[0].Key != "expected_path" {
		t.Errorf("Health = %+v", h)
	}
	if err := os.Mkdir(filepath.Join(env.Home, ".copilot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if p := (Exporter{}).Detect(env); !p.Present {
		t.Errorf("Detect = %+v", p)
	}
	if h := (Exporter{}).Health(context.Background(), env); h.Status != export.StatusBlocked || h.Details[0].Key != "expected_db" {
		t.Errorf("Health = %+v", h)
	}
}

func TestCopilotCLIHomeIsHonoured(t *testing.T) {
	env := exporttest.Env(t, map[string]string{"COPILOT_CLI_HOME": "~/elsewhere"})
	dir := filepath.Join(env.Home, "elsewhere")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	newStore(t, filepath.Join(dir, dbName), schemaV4, fixture)
	if p := (Exporter{}).Detect(env); !p.Present || p.Path != dir {
		t.Errorf("Detect = %+v", p)
	}
	if out := export1(t, env, export.Options{}); len(out.Sessions) != 5 {
		t.Errorf("%d sessions", len(out.Sessions))
	}
}

func TestCorruptStoreIsAnErrorNamingIt(t *testing.T) {
	env, db := home(t)
	exporttest.Write(t, db, strings.Repeat("this is not SQLite\n", 400))
	_, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err == nil || errors.Is(err, export.ErrNotInstalled) || !strings.Contains(err.Error(), db) {
		t.Fatalf("err = %v", err)
	}
	hl := Exporter{}.Health(context.Background(), env)
	if hl.Status != export.StatusDegraded || hl.Reason != "session-store.db is not a readable SQLite database." {
		t.Errorf("Health = %+v", hl)
	}
}

func TestAStoreWithoutSessionsTableIsAnError(t *testing.T) {
	env, db := home(t)
	newStore(t, db, []string{"CREATE TABLE other (x)"})
	_, err := Exporter{}.Export(context.Background(), env, export.Options{})
	if err == nil || !strings.Contains(err.Error(), "sessions") {
		t.Fatalf("err = %v", err)
	}
}

func TestAnotherSchemaVersionIsReadAndSaidSo(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture, []string{"INSERT INTO schema_version VALUES (5)"})
	out := export1(t, env, export.Options{})
	if len(out.Sessions) != 5 || out.Warnings[0].Msg != "schema version 5, read as version 4" {
		t.Errorf("sessions %d, warnings %q", len(out.Sessions), out.Warnings)
	}
}

func TestMissingSideTablesAreWarnedOnce(t *testing.T) {
	env, db := home(t)
	newStore(t, db, []string{schemaV4[2], `INSERT INTO sessions (id, repository, summary, created_at) VALUES
		('a', 'r/one', 'first', '2026-11-01T00:00:00Z'), ('b', 'r/two', 'second', '2026-11-02T00:00:00Z')`})
	out := export1(t, env, export.Options{})
	if len(out.Sessions) != 2 || len(out.Entities) != 2 {
		t.Fatalf("sessions %d entities %d", len(out.Sessions), len(out.Entities))
	}
	var tables []string
	for _, w := range out.Warnings {
		tables = append(tables, strings.Fields(w.Msg)[1])
	}
	if want := []string{"checkpoints", "turns", "session_refs", "session_files", "dynamic_context_items"}; !slices.Equal(tables, want) {
		t.Errorf("warned tables = %v (%q)", tables, out.Warnings)
	}
	manifest(t, out, env)
}

func TestHealthOK(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture)
	hl := Exporter{}.Health(context.Background(), env)
	st, _ := os.Stat(db)
	want := []export.Detail{
		{Key: "db_path", Value: db}, {Key: "db_size_bytes", Value: st.Size()},
		{Key: "session_count", Value: 7}, {Key: "total_turns", Value: 6}, {Key: "dynamic_context_items", Value: 5},
	}
	if hl.Status != export.StatusOK || !slices.Equal(hl.Details, want) {
		t.Errorf("Health = %+v", hl)
	}
}

// TestWALRowsAreSeen keeps the CLI's connection open in WAL mode, so the
// newest session lives only in session-store.db-wal.
func TestWALRowsAreSeen(t *testing.T) {
	env, path := home(t)
	w, err := sql.Open("sqlite", nativestore.DSN(path, "_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, q := range append(slices.Clone(schemaV4), fixture...) {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the test needs the rows in the -wal: %v", err)
	}
	out := export1(t, env, export.Options{})
	if len(out.Sessions) != 5 || out.Sessions[0].Date != "2026-11-06" {
		t.Errorf("sessions = %+v", out.Sessions)
	}
}

func TestIncrementalExport(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture)
	c := export.NewCache()
	first := manifest(t, export1(t, env, export.Options{Cache: c}), env)
	saved, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}

	c = export.LoadCache(saved)
	again := export1(t, env, export.Options{Cache: c})
	if hits, reads := c.Stats(); hits != 1 || reads != 0 {
		t.Errorf("unchanged store: hits %d reads %d", hits, reads)
	}
	if got := manifest(t, again, env); string(got) != string(first) {
		t.Error("the cached export differs from the first")
	}
	if len(again.Warnings) != 2 {
		t.Errorf("the cached export lost its warnings: %q", again.Warnings)
	}

	newStore(t, db, []string{`INSERT INTO sessions (id, repository, summary, created_at) VALUES
		('s-new', 'acme/new', 'brand new session', '2026-11-30T12:00:00Z')`})
	c = export.LoadCache(saved)
	out := export1(t, env, export.Options{Cache: c})
	if hits, reads := c.Stats(); hits != 0 || reads != 1 {
		t.Errorf("one new session: hits %d reads %d", hits, reads)
	}
	if out.Sessions[0].KeyActions[0] != "brand new session" {
		t.Errorf("newest = %+v", out.Sessions[0])
	}
}

// TestLargeStoreKeepsTheReferenceBounds writes more sessions than the
// exporter reads, with more files than a session lists.
func TestLargeStoreKeepsTheReferenceBounds(t *testing.T) {
	env, db := home(t)
	var b strings.Builder
	b.WriteString("INSERT INTO sessions (id, repository, summary, created_at) VALUES ")
	for i := range 260 {
		if i > 0 {
			b.WriteString(",")
		}
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
		fmt.Fprintf(&b, "('s%03d', 'acme/repo-%03d', 'session %d %s', '%s')", i, i, i,
			strings.Repeat("long words ", 40), at.Format("2006-01-02T15:04:05.000Z"))
	}
	var f strings.Builder
	f.WriteString("INSERT INTO session_files (session_id, file_path) VALUES ")
	for i := range 40 {
		if i > 0 {
			f.WriteString(",")
		}
		fmt.Fprintf(&f, "('s259', 'src/file-%02d.go')", i)
	}
	newStore(t, db, schemaV4, []string{b.String(), f.String()})
	out := export1(t, env, export.Options{})
	if len(out.Sessions) != maxSessions || len(out.Entities) != maxRead {
		t.Errorf("sessions %d entities %d", len(out.Sessions), len(out.Entities))
	}
	if got := out.Sessions[0]; len(got.FilesTouched) != maxFiles || !strings.HasSuffix(got.KeyActions[0], "...") {
		t.Errorf("newest session = %+v", got)
	}
	if out.Entities[len(out.Entities)-1].Name != "acme/repo-060" {
		t.Errorf("oldest entity read = %q", out.Entities[len(out.Entities)-1].Name)
	}
	manifest(t, out, env)
}

func TestManifestEncodesUnicode(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture)
	data, err := yaml11.Encode(export1(t, env, export.Options{}).Manifest(exporttest.LastUpdated))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	sessions := doc.(*yaml11.Map).Value("recent_sessions").([]any)
	cafe := sessions[1].(*yaml11.Map).Value("key_actions").([]any)[0]
	if cafe != "Traduire le menu du café ☕ en japonais — メニュー" {
		t.Errorf("round trip = %q", cafe)
	}
}

// manifest renders out as the golden files hold it and checks it against
// the L5 schema.
func manifest(t *testing.T, out *export.Output, env *export.Env) []byte {
	t.Helper()
	data := exporttest.Manifest(t, out, env.Home)
	exporttest.Valid(t, data)
	return data
}

// TestTheCacheKeepsNothingOfAPrivateRow: a dynamic-context item whose src
// is a private tag is not kept in the incremental cache, which lives in
// the library, and still keeps a later item of the same name out, as the
// export's dedupe does.
func TestTheCacheKeepsNothingOfAPrivateRow(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, fixture, []string{`INSERT INTO dynamic_context_items VALUES
		('acme/infra', 'dev', 'family', 'zebra-notes', 'Zebra diary of the kids', '', 9, 1),
		('acme/infra', 'main', 'copilot', 'zebra-notes', 'the team zebra copy', '', 0, 1)`})
	c := export.NewCache()
	first := manifest(t, export1(t, env, export.Options{Cache: c}), env)
	exporttest.CacheLacks(t, c, "home-network", "home router", "zebra", "Zebra")
	for _, never := range []string{"home-network", "home router", "zebra", "Zebra"} {
		if strings.Contains(string(first), never) {
			t.Errorf("the manifest holds %q", never)
		}
	}
	saved, _ := c.Marshal()
	c = export.LoadCache(saved)
	again := manifest(t, export1(t, env, export.Options{Cache: c}), env)
	if _, reads := c.Stats(); reads != 0 || string(again) != string(first) {
		t.Errorf("the export from the cache differs (%d reads)", reads)
	}
}

// Rows that tie on the sort key keep the table's order, as the reference's
// plain ORDER BY leaves them (found by the differential test,
// internal/export/probe/difftool): items used as often, and sessions
// created at the same instant, are not re-sorted by name or id.
func TestTiesKeepTheTablesOrder(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, []string{
		`INSERT INTO sessions VALUES
			('s-b', '/w', 'acme/zeta', 'cli', 'main', 'Second id, first row', '2026-11-02T09:00:00.000Z', NULL),
			('s-a', '/w', 'acme/alpha', 'cli', 'main', 'First id, second row', '2026-11-02T09:00:00.000Z', NULL)`,
		`INSERT INTO dynamic_context_items (repository, branch, src, name, description, count) VALUES
			('acme/x', 'main', 'skill', 'replica', 'first row', 1),
			('acme/x', 'main', 'skill', 'invoice', 'second row', 1),
			('acme/x', 'main', 'skill', 'billing', 'used most', 4)`,
	})
	out := export1(t, env, export.Options{})
	var names []string
	for _, e := range out.Entities {
		names = append(names, e.Name)
	}
	if want := []string{"acme/zeta", "acme/alpha", "billing", "replica", "invoice"}; !slices.Equal(names, want) {
		t.Errorf("entities %v, want %v", names, want)
	}
	if got := out.Sessions[0].KeyActions[0]; got != "Second id, first row" {
		t.Errorf("first session %q", got)
	}
}

// A summary of spaces is still the session's first key action, empty once
// trimmed, as the reference writes it (found by the differential test).
func TestASummaryOfSpacesIsAnEmptyAction(t *testing.T) {
	env, db := home(t)
	newStore(t, db, schemaV4, []string{
		`INSERT INTO sessions VALUES ('s1', '/w', NULL, 'cli', 'main', '   ', '2026-11-02T09:00:00.000Z', NULL)`,
		`INSERT INTO turns (session_id, turn_index) VALUES ('s1', 0)`,
	})
	out := export1(t, env, export.Options{})
	if len(out.Sessions) != 1 || !slices.Equal(out.Sessions[0].KeyActions, []string{"", "turns: 1"}) {
		t.Errorf("sessions %+v", out.Sessions)
	}
	exporttest.Valid(t, exporttest.Manifest(t, out, env.Home))
}
