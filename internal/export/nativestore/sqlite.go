// Package nativestore opens agents' native stores without changing them.
//
// SQLite databases are read from a private snapshot: the main file and its
// -wal are copied into a temporary directory and the copy is opened, so
// rows the agent has not checkpointed yet are seen, a database the agent
// holds locked can still be read, and nothing next to the original (not
// even a -shm file) is ever created. JSON Lines files are streamed one line
// at a time with a bound on the line length, so a store of any size reads
// in constant memory.
package nativestore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver (no cgo)

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// DB is a read-only snapshot of an SQLite database.
type DB struct {
	*sql.DB
	dir string
}

// Close closes the database and removes the snapshot.
func (d *DB) Close() error {
	err := d.DB.Close()
	if rmErr := os.RemoveAll(d.dir); err == nil {
		err = rmErr
	}
	return err
}

// ErrNotDatabase is wrapped by OpenSQLite's error for a file that is not an
// SQLite database (or is corrupt).
var ErrNotDatabase = errors.New("not a readable SQLite database")

// OpenSQLite snapshots the database at path (with its -wal, when there is
// one) and opens the snapshot read-only. A file that changes while it is
// copied is copied again, up to three times. The schema is read once, so
// a file that is not a database fails here, wrapping ErrNotDatabase.
func OpenSQLite(ctx context.Context, path string) (*DB, error) {
	dir, err := os.MkdirTemp("", "bourdon-sqlite-")
	if err != nil {
		return nil, err
	}
	snap := filepath.Join(dir, filepath.Base(path))
	if err := snapshot(path, snap); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	db, err := sql.Open("sqlite", DSN(snap, "_pragma=query_only(1)&_pragma=busy_timeout(2000)"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	db.SetMaxOpenConns(1)
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master").Scan(&n); err != nil {
		db.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%s: %w: %v", path, ErrNotDatabase, err)
	}
	return &DB{DB: db, dir: dir}, nil
}

// DSN returns the driver's data source name for the SQLite file at path: a
// file: URI whose path is escaped, so that a '#', '?' or '%' in a
// directory's name (a home such as /home/a#b, a test's temporary
// directory) stays part of the path instead of starting SQLite's fragment
// or query, and query (already encoded, such as
// "_pragma=journal_mode(wal)") as its parameters. An absolute path is
// written with a leading slash after "file://", which is also how SQLite
// reads a Windows drive path (file:///C:/...).
func DSN(path, query string) string {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: query}
	if !filepath.IsAbs(path) {
		// url.URL writes a relative path without "//" (file:dir/x.db),
		// which SQLite reads relative to the working directory.
		u.OmitHost = true
	}
	return u.String()
}

// snapshot copies path and path-wal to dst and dst-wal, again when either
// changed during the copy.
func snapshot(path, dst string) error {
	files := []string{path, path + "-wal"}
	for attempt := 0; ; attempt++ {
		before, err := stats(files)
		if err != nil {
			return err
		}
		if before[0] == nil {
			return fmt.Errorf("%s: %w", path, fs.ErrNotExist)
		}
		for i, f := range files {
			if before[i] == nil {
				continue
			}
			if err := copyFile(f, dst+[]string{"", "-wal"}[i]); err != nil {
				return err
			}
		}
		after, err := stats(files)
		if err != nil {
			return err
		}
		if same(before, after) || attempt == 2 {
			return nil
		}
	}
}

func stats(files []string) ([]fs.FileInfo, error) {
	out := make([]fs.FileInfo, len(files))
	for i, f := range files {
		st, err := os.Stat(f)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			out[i] = st
		}
	}
	return out, nil
}

func same(a, b []fs.FileInfo) bool {
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) {
			return false
		}
		if a[i] != nil && (a[i].Size() != b[i].Size() || !a[i].ModTime().Equal(b[i].ModTime())) {
			return false
		}
	}
	return true
}

// copyFile copies src, which must be a regular file: a named pipe in a
// store (as the database or its -wal) would block a plain open forever.
func copyFile(src, dst string) error {
	in, err := fsutil.OpenRegular(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return out.Close()
}
