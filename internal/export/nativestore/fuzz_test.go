package nativestore

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLines streams random bytes as a JSON Lines file with a small line
// bound. Every line reaches the callback once, numbered from 1, without
// its line break and trailing carriage returns, or is reported long when
// it has more than the bound's bytes (carriage returns included, the
// '\n' not); what follows the last line break is not a line when it is
// empty but for carriage returns.
func FuzzLines(f *testing.F) {
	for _, s := range []string{
		"", "\n", "a", "a\n", "a\r\n", "a\r\r\n\r\n", "\n\n\n", "a\nb", "a\nbb\nccc\n",
		`{"type":"session_meta","payload":{"id":"a1","cwd":"/w/é"}}` + "\n" + `{"type":"event_msg"}`,
		"x\x00y\n\xff\xfe\n", strings.Repeat("z", 40) + "\nshort\n" + strings.Repeat("é", 9),
	} {
		f.Add([]byte(s), uint8(4))
		f.Add([]byte(s), uint8(16))
	}
	f.Fuzz(func(t *testing.T, data []byte, bound uint8) {
		maxLine := int(bound%32) + 1
		type got struct {
			n    int
			line string
		}
		var lines []got
		long, err := Lines(bytes.NewReader(data), maxLine, func(n int, line []byte) error {
			lines = append(lines, got{n, string(line)})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The oracle: split on '\n'; a final piece (after the last
		// line break) is a line unless it is empty once its carriage
		// returns are trimmed and not too long.
		pieces := strings.Split(string(data), "\n")
		if last := pieces[len(pieces)-1]; strings.TrimRight(last, "\r") == "" && len(last) <= maxLine {
			pieces = pieces[:len(pieces)-1]
		}
		var wantLines []got
		var wantLong []int
		for i, p := range pieces {
			if len(p) > maxLine {
				wantLong = append(wantLong, i+1)
				continue
			}
			wantLines = append(wantLines, got{i + 1, strings.TrimRight(p, "\r")})
		}
		if len(lines) != len(wantLines) {
			t.Fatalf("bound %d: lines %+v, want %+v (long %v, want %v)", maxLine, lines, wantLines, long, wantLong)
		}
		for i := range lines {
			if lines[i] != wantLines[i] {
				t.Fatalf("bound %d: line %d is %+v, want %+v", maxLine, i, lines[i], wantLines[i])
			}
		}
		if len(long) != len(wantLong) {
			t.Fatalf("bound %d: long %v, want %v", maxLine, long, wantLong)
		}
		for i := range long {
			if long[i] != wantLong[i] {
				t.Fatalf("bound %d: long %v, want %v", maxLine, long, wantLong)
			}
		}
	})
}

// FuzzOpenSQLiteValue stores a random value (as TEXT or as a BLOB) in a
// valid database, in a directory whose name holds '#' and '?', with the
// row either checkpointed or still in the -wal, and reads it back through
// OpenSQLite's snapshot: the same bytes come back, and the snapshot is
// gone once closed.
func FuzzOpenSQLiteValue(f *testing.F) {
	for _, s := range []string{"", "café ☕", "\x00", "bad \xff\xfe bytes", `{"allComposers":[{"composerId":"c-001"}]}`,
		strings.Repeat("long value ", 2000)} {
		f.Add([]byte(s), false, false)
		f.Add([]byte(s), true, true)
	}
	f.Fuzz(func(t *testing.T, value []byte, blob, wal bool) {
		dir := filepath.Join(t.TempDir(), "home#1?x=y")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "state#.vscdb")
		query := "_pragma=synchronous(off)" // no fsync: the fuzzer writes thousands
		if wal {
			query += "&_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)"
		}
		w, err := sql.Open("sqlite", DSN(path, query))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		w.SetMaxOpenConns(1)
		insert := "INSERT INTO kv VALUES ('k', CAST(? AS TEXT))"
		if blob {
			insert = "INSERT INTO kv VALUES ('k', ?)"
		}
		if _, err := w.Exec("CREATE TABLE kv (key TEXT, value)"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exec(insert, value); err != nil {
			t.Fatal(err)
		}
		if !wal {
			w.Close()
		}
		db, err := OpenSQLite(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		var typ string
		if err := db.QueryRow("SELECT value, typeof(value) FROM kv WHERE key = 'k'").Scan(&got, &typ); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]string{false: "text", true: "blob"}[blob]; typ != want && !(blob && len(value) == 0 && typ == "blob") {
			t.Errorf("typeof = %s, want %s", typ, want)
		}
		if !bytes.Equal(got, value) {
			t.Errorf("read %q, stored %q", got, value)
		}
		snap := db.dir
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(snap); !os.IsNotExist(err) {
			t.Errorf("snapshot %s left behind", snap)
		}
	})
}
