package nativestore

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// TestOpenSQLiteSeesTheWALAndLeavesTheStoreAlone keeps a writer open in
// WAL mode so that the new rows live only in the -wal file, as they do
// while an agent runs.
func TestOpenSQLiteSeesTheWALAndLeavesTheStoreAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.sqlite")
	w, err := sql.Open("sqlite", DSN(path, "_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)"))
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	for _, q := range []string{
		"CREATE TABLE threads (id TEXT, title TEXT)",
		"INSERT INTO threads VALUES ('t1', 'café ☕')",
		"INSERT INTO threads VALUES ('t2', 'second')",
	} {
		if _, err := w.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Fatalf("the test needs rows in the -wal file: %v", err)
	}
	before := listing(t, dir)

	db, err := OpenSQLite(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var titles []string
	rows, err := db.Query("SELECT title FROM threads ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		titles = append(titles, s)
	}
	rows.Close()
	if !slices.Equal(titles, []string{"café ☕", "second"}) {
		t.Errorf("titles = %q", titles)
	}
	if _, err := db.Exec("INSERT INTO threads VALUES ('t3', 'x')"); err == nil {
		t.Error("the snapshot accepted a write")
	}
	snap := db.dir
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(snap); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("snapshot %s left behind", snap)
	}
	if after := listing(t, dir); !slices.Equal(before, after) {
		t.Errorf("the store's directory changed: %v -> %v", before, after)
	}
}

func listing(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		info, _ := e.Info()
		out = append(out, e.Name()+":"+info.ModTime().String())
	}
	return out
}

func TestOpenSQLiteRefusesWhatIsNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.vscdb")
	if err := os.WriteFile(path, []byte(strings.Repeat("not sqlite ", 500)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSQLite(context.Background(), path); !errors.Is(err, ErrNotDatabase) {
		t.Fatalf("err = %v, want ErrNotDatabase", err)
	}
	if _, err := OpenSQLite(context.Background(), path+".missing"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: err = %v", err)
	}
}

func TestLinesSkipsLongLinesAndKeepsNumbers(t *testing.T) {
	in := "a\n" + strings.Repeat("x", 300_000) + "\n\nb\r\nlast"
	var got []string
	long, err := Lines(strings.NewReader(in), 1000, func(n int, line []byte) error {
		got = append(got, string(rune('0'+n))+"="+string(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1=a", "3=", "4=b", "5=last"}; !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if !slices.Equal(long, []int{2}) {
		t.Errorf("long = %v, want [2]", long)
	}
}

// TestDSNKeepsUnusualPathsWhole: a home (or a temporary directory) whose
// name holds '#', '?', '%' or a space is one path to SQLite, not a path
// cut at a fragment or a query. "file:"+path put the database of
// /tmp/a#b/x.db at /tmp/a, so two such fixtures shared one file.
func TestDSNKeepsUnusualPathsWhole(t *testing.T) {
	for _, name := range []string{"a#b", "a?b=c", "a%41b", "a b", "café#☕", "#", "?"} {
		parent := t.TempDir()
		dir := filepath.Join(parent, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "x#1.db")
		db, err := sql.Open("sqlite", DSN(path, "_pragma=journal_mode(wal)"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('" + name + "')"); err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() == 0 {
			t.Fatalf("%q: the database is not at its path: %v", name, err)
		}
		if got := listing(t, parent); len(got) != 1 {
			t.Errorf("%q: files beside the directory: %v", name, got)
		}

		// The snapshot of it, taken into a temporary directory whose name
		// holds the same characters.
		tmp := filepath.Join(parent, "tmp"+name)
		if err := os.MkdirAll(tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("TMPDIR", tmp)
		snap, err := OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatalf("%q: %v", name, err)
		}
		var v string
		if err := snap.QueryRow("SELECT v FROM t").Scan(&v); err != nil || v != name {
			t.Errorf("%q: read %q, %v", name, v, err)
		}
		if err := snap.Close(); err != nil {
			t.Fatal(err)
		}
		if got := listing(t, tmp); len(got) != 0 {
			t.Errorf("%q: the snapshot left %v", name, got)
		}
	}
}

func TestDSNOfARelativePath(t *testing.T) {
	if got := DSN("state/x#1.db", ""); got != "file:state/x%231.db" {
		t.Errorf("DSN = %q", got)
	}
	if got := DSN("/h/a#b/x.db", "_pragma=query_only(1)"); got != "file:///h/a%23b/x.db?_pragma=query_only(1)" {
		t.Errorf("DSN = %q", got)
	}
}

// TestOpenSQLiteRefusesANamedPipe: a database or -wal that is a named
// pipe no one writes to is an error, never a wait.
func TestOpenSQLiteRefusesANamedPipe(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.sqlite")
	db, err := sql.Open("sqlite", DSN(path, ""))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE t (v)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, pipe := range []string{path + "-wal", filepath.Join(dir, "pipe.sqlite")} {
		exporttest.FIFO(t, pipe)
		done := make(chan error, 1)
		go func() {
			snap, err := OpenSQLite(context.Background(), strings.TrimSuffix(pipe, "-wal"))
			if err == nil {
				snap.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !fsutil.IsNotRegular(err) {
				t.Errorf("%s: err = %v, want a NotRegularError", filepath.Base(pipe), err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: OpenSQLite waits on a named pipe", filepath.Base(pipe))
		}
		os.Remove(pipe)
	}
}
