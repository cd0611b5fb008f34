package cursor

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
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
)

type fixture struct {
	t    testing.TB
	home string
	env  map[string]string
	goos string
}

func newFixture(t testing.TB) *fixture {
	return &fixture{t: t, home: t.TempDir(), env: map[string]string{}, goos: "linux"}
}

func (f *fixture) Env() *export.Env {
	return &export.Env{Home: f.home, Getenv: func(k string) string { return f.env[k] },
		Now: func() time.Time { return time.Date(2026, 12, 1, 19, 32, 28, 0, time.UTC) }, Hostname: "laptop", GOOS: f.goos}
}

func (f *fixture) root() string { return filepath.Join(f.home, ".config", "Cursor") }

type kv struct {
	key   string
	value any // marshalled to JSON, unless []byte (stored as is) or nil (NULL)
}

// db writes a state.vscdb with VS Code's tables. With wal the rows stay in
// the -wal file (a writer is kept open, as while Cursor runs).
func (f *fixture) db(rel string, wal bool, items []kv, disk []kv) string {
	f.t.Helper()
	path := filepath.Join(f.root(), rel, "state.vscdb")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	query := ""
	if wal {
		query = "_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)"
	}
	dsn := nativestore.DSN(path, query)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		f.t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
		"CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)",
	} {
		if _, err := db.Exec(q); err != nil {
			f.t.Fatal(err)
		}
	}
	insert := func(table string, rows []kv) {
		for _, r := range rows {
			var v any
			switch x := r.value.(type) {
			case nil:
			case []byte:
				v = x
			default:
				b, err := json.Marshal(x)
				if err != nil {
					f.t.Fatal(err)
				}
				v = b
			}
			if _, err := db.Exec("INSERT INTO "+table+" (key, value) VALUES (?, ?)", r.key, v); err != nil {
				f.t.Fatal(err)
			}
		}
	}
	insert("ItemTable", items)
	insert("cursorDiskKV", disk)
	if wal {
		f.t.Cleanup(func() { db.Close() })
	} else if err := db.Close(); err != nil {
		f.t.Fatal(err)
	}
	return path
}

func (f *fixture) write(path string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		f.t.Fatal(err)
	}
}

type obj = map[string]any

