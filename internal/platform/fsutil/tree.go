package fsutil

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Tree is a directory that reads and writes through it cannot leave. Every
// operation goes through an os.Root opened on the directory, so a symbolic
// link anywhere on the way (the file itself, or a folder such as
// history/<id>) is followed only while it stays inside: one that leads out
// is refused, at the moment of the open, with an *OutsideError naming the
// link. (os.Root also refuses absolute links, even to a place inside; keep
// links inside a library relative.)
//
// Paths are given whole, as filepath.Join(tree.Dir(), ...) builds them
// (a relative path is relative to the working directory, as for package
// os); a path that is not under Dir is refused before anything is opened. The
// directory itself may be a symbolic link: it is where the tree is, not a
// part of it.
type Tree struct{ dir string }

// NewTree returns the tree rooted at dir (made absolute).
func NewTree(dir string) Tree {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return Tree{dir: filepath.Clean(dir)}
}

// Dir returns the tree's directory.
func (t Tree) Dir() string { return t.dir }

// OutsideError is a path that a symbolic link would take out of the tree
// it must stay in (or an absolute link, which a tree does not follow).
type OutsideError struct {
	Path   string // the whole path asked for
	Link   string // the symbolic link on the way
	Target string // what the link says
	Tree   string // the directory it must stay in
	inside bool   // the link is absolute but its target is inside
}

func (e *OutsideError) Error() string {
	if e.inside {
		return fmt.Sprintf("%s is an absolute symbolic link (to %s); links inside %s must be relative to be followed", e.Link, e.Target, e.Tree)
	}
	if e.Link == e.Path {
		return fmt.Sprintf("%s is a symbolic link to %s, outside %s; it is not followed", e.Path, e.Target, e.Tree)
	}
	return fmt.Sprintf("%s leads outside %s: %s is a symbolic link to %s; it is not followed", e.Path, e.Tree, e.Link, e.Target)
}

// IsOutside reports whether err is an *OutsideError.
func IsOutside(err error) bool {
	var e *OutsideError
	return errors.As(err, &e)
}

// rel returns path relative to the tree.
func (t Tree) rel(path string) (string, error) {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	r, err := filepath.Rel(t.dir, path)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is not inside %s", path, t.dir)
	}
	return r, nil
}

// open opens the tree's root; create makes the directory first.
func (t Tree) open(create bool) (*os.Root, error) {
	if create {
		if err := os.MkdirAll(t.dir, 0o755); err != nil {
			return nil, err
		}
	}
	return os.OpenRoot(t.dir)
}

// do runs op on the tree's root with path made relative, and turns a
// refusal of os.Root into an *OutsideError.
func (t Tree) do(path string, create bool, op func(r *os.Root, rel string) error) error {
	rel, err := t.rel(path)
	if err != nil {
		return err
	}
	r, err := t.open(create)
	if err != nil {
		return err
	}
	defer r.Close()
	if err := op(r, rel); err != nil {
		return t.explain(rel, err)
	}
	return nil
}

// explain returns an *OutsideError when a symbolic link on the way to rel
// leads out of the tree (or is absolute), else err. It runs only after an
// operation failed, to say why.
func (t Tree) explain(rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) && !hasLink(t.dir, rel) {
		return err
	}
	if IsOutside(err) || IsNotRegular(err) {
		return err
	}
	root, rerr := filepath.EvalSymlinks(t.dir)
	if rerr != nil {
		return err
	}
	cur := t.dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, lerr := os.Lstat(cur)
		if lerr != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		target, _ := os.Readlink(cur)
		resolved, rerr := filepath.EvalSymlinks(cur)
		if rerr != nil {
			// A dangling link: judge by what it says.
			resolved = target
			if !filepath.IsAbs(resolved) {
				resolved = filepath.Join(filepath.Dir(cur), resolved)
			}
		}
		out := &OutsideError{Path: filepath.Join(t.dir, rel), Link: cur, Target: target, Tree: t.dir}
		if !within(root, resolved) {
			return out
		}
		if filepath.IsAbs(target) {
			out.inside = true
			return out
		}
	}
	return err
}

