// Package fsutil holds the file-system operations every reader and writer
// of the library shares: an exclusive cross-process lock, an atomic,
// durable file replacement (a reader never sees a half-written file, and a
// crash at any point leaves either the old file or the new one; caches,
// which can be rebuilt, use it without its syncs), reads that refuse what
// is not a regular file, and Tree, which confines all of these to one
// directory that symbolic links may not lead out of.
package fsutil

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// Lock takes an exclusive advisory lock on the file at path (created if
// missing; its parent directory too), waiting until it is free or ctx ends.
// The lock is held by the open file, so it also excludes other holders in
// this process, and the operating system releases it if the process dies.
// Call the returned function to release it.
func Lock(ctx context.Context, path string) (unlock func(), err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	l := flock.New(path)
	ok, err := l.TryLockContext(ctx, 5*time.Millisecond)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	if !ok {
		return nil, fmt.Errorf("locking %s: %w", path, ctx.Err())
	}
	return func() { _ = l.Unlock() }, nil
}

// TempPrefix starts the name of every temporary file WriteAtomic makes, so
// readers can skip them (library readers ignore dot files).
const TempPrefix = "."

// WriteAtomic replaces the file at path with data: it writes a temporary
// file in the same directory, syncs it, renames it over path and syncs the
// directory. The directory is created if missing.
func WriteAtomic(path string, data []byte, perm os.FileMode) error {
	return replace(path, data, perm, true)
}

// WriteCache replaces the file at path with data as WriteAtomic does, but
// syncs nothing: a reader never sees a half-written file, but after a
// crash the file may be empty or hold garbage. It is for files that are
// checked when read and rebuilt when bad, and written on a hot path.
func WriteCache(path string, data []byte, perm os.FileMode) error {
	return replace(path, data, perm, false)
}

func replace(path string, data []byte, perm os.FileMode, durable bool) error {
	return replaceIn(osDir{}, path, data, perm, durable)
}

// dir is what an atomic replacement needs of a directory tree: the plain
// file system (osDir) or an os.Root, which refuses paths that leave it.
type dir interface {
	MkdirAll(name string, perm os.FileMode) error
	OpenFile(name string, flag int, perm os.FileMode) (*os.File, error)
	Open(name string) (*os.File, error)
	Rename(oldname, newname string) error
	Remove(name string) error
}

// osDir is the plain file system as a dir.
type osDir struct{}

func (osDir) MkdirAll(name string, perm os.FileMode) error { return os.MkdirAll(name, perm) }
func (osDir) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osDir) Open(name string) (*os.File, error)   { return os.Open(name) }
func (osDir) Rename(oldname, newname string) error { return os.Rename(oldname, newname) }
func (osDir) Remove(name string) error             { return os.Remove(name) }

// replaceIn writes a temporary file next to path in d, syncs it when
// durable, renames it over path, and syncs the directory when durable.
func replaceIn(d dir, path string, data []byte, perm os.FileMode, durable bool) error {
	parent := filepath.Dir(path)
	if err := d.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	tmp := filepath.Join(parent, TempPrefix+filepath.Base(path)+"."+hex.EncodeToString(suffix[:])+".tmp")
	f, err := d.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if werr == nil && durable {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = d.Rename(tmp, path)
	}
	if werr != nil {
		_ = d.Remove(tmp)
		return werr
	}
	if !durable {
		return nil
	}
	return syncDirIn(d, parent)
}

// syncDirIn flushes the entries (a rename or a removal) of the directory
// name in d to disk. Where directories cannot be synced it does nothing.
func syncDirIn(d dir, name string) error {
	f, err := d.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !isUnsupported(err) {
		return err
	}
	return nil
}

// TryLock takes the lock at path (see Lock) only if it is free now; ok is
// false, and unlock nil, when another holder has it.
func TryLock(path string) (unlock func(), ok bool, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, err
	}
	l := flock.New(path)
	ok, err = l.TryLock()
	if err != nil || !ok {
		return nil, false, err
	}
	return func() { _ = l.Unlock() }, true, nil
}
