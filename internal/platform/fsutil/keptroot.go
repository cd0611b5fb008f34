package fsutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
)

// keepOpen reports whether a KeptTree keeps its directory open. Windows
// opens a directory without FILE_SHARE_DELETE, so an open one could not
// be removed or renamed while a server runs: there every Stat opens it,
// as Tree.Stat does.
const keepOpen = runtime.GOOS != "windows"

// KeptTree stats the files of a Tree through the tree's directory kept
// open, for a caller that asks the same file's state on every request
// (a document's revision): Tree.Stat opens and closes the directory each
// time, which costs more than the stat itself.
//
// It never answers from a directory that is no longer the tree's. Each
// Stat first stats the directory's path (symbolic links followed, as the
// open does) and opens it again when that names another directory than
// the one kept open: one removed and made again, renamed over, mounted
// over, or a link that now points elsewhere. The directory kept open
// cannot be reused by another while it is held, so "the same" is exact.
// A file replaced inside the directory (a rename over it, every atomic
// write) is seen at once, as the stat goes through the directory by name.
//
// It is safe for concurrent use. A directory replaced is closed by the
// garbage collector once no Stat uses it any more.
type KeptTree struct {
	tree Tree
	held atomic.Pointer[heldRoot]
	last atomic.Pointer[relPath] // the last absolute path Stat was asked
}

// relPath is an absolute path and what Tree.rel makes of it, which
// depends on nothing else: a caller that stats the same file on every
// request has it made relative once.
type relPath struct {
	path, rel string
	err       error
}

// heldRoot is an open directory and what it was when opened.
type heldRoot struct {
	root *os.Root
	info fs.FileInfo // the directory root has open
}

// Keep returns a KeptTree of t. Nothing is opened before the first
// Stat.
func (t Tree) Keep() *KeptTree { return &KeptTree{tree: t} }

// Stat is Tree.Stat through the directory kept open.
func (k *KeptTree) Stat(path string) (fs.FileInfo, error) {
	if !keepOpen {
		return k.tree.Stat(path)
	}
	rel, err := k.rel(path)
	if err != nil {
		return nil, err
	}
	r, err := k.root()
	if err != nil {
		return nil, err
	}
	fi, err := r.Stat(rel)
	if err != nil {
		return nil, k.tree.explain(rel, err)
	}
	return fi, nil
}

// rel is Tree.rel, remembered for the last absolute path (a relative one
// is made absolute against the working directory, which may change).
func (k *KeptTree) rel(path string) (string, error) {
	if m := k.last.Load(); m != nil && m.path == path {
		return m.rel, m.err
	}
	rel, err := k.tree.rel(path)
	if filepath.IsAbs(path) {
		k.last.Store(&relPath{path: path, rel: rel, err: err})
	}
	return rel, err
}

// root returns the tree's directory as its path names it now, opening
// it when the one kept open is another (or none is).
func (k *KeptTree) root() (*os.Root, error) {
	if now, err := os.Stat(k.tree.dir); err == nil {
		if h := k.held.Load(); h != nil && os.SameFile(h.info, now) {
			return h.root, nil
		}
	}
	// Not kept, replaced, or gone: open it, which fails as Tree.Stat
	// fails when it is gone.
	k.held.Store(nil)
	r, err := k.tree.open(false)
	if err != nil {
		return nil, err
	}
	info, err := r.Stat(".")
	if err != nil {
		r.Close()
		return nil, err
	}
	k.held.Store(&heldRoot{root: r, info: info})
	return r, nil
}
