package cursor

import (
	"database/sql"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// tables are the key/value tables the exporter reads, by the fuzz
// targets' table number.
var tables = []string{"ItemTable", "cursorDiskKV"}

// workspace is the workspace of the fuzz targets' database, relative to
// Cursor's data directory.
const workspace = "User/workspaceStorage/0a1b2c3d4e5f"

// FuzzCursorValue writes a random row (a key and a value, NULL when the
// value is empty and null is set) into ItemTable or cursorDiskKV of a
// valid workspace database that already lists a composer and holds a
// flat record, and exports it through exporttest.Checked. The seeds are
// the rows of the tests' realistic store.
func FuzzCursorValue(f *testing.F) {
	real := newFixture(f)
	real.realistic()
	var dbs []string
	for rel := range exporttest.ReadFiles(f, real.root()) {
		if strings.HasSuffix(rel, "state.vscdb") {
			dbs = append(dbs, filepath.Join(real.root(), filepath.FromSlash(rel)))
		}
	}
	slices.Sort(dbs)
	for _, p := range dbs {
		db, err := sql.Open("sqlite", nativestore.DSN(p, "_pragma=query_only(1)"))
		if err != nil {
			f.Fatal(err)
		}
		for i, table := range tables {
			rows, err := db.Query("SELECT key, value FROM " + table + " ORDER BY key")
			if err != nil {
				continue // the corrupt workspace
			}
			for rows.Next() {
				var key string
				var value []byte
				if rows.Scan(&key, &value) == nil && len(value) <= exporttest.MaxSeed {
					f.Add(uint8(i), key, value, value == nil)
				}
			}
			rows.Close()
		}
		db.Close()
	}
	f.Add(uint8(0), "composer.bad", []byte("{\"title\":\"caf\xe9\"}"), false)
	f.Add(uint8(1), "composerData:c-009", []byte(`{"name":"\ud800 lone surrogate","lastUpdatedAt":1e300,"conversation":[{"type":1,"text":"x"}]}`), false)
	f.Add(uint8(0), "chat.deep", []byte(strings.Repeat(`{"messages":[`, 5000)), false)
	// The bounds: a root and a drive as cwd, a 600-character cwd, sixty
	// files, a long title.
	for _, cwd := range []string{"/", `C:\`, ".", "..", " ", "/" + strings.Repeat("d", 600)} {
		f.Add(uint8(0), "composer.edge", []byte(`{"cwd":"`+strings.ReplaceAll(cwd, `\`, `\\`)+`","title":"t","createdAt":"2026-11-05"}`), false)
	}
	f.Add(uint8(0), "aichat.files", []byte(`{"cwd":"/w/app","title":"`+strings.Repeat("long title ", 60)+`","createdAt":1762246800000,"files":["`+
		strings.Repeat(`f.go","`, 60)+`g.go"]}`), false)

	// The template: a workspace database that lists composer c-001 and
	// holds a flat record, and its workspace.json.
	tmpl := newFixture(f)
	tmpl.db(workspace, false, []kv{
		{"composer.composerData", obj{"allComposers": []any{obj{"composerId": "c-001", "name": "Refund idempotency middleware",
			"lastUpdatedAt": ms("2026-11-04T17:20:00Z")}}}},
		{"composer.flatHistory", obj{"workspacePath": "/home/dev/repos/payments-api", "title": "Add refund idempotency keys",
			"createdAt": ms("2026-11-05T09:00:00Z"), "filesTouched": []any{"api/refunds.ts"}}},
	}, nil)
	tmpl.write(filepath.Join(tmpl.root(), workspace, "workspace.json"), []byte(`{"folder":"file:///home/dev/repos/payments-api"}`))
	base := exporttest.ReadFiles(f, tmpl.home)

	f.Fuzz(func(t *testing.T, table uint8, key string, value []byte, null bool) {
		x := &fixture{t: t, home: t.TempDir(), env: map[string]string{}, goos: "linux"}
		exporttest.WriteFiles(t, x.home, base)
		db, err := sql.Open("sqlite", nativestore.DSN(filepath.Join(x.root(), workspace, "state.vscdb"), "_pragma=synchronous(off)"))
		if err != nil {
			t.Fatal(err)
		}
		var v any = value
		if null && len(value) == 0 {
			v = nil
		}
		if _, err := db.Exec("INSERT INTO "+tables[int(table)%len(tables)]+" (key, value) VALUES (?, ?)", key, v); err != nil {
			t.Fatal(err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		exporttest.Checked(t, New(), x.Env(), export.Options{})
	})
}

// The files FuzzCursorFile puts its bytes in, by kind.
var cursorFiles = []string{
	".config/Cursor/" + workspace + "/workspace.json",
	".cursor/memory/short-index.json",
}

// FuzzCursorFile puts random bytes in a workspace's workspace.json or in
// the short index, beside a valid workspace database, and exports the
// home through exporttest.Checked. The seeds are the tests' files.
func FuzzCursorFile(f *testing.F) {
	real := newFixture(f)
	real.realistic()
	files := exporttest.ReadFiles(f, real.home)
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		switch {
		case strings.HasSuffix(rel, "workspace.json"):
			f.Add(uint8(0), files[rel])
		case strings.HasSuffix(rel, "short-index.json"):
			f.Add(uint8(1), files[rel])
		}
	}
	f.Add(uint8(0), []byte(`{"folder":"file:///home/dev/caf%FF%FE-ledger"}`))
	f.Add(uint8(0), []byte(`{"folder":"file:///c:/Users/dev/%00x"}`))
	f.Add(uint8(1), []byte("{\"entries\":[{\"topic_key\":\"k\",\"topic_name\":\"caf\xe9\",\"triggers\":[\"\\ud800\"],\"last_updated\":\"2026-02-30\"}]}"))
	f.Add(uint8(1), []byte(`{"entries":[{"topic_key":"   "},{"topic_key":"x","topic_name":"`+strings.Repeat("n", 200)+`","summary":"`+
		strings.Repeat("s", 2100)+`","triggers":[`+strings.Repeat(`"a",`, 20)+`"b"],"tags":"one"}]}`))
	f.Add(uint8(0), []byte(`{"folder":"file:///"}`))

	base := fileBase(f)

	f.Fuzz(func(t *testing.T, kind uint8, data []byte) {
		x := &fixture{t: t, home: t.TempDir(), env: map[string]string{}, goos: "linux"}
		exporttest.WriteFiles(t, x.home, base)
		exporttest.WriteFiles(t, x.home, map[string][]byte{cursorFiles[int(kind)%len(cursorFiles)]: data})
		exporttest.Checked(t, New(), x.Env(), export.Options{})
	})
}

// fileBase is every FuzzCursorFile input's home: a workspace database
// that lists a composer and holds a chat session, prepared once.
func fileBase(tb testing.TB) map[string][]byte {
	tmpl := newFixture(tb)
	tmpl.db(workspace, false, []kv{
		{"composer.composerData", obj{"allComposers": []any{obj{"composerId": "c-001", "name": "Refund idempotency middleware",
			"lastUpdatedAt": ms("2026-11-04T17:20:00Z")}}}},
		{"chatSession", obj{"workspace": obj{"path": "/home/dev/repos/payments-api"}, "summary": "Port the refunds to Go",
			"updatedAt": "2026-11-19T08:00:00Z", "messages": []any{obj{"text": "hi"}}}},
	}, nil)
	return exporttest.ReadFiles(tb, tmpl.home)
}

// TestNamedPipesAreNotWaitedOn makes workspace.json, the short index, the
// workspace database and its -wal in turn a named pipe no one writes to:
// the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	base := fileBase(t)
	db := ".config/Cursor/" + workspace + "/state.vscdb"
	for _, rel := range append(slices.Clone(cursorFiles), db, db+"-wal") {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			x := &fixture{t: t, home: t.TempDir(), env: map[string]string{}, goos: "linux"}
			exporttest.WriteFiles(t, x.home, base)
			exporttest.FIFO(t, filepath.Join(x.home, filepath.FromSlash(rel)))
			exporttest.Checked(t, New(), x.Env(), export.Options{})
		})
	}
}
