package copilotcli

import (
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// fuzzColumns are the values FuzzCopilotCLIValue replaces: a column of
// one row of the fixture, by the target's column number.
var fuzzColumns = []struct{ table, column, where string }{
	{"sessions", "id", "id = 's-refunds'"},
	{"sessions", "cwd", "id = 's-refunds'"},
	{"sessions", "repository", "id = 's-refunds'"},
	{"sessions", "summary", "id = 's-refunds'"},
	{"sessions", "created_at", "id = 's-refunds'"},
	{"sessions", "updated_at", "id = 's-late'"},
	{"checkpoints", "title", "session_id = 's-refunds' AND checkpoint_number = 1"},
	{"session_files", "file_path", "session_id = 's-refunds' AND tool_name = 'edit'"},
	{"session_refs", "ref_type", "session_id = 's-refunds' AND ref_value = '#412'"},
	{"session_refs", "ref_value", "session_id = 's-refunds' AND ref_type = 'issue'"},
	{"dynamic_context_items", "name", "name = 'refund-patterns'"},
	{"dynamic_context_items", "description", "name = 'refund-patterns'"},
	{"dynamic_context_items", "content", "name = 'menu-style'"},
	{"dynamic_context_items", "src", "name = 'refund-patterns'"},
	{"dynamic_context_items", "count", "name = 'menu-style'"},
	{"schema_version", "version", "1"},
}

// FuzzCopilotCLIValue replaces one value of the tests' store (a session's
// id, cwd, repository, summary or dates, a checkpoint title, a file, a
// ref, a dynamic-context item's fields, the schema version) with random
// bytes, as TEXT or as a BLOB, and exports it through exporttest.Checked.
// The seeds are the fixture's own values, then hostile ones.
func FuzzCopilotCLIValue(f *testing.F) {
	tmpl := filepath.Join(f.TempDir(), dbName)
	newStore(f, tmpl, schemaV4, fixture)
	template, err := os.ReadFile(tmpl)
	if err != nil {
		f.Fatal(err)
	}
	db, err := sql.Open("sqlite", nativestore.DSN(tmpl, "_pragma=query_only(1)"))
	if err != nil {
		f.Fatal(err)
	}
	for i, c := range fuzzColumns {
		var v []byte
		if err := db.QueryRow("SELECT CAST(" + c.column + " AS BLOB) FROM " + c.table + " WHERE " + c.where).Scan(&v); err != nil {
			f.Fatalf("%s.%s: %v", c.table, c.column, err)
		}
		f.Add(uint8(i), v, false)
	}
	db.Close()
	for _, v := range []string{"", "caf\xe9 \xff", "\x00", "   ", strings.Repeat("é", 600), "2026-02-30", "1e400", "-1",
		"2026-11-06T07:00:00+25:00", "https://example.com/x?api_key=1"} {
		f.Add(uint8(3), []byte(v), false)
		f.Add(uint8(10), []byte(v), true)
	}

	f.Fuzz(func(t *testing.T, column uint8, value []byte, blob bool) {
		env := exporttest.Env(t, nil)
		path := filepath.Join(env.Home, ".copilot", dbName)
		exporttest.WriteFiles(t, env.Home, map[string][]byte{".copilot/" + dbName: template})
		c := fuzzColumns[int(column)%len(fuzzColumns)]
		set := "CAST(? AS TEXT)"
		if blob {
			set = "?"
		}
		db, err := sql.Open("sqlite", nativestore.DSN(path, "_pragma=synchronous(off)"))
		if err != nil {
			t.Fatal(err)
		}
		// A value a constraint refuses (a NULL or duplicate key) leaves
		// the store as it was.
		_, _ = db.Exec("UPDATE "+c.table+" SET "+c.column+" = "+set+" WHERE "+c.where, value)
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		exporttest.Checked(t, Exporter{}, env, export.Options{})
	})
}

// TestNamedPipesAreNotWaitedOn makes the session store, then its -wal, a
// named pipe no one writes to: the export must not block on it.
func TestNamedPipesAreNotWaitedOn(t *testing.T) {
	for _, name := range []string{dbName, dbName + "-wal"} {
		t.Run(name, func(t *testing.T) {
			env, path := home(t)
			newStore(t, path, schemaV4, fixture)
			exporttest.FIFO(t, filepath.Join(filepath.Dir(path), name))
			exporttest.Checked(t, Exporter{}, env, export.Options{})
		})
	}
}