func ms(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

// realistic writes a global database (composers in cursorDiskKV), three
// workspaces (one per project, one of them corrupt) and a short index.
func (f *fixture) realistic() {
	f.t.Helper()
	f.db("User/globalStorage", true, []kv{
		{"workbench.panel.aichat.view.aichat.chatdata", obj{"tabs": []any{
			obj{"tabId": "t1", "chatTitle": "Explain the refund retry policy", "lastSendTime": ms("2026-10-30T10:00:00Z"),
				"bubbles": []any{obj{"type": "user", "text": "why do refund retries back off?"}}},
			obj{"tabId": "t2", "bubbles": []any{obj{"type": "user", "text": "What does the refund webhook send?"}}},
		}}},
		{"aiService.prompts", []any{obj{"text": "refund prompt", "commandType": 4}}},
	}, []kv{
		{"composerData:c-001", obj{"_v": 3, "composerId": "c-001", "name": "Refund idempotency middleware",
			"createdAt": ms("2026-11-03T09:00:00Z"), "lastUpdatedAt": ms("2026-11-04T17:20:00Z"),
			"conversation": []any{obj{"type": 1, "bubbleId": "b1", "text": "wire the refund idempotency middleware",
				"relevantFiles": []any{"api/refunds.ts", obj{"path": "api/db.ts"}},
				"context":       obj{"fileSelections": []any{obj{"uri": obj{"fsPath": "/home/dev/repos/payments-api/api/refunds.ts"}}}}},
				obj{"type": 2, "bubbleId": "b2", "text": "Done: added middleware."}}}},
		{"composerData:c-002", obj{"_v": 3, "composerId": "c-002", "createdAt": ms("2026-11-10T08:00:00Z"),
			"fullConversationHeadersOnly": []any{obj{"bubbleId": "b3", "type": 1}},
			"conversation":                []any{obj{"type": 1, "text": "Format café amounts with Intl — ¥ and € too"}}}},
		{"composerData:c-003", obj{"composerId": "c-003", "name": "set the api_key for the refund sandbox",
			"lastUpdatedAt": ms("2026-11-12T12:00:00Z")}},
		{"composerData:c-004", []byte("{truncated")},
		{"bubbleId:c-001:b1", obj{"type": 1, "text": "bubbles are not read"}},
	})

	pay := f.db("User/workspaceStorage/0a1b2c3d4e5f", false, []kv{
		{"composer.composerData", obj{"allComposers": []any{
			obj{"type": "head", "composerId": "c-001", "name": "Refund idempotency middleware", "lastUpdatedAt": ms("2026-11-04T17:20:00Z")},
			obj{"type": "head", "composerId": "c-003", "name": "set the api_key for the refund sandbox"},
			obj{"type": "head", "composerId": "c-005", "name": "Refund ledger reconciliation", "createdAt": ms("2026-11-14T15:00:00Z")},
		}, "selectedComposerIds": []any{"c-001"}}},
		// The reference's flat record shape.
		{"composer.flatHistory", obj{"workspacePath": "/home/dev/repos/payments-api", "title": "Add refund idempotency keys",
			"createdAt":    ms("2026-11-05T09:00:00Z"),
			"messages":     []any{obj{"role": "user", "content": "wire it", "files": []any{"api/refunds.ts"}}},
			"filesTouched": []any{"api/refunds.ts", obj{"uri": "file:///home/dev/repos/payments-api/api/db.ts"}}}},
		// ⚠ #13: messages null no longer fails the export.
		{"aichat.legacy.null", obj{"workspacePath": "/home/dev/repos/payments-api", "title": "Refund webhook signature check",
			"timestamp": "2026-11-06T10:30:00+01:00", "messages": nil}},
		// ⚠ #14: no date, no session row (its project and words still count).
		{"chat.undated", obj{"cwd": "/home/dev/repos/payments-api", "prompt": "refund rounding rules"}},
		{"chat.null", nil},
		{"chat.garbage", []byte("not json")},
		// A large value (2 MB) that is not a conversation.
		{"workbench.explorer.treeViewState", obj{"expanded": strings.Repeat("src/", 500_000)}},
	}, nil)
	f.write(filepath.Join(filepath.Dir(pay), "workspace.json"), []byte(`{"folder":"file:///home/dev/repos/payments-api"}`))

	cafe := f.db("User/workspaceStorage/1f2e3d4c5b6a", false, []kv{
		{"composer.composerData", obj{"allComposers": []any{obj{"composerId": "c-002"}}}},
		{"workbench.panel.aichat.view.aichat.chatdata", obj{"tabs": []any{obj{"chatTitle": "Café ledger — locale ☕ formatting",
			"lastSendTime": ms("2026-11-18T21:00:00Z")}}}},
		{"chatSession", obj{"workspace": obj{"path": `C:\Users\dev\repos\café-ledger`}, "summary": "Port the café ledger to Windows paths",
			"updatedAt": "2026-11-19T08:00:00Z", "messages": []any{obj{"text": "hi", "references": []any{obj{"relativePath": "src/money.ts"}}}}}},
	}, nil)
	f.write(filepath.Join(filepath.Dir(cafe), "workspace.json"), []byte(`{"folder":"file:///home/dev/repos/caf%C3%A9-ledger"}`))

	corrupt := filepath.Join(f.root(), "User", "workspaceStorage", "9f9f9f9f", "state.vscdb")
	f.write(corrupt, bytes.Repeat([]byte("definitely not sqlite "), 300))

	f.write(filepath.Join(f.home, ".cursor", "memory", "short-index.json"), append([]byte("\ufeff"), []byte(`{"entries":[
 {"topic_key":"payments-outbox","topic_name":"Payments outbox","triggers":["outbox","ledger outbox"],
  "summary":"Writes go through the transactional outbox.","access_level":"team","last_updated":"2026-11-10","tags":["payments"]},
 {"topic_key":"release-train","topic_name":null,"summary":"Fridays are release days.","access_level":"public","last_updated":"2026-11-20T10:00:00Z"},
 {"topic_key":"oncall-rota","topic_name":"On-call rota","access_level":"private"},
 {"topic_key":"payments-api","topic_name":"payments-api","summary":"taken by the workspace project"},
 {"topic_name":"no key"}
]}`)...))
}

func exportOf(t *testing.T, f *fixture, opts export.Options) *export.Output {
	t.Helper()
	out, err := New().Export(context.Background(), f.Env(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestExportGolden(t *testing.T) {
	f := newFixture(t)
	f.realistic()
	out := exportOf(t, f, export.Options{})
	exporttest.Golden(t, "cursor", out, f.home)
	data := exporttest.Manifest(t, out, f.home)

	var ws []string
	for _, w := range out.Warnings {
		ws = append(ws, strings.ReplaceAll(w.String(), f.home, "~"))
	}
	if len(ws) != 1 || !strings.HasPrefix(ws[0], "~/.config/Cursor/User/workspaceStorage/9f9f9f9f/state.vscdb: cannot be read") {
		t.Errorf("warnings = %q", ws)
	}
	text := string(data)
	for _, never := range []string{"api_key", "bubbles are not read", "On-call", "None"} {
		if strings.Contains(text, never) {
			t.Errorf("the manifest holds %q", never)
		}
	}
}

func TestIncrementalExport(t *testing.T) {
	f := newFixture(t)
	f.realistic()
	c := export.NewCache()
	first := exportOf(t, f, export.Options{Cache: c})
	saved, _ := c.Marshal()

	c = export.LoadCache(saved)
	second := exportOf(t, f, export.Options{Cache: c})
	if hits, reads := c.Stats(); reads != 0 || hits == 0 {
		t.Errorf("unchanged: hits=%d reads=%d", hits, reads)
	}
	a, _ := yaml11.Encode(first.Manifest("x"))
	b, _ := yaml11.Encode(second.Manifest("x"))
	if !bytes.Equal(a, b) || len(first.Warnings) != len(second.Warnings) {
		t.Error("the cached export differs")
	}

	// One workspace changes: only its database is read again.
	f.db("User/workspaceStorage/2b2b2b2b", false, []kv{{"composer.history", obj{"cwd": "/home/dev/repos/new-app",
		"title": "Scaffold the new app", "createdAt": ms("2026-11-30T09:00:00Z")}}}, nil)
	saved, _ = c.Marshal()
	c = export.LoadCache(saved)
	third := exportOf(t, f, export.Options{Cache: c})
	if _, reads := c.Stats(); reads != 1 {
		t.Errorf("one new database: %d units read", reads)
	}
	if third.Sessions[0].KeyActions[0] != "Scaffold the new app" {
		t.Errorf("first session %+v", third.Sessions[0])
	}
}

func TestSinceAndUndated(t *testing.T) {
	f := newFixture(t)
	f.realistic()
	out := exportOf(t, f, export.Options{Since: time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)})
	for _, s := range out.Sessions {
		if s.Date < "2026-11-10" || s.Date == "" {
			t.Errorf("session %+v kept", s)
		}
	}
	if len(out.Sessions) == 0 {
		t.Error("no sessions")
	}
}

func TestLocationsAndHealth(t *testing.T) {
	f := newFixture(t)
	env := f.Env()
	if _, err := New().Export(context.Background(), env, export.Options{}); !errors.Is(err, export.ErrNotInstalled) {
		t.Errorf("err = %v", err)
	}
	if h := New().Health(context.Background(), env); h.Status != export.StatusBlocked || !strings.Contains(h.Fix, "CURSOR_DIR") {
		t.Errorf("health = %+v", h)
	}
	os.MkdirAll(f.root(), 0o755)
	if h := New().Health(context.Background(), env); h.Status != export.StatusDegraded || !strings.Contains(h.Reason, "No Cursor SQLite stores") {
		t.Errorf("health = %+v", h)
	}
	f.realistic()
	if h := New().Health(context.Background(), env); h.Status != export.StatusDegraded || !strings.HasPrefix(h.Reason, "1 of 4") {
		t.Errorf("health = %+v", h)
	}
	os.Remove(filepath.Join(f.root(), "User", "workspaceStorage", "9f9f9f9f", "state.vscdb"))
	h := New().Health(context.Background(), env)
	if h.Status != export.StatusOK || h.Details[0].Value != 3 {
		t.Errorf("health = %+v", h)
	}

	for _, c := range []struct {
		goos string
		env  map[string]string
		want string
	}{
		{"darwin", nil, filepath.Join(f.home, "Library", "Application Support", "Cursor")},
		{"windows", map[string]string{"APPDATA": `C:\Users\dev\AppData\Roaming`}, filepath.Join(`C:\Users\dev\AppData\Roaming`, "Cursor")},
		{"windows", nil, ""},
		{"linux", map[string]string{"CURSOR_DIR": "/opt/cursor-data"}, "/opt/cursor-data"},
		{"linux", map[string]string{"CURSOR_DIR": "/x", DataDirVar: "~/cursor-app"}, filepath.Join(f.home, "cursor-app")},
	} {
		g := &fixture{home: f.home, env: c.env, goos: c.goos}
		if c.env == nil {
			g.env = map[string]string{}
		}
		if got := New().Detect(g.Env()).Path; got != c.want {
			t.Errorf("%s %v: %q, want %q", c.goos, c.env, got, c.want)
		}
	}
	g := &fixture{home: f.home, env: map[string]string{"CURSOR_DIR": "/x", DataDirVar: "/y"}}
	if got := dotDir(g.Env()); got != "/x" {
		t.Errorf("short index dir %q", got)
	}
}

func TestFlatRecordMapping(t *testing.T) {
	s, ok := flatSession("composer.x", map[string]any{"workspace": map[string]any{"folder": " /w/app "}, "messages": []any{
		map[string]any{"content": "", "text": "  first text  ", "filePaths": []any{"a.ts", "a.ts"}}}})
	if !ok || s.Cwd != "/w/app" || s.Action != "first text" || !slices.Equal(s.Files, []string{"a.ts"}) || s.Date != "" {
		t.Errorf("session %+v %v", s, ok)
	}
	if _, ok := flatSession("other", map[string]any{"title": "x"}); ok {
		t.Error("a key that is not a chat's and a value without messages is no session")
	}
	if _, ok := flatSession("misc", map[string]any{"messages": []any{}, "fileList": 1, "name": "n"}); !ok {
		t.Error("a value with message and file keys is a session")
	}
	if got := dateOf(json.Number("1762246800000")); got != "2025-11-04" {
		t.Errorf("ms date %q", got)
	}
	if got := isoDay("2026-11-06T00:30:00+01:00"); got != "2026-11-06" {
		t.Errorf("iso %q", got)
	}
	if got := isoDay("2026-11-06 garbage"); got != "" {
		t.Errorf("garbage %q", got)
	}
}

// TestTheCacheKeepsNothingOfAPrivateRow: a private short-index topic (by
// its access level or a private tag) is not kept in the incremental
// cache, which lives in the library, and still keeps a later topic of the
// same name out, as the merge does.
func TestTheCacheKeepsNothingOfAPrivateRow(t *testing.T) {
	f := newFixture(t)
	f.realistic()
	f.write(filepath.Join(f.home, ".cursor", "memory", "short-index.json"), []byte(`{"entries":[
 {"topic_key":"oncall-rota","topic_name":"On-call rota","summary":"zebra crossing rota","access_level":"private"},
 {"topic_key":"oncall","topic_name":"on-call ROTA","summary":"the team's copy"},
 {"topic_key":"health","topic_name":"Zebra clinic","tags":["personal"],"access_level":"team"},
 {"topic_key":"payments-outbox","topic_name":"Payments outbox","summary":"Writes go through the transactional outbox."}
]}`))
	c := export.NewCache()
	out := exportOf(t, f, export.Options{Cache: c})
	exporttest.CacheLacks(t, c, "On-call", "on-call", "zebra", "Zebra", "team's copy")
	manifest := string(exporttest.Manifest(t, out, f.home))
	for _, never := range []string{"On-call", "on-call", "ebra", "team's copy"} {
		if strings.Contains(manifest, never) {
			t.Errorf("the manifest holds %q", never)
		}
	}
	if !strings.Contains(manifest, "Payments outbox") {
		t.Error("a team topic is written")
	}
	saved, _ := c.Marshal()
	c = export.LoadCache(saved)
	again := exportOf(t, f, export.Options{Cache: c})
	if _, reads := c.Stats(); reads != 0 || string(exporttest.Manifest(t, again, f.home)) != manifest {
		t.Errorf("the export from the cache differs (%d reads)", reads)
	}
}

// A short index over 16 MiB is ignored with a warning, not read whole.
func TestAHugeShortIndexIsIgnored(t *testing.T) {
	f := newFixture(t)
	f.db(workspace, false, []kv{{"chat.x", obj{"cwd": "/w/app", "title": "t", "createdAt": "2026-11-05"}}}, nil)
	path := filepath.Join(f.home, ".cursor", "memory", "short-index.json")
	f.write(path, []byte(`{"entries":[`))
	if err := os.Truncate(path, maxShortIndex+1); err != nil {
		t.Fatal(err)
	}
	out := exportOf(t, f, export.Options{})
	if !exporttest.Warned(out, "short-index.json", "larger than") || len(out.Sessions) != 1 {
		t.Errorf("warnings %v, sessions %v", out.Warnings, out.Sessions)
	}
}
