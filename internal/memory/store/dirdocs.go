package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// DirDocuments keeps documents as files under one directory, read and
// written through an fsutil.Tree (a symbolic link that leads out of it is
// refused, not followed). Writes are atomic (a temporary file renamed
// over the old one). Revision stats through the directory kept open (see
// fsutil.KeptTree), so that asking it on every request stays cheap.
type DirDocuments struct {
	tree fsutil.Tree
	kept *fsutil.KeptTree          // tree, for Revision
	last atomic.Pointer[namedPath] // the name Revision was last asked, and its path
	perm os.FileMode               // of the files written; directories get the x bits of the r bits
}

var _ Documents = (*DirDocuments)(nil)

// NewDirDocuments returns the documents under root, whose files are
// written with mode perm (0o600 for a private one).
func NewDirDocuments(root string, perm os.FileMode) *DirDocuments {
	tree := fsutil.NewTree(root)
	return &DirDocuments{tree: tree, kept: tree.Keep(), perm: perm}
}

// FileDocument returns the one document a file at path is: the documents
// of its directory and its name there. A path that is itself a symbolic
// link (a file kept with one's dotfiles) is followed once, here, so that
// the document is its target, read and replaced in place while the link
// stays; links further on are judged by the directory's tree as usual.
func FileDocument(path string, perm os.FileMode) (*DirDocuments, string) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if target, err := filepath.EvalSymlinks(path); err == nil {
			path = target
		}
	}
	return NewDirDocuments(filepath.Dir(path), perm), filepath.Base(path)
}

// Root returns the directory.
func (d *DirDocuments) Root() string { return d.tree.Dir() }

func (d *DirDocuments) path(name string) (string, error) {
	if err := CheckDocumentName(name); err != nil {
		return "", err
	}
	return filepath.Join(d.tree.Dir(), filepath.FromSlash(name)), nil
}

// Where returns the file's path.
func (d *DirDocuments) Where(name string) string {
	return filepath.Join(d.tree.Dir(), filepath.FromSlash(name))
}

// Read reads the file, refusing anything but a regular one.
func (d *DirDocuments) Read(_ context.Context, name string, limit int64) ([]byte, Revision, error) {
	p, err := d.path(name)
	if err != nil {
		return nil, NoRevision, err
	}
	f, err := d.tree.OpenRegular(p)
	if err != nil {
		return nil, NoRevision, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, NoRevision, err
	}
	data, err := fsutil.ReadOpen(f, limit)
	if err != nil {
		return nil, NoRevision, err
	}
	return data, revisionOf(fi), nil
}

// namedPath is a document's name and what path makes of it, which
// depends on nothing else.
type namedPath struct {
	name, path string
	err        error
}

// Revision stats the file, through the directory kept open. The path of
// the name last asked is remembered: a caller asks the same document's
// revision on every request.
func (d *DirDocuments) Revision(_ context.Context, name string) (Revision, error) {
	m := d.last.Load()
	if m == nil || m.name != name {
		p, err := d.path(name)
		m = &namedPath{name: name, path: p, err: err}
		d.last.Store(m)
	}
	p, err := m.path, m.err
	if err != nil {
		return NoRevision, err
	}
	fi, err := d.kept.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return NoRevision, nil
	}
	if err != nil {
		return NoRevision, err
	}
	return revisionOf(fi), nil
}

// Write replaces the file atomically, creating its directory.
func (d *DirDocuments) Write(_ context.Context, name string, data []byte) (Revision, error) {
	p, err := d.path(name)
	if err != nil {
		return NoRevision, err
	}
	if err := d.mkdir(filepath.Dir(p)); err != nil {
		return NoRevision, err
	}
	if err := d.tree.WriteAtomic(p, data, d.perm); err != nil {
		return NoRevision, err
	}
	fi, err := d.tree.Stat(p)
	if err != nil {
		return NoRevision, err
	}
	return revisionOf(fi), nil
}

// mkdir creates dir, and the root when missing, with dirPerm (the tree
// alone would make the root world-readable).
func (d *DirDocuments) mkdir(dir string) error {
	if err := os.MkdirAll(d.tree.Dir(), d.dirPerm()); err != nil {
		return err
	}
	return d.tree.MkdirAll(dir, d.dirPerm())
}

// dirPerm is perm with an x bit wherever it has an r bit.
func (d *DirDocuments) dirPerm() os.FileMode { return d.perm | (d.perm&0o444)>>2 }

// Remove removes the file.
func (d *DirDocuments) Remove(_ context.Context, name string) error {
	p, err := d.path(name)
	if err != nil {
		return err
	}
	if err := d.tree.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// List lists the entries of dir other than subdirectories and names that
// start with a dot (temporary files, lock folders). A symbolic link or a
// special file (a named pipe) is listed, with its own revision, so that a
// reader of every listed document reports it (Read refuses it) instead of
// missing it.
func (d *DirDocuments) List(_ context.Context, dir string) ([]DocumentInfo, error) {
	p := d.tree.Dir()
	if dir != "" {
		var err error
		if p, err = d.path(dir); err != nil {
			return nil, err
		}
	}
	entries, err := d.tree.ReadDir(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []DocumentInfo
	for _, e := range entries {
		if e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the listing
		}
		if err != nil {
			return nil, err
		}
		out = append(out, DocumentInfo{Name: path.Join(dir, e.Name()), Revision: revisionOf(fi), Modified: fi.ModTime()})
	}
	return out, nil
}

// Lock takes the lock file called name (see fsutil.Lock), creating its
// directory as Write does.
func (d *DirDocuments) Lock(ctx context.Context, name string) (func(), error) {
	p, err := d.path(name)
	if err != nil {
		return nil, err
	}
	if err := d.mkdir(filepath.Dir(p)); err != nil {
		return nil, err
	}
	return d.tree.Lock(ctx, p)
}

// CheckDocumentName says what is wrong with name as a document's name.
func CheckDocumentName(name string) error {
	switch {
	case name == "":
		return errors.New("a document needs a name")
	case len(name) > 1024:
		return fmt.Errorf("a document name of %d bytes is longer than 1024", len(name))
	case strings.ContainsAny(name, "\\\x00") || path.Clean(name) != name || !fs.ValidPath(name):
		return fmt.Errorf("document name %q is not a relative slash-separated path", name)
	}
	return nil
}