// hasLink reports whether a component of rel under dir is a symbolic link.
func hasLink(dir, rel string) bool {
	cur := dir
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." {
			continue
		}
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return false
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// within reports whether path is root or under it (both resolved).
func within(root, path string) bool {
	r, err := filepath.Rel(root, filepath.Clean(path))
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// Check reports, without opening anything, whether path can be reached
// inside the tree: an *OutsideError when a symbolic link on the way leads
// out. It is for files opened by a library that cannot open through the
// tree (the lock files); a missing path is fine.
func (t Tree) Check(path string) error {
	rel, err := t.rel(path)
	if err != nil {
		return err
	}
	if !hasLink(t.dir, rel) {
		return nil
	}
	if err := t.explain(rel, fs.ErrNotExist); IsOutside(err) {
		return err
	}
	return nil
}

// Lock is Lock for a lock file of the tree. The lock file is opened by
// path (the locking library cannot open through the tree), so the path is
// checked first and its directory made through the tree: a symbolic link
// on the way that leads out is an *OutsideError and nothing is created.
func (t Tree) Lock(ctx context.Context, path string) (unlock func(), err error) {
	if err := t.Check(path); err != nil {
		return nil, err
	}
	if err := t.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	return Lock(ctx, path)
}

// TryLock is TryLock for a lock file of the tree, checked as Lock checks
// it.
func (t Tree) TryLock(path string) (unlock func(), ok bool, err error) {
	if err := t.Check(path); err != nil {
		return nil, false, err
	}
	if err := t.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false, err
	}
	return TryLock(path)
}

// OpenRegular opens a regular file of the tree for reading (see
// OpenRegular).
func (t Tree) OpenRegular(path string) (*os.File, error) {
	var f *os.File
	err := t.do(path, false, func(r *os.Root, rel string) error {
		var err error
		f, err = OpenRegularIn(r, rel)
		return err
	})
	return f, err
}

// ReadRegular reads a regular file of the tree of at most limit bytes (see
// ReadRegular).
func (t Tree) ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := t.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

// Stat returns the file at path, symbolic links inside the tree followed.
func (t Tree) Stat(path string) (fs.FileInfo, error) {
	var fi fs.FileInfo
	err := t.do(path, false, func(r *os.Root, rel string) error {
		var err error
		fi, err = r.Stat(rel)
		return err
	})
	return fi, err
}

// ReadDir lists the directory at path, sorted by name (as os.ReadDir).
func (t Tree) ReadDir(path string) ([]os.DirEntry, error) {
	var out []os.DirEntry
	err := t.do(path, false, func(r *os.Root, rel string) error {
		d, err := r.Open(rel)
		if err != nil {
			return err
		}
		defer d.Close()
		out, err = d.ReadDir(-1)
		slices.SortFunc(out, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		return err
	})
	return out, err
}

// MkdirAll creates the directory at path and its parents.
func (t Tree) MkdirAll(path string, perm os.FileMode) error {
	return t.do(path, true, func(r *os.Root, rel string) error { return r.MkdirAll(rel, perm) })
}

// Remove removes the file or empty directory at path.
func (t Tree) Remove(path string) error {
	return t.do(path, false, func(r *os.Root, rel string) error { return r.Remove(rel) })
}

// SyncDir flushes the entries of the directory at path (a rename or a
// removal) to disk. Where directories cannot be synced it does nothing.
func (t Tree) SyncDir(path string) error {
	return t.do(path, false, func(r *os.Root, rel string) error { return syncDirIn(r, rel) })
}

// OpenAppend opens the file at path for appending (and reading), creating
// it and its directory when missing. created reports that it was made.
func (t Tree) OpenAppend(path string, perm os.FileMode) (f *os.File, created bool, err error) {
	err = t.do(path, true, func(r *os.Root, rel string) error {
		if err := r.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return err
		}
		f, err = r.OpenFile(rel, os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_EXCL, perm)
		if err == nil {
			created = true
			return nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		f, err = r.OpenFile(rel, os.O_RDWR|os.O_APPEND|nonBlock, 0)
		if err != nil {
			return err
		}
		if _, err := checkRegular(f, path); err != nil {
			return err
		}
		return nil
	})
	return f, created, err
}

// WriteAtomic is WriteAtomic inside the tree: the temporary file, the
// rename and the directory sync all happen through the tree's root, so a
// symbolic link on the way that leads out makes it fail (with an
// *OutsideError) instead of writing elsewhere. A link in place of the file
// itself is replaced by the new file, never written through.
func (t Tree) WriteAtomic(path string, data []byte, perm os.FileMode) error {
	return t.do(path, true, func(r *os.Root, rel string) error {
		return replaceIn(r, rel, data, perm, true)
	})
}
