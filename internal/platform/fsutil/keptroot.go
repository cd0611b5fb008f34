package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
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
// It never answers from a directory that is no longer the tree's. A stat
// first stats the directory's path (symbolic links followed, as the open
// does) and opens it again when that names another directory than the
// one kept open: one removed and made again, renamed over, mounted over,
// or a link that now points elsewhere. The directory kept open cannot be
// reused by another while it is held, so "the same" is exact. A file
// replaced inside the directory (a rename over it, every atomic write) is
// seen at once, as the stat goes through the directory by name.
//
// On Linux the stat of a file directly in the directory is kept, with
// the kernel watching the directory and its name in its parent (inotify):
// while no event names the file, the directory or its name, the kept
// stat is the answer, at the cost of one read of the events instead of
// two stats. The kernel queues an event before the call that caused it
// returns, so a change that finished before a Stat began is always
// seen. A change no event reports (a directory mounted over, a directory
// higher up renamed or linked elsewhere) is seen within keptStatMaxAge,
// when a kept stat is taken again whatever the events say.
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

// keptStatMaxAge is how long a kept stat may answer at most.
const keptStatMaxAge = time.Second

// statResult is what a stat answered.
type statResult struct {
	fi  fs.FileInfo
	err error
}

// heldRoot is an open directory and what it was when opened.
type heldRoot struct {
	root  *os.Root
	info  fs.FileInfo // the directory root has open
	watch *dirWatch   // the events of root's directory; nil when not watched
	armed time.Time   // when watching was last tried
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
	now := time.Now()
	var ticket uint64
	held := k.held.Load()
	named := rel != "." && !strings.ContainsRune(rel, filepath.Separator)
	if named && held != nil && held.watch != nil {
		var res statResult
		var hit bool
		if res, hit, ticket = held.watch.lookup(rel, now); hit {
			return res.fi, res.err
		}
	}
	h, err := k.root(now)
	if err != nil {
		return nil, err
	}
	fi, err := k.statIn(h.root, rel)
	if ticket != 0 && h == held && !mayBeLink(h.root, rel) {
		h.watch.remember(rel, ticket, statResult{fi, err}, now)
	}
	return fi, err
}

// mayBeLink reports whether rel may be a symbolic link. A link's target
// is not this directory's entry, so no event of it says when the target
// changes: the stat of a link is not kept.
func mayBeLink(r *os.Root, rel string) bool {
	fi, err := r.Lstat(rel)
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	return fi.Mode()&fs.ModeSymlink != 0
}

// statIn stats rel through r.
func (k *KeptTree) statIn(r *os.Root, rel string) (fs.FileInfo, error) {
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
// it when the one kept open is another (or none is), and watching it.
func (k *KeptTree) root(now time.Time) (*heldRoot, error) {
	if fi, err := os.Stat(k.tree.dir); err == nil {
		if h := k.held.Load(); h != nil && os.SameFile(h.info, fi) {
			if (h.watch == nil || h.watch.lost()) && now.Sub(h.armed) >= keptStatMaxAge {
				// Not watched yet, or the watch was lost: try again, at
				// most once per keptStatMaxAge (it costs an open).
				k.held.CompareAndSwap(h, k.watched(h.root, h.info, now))
			}
			return h, nil
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
	h := k.watched(r, info, now)
	k.held.Store(h)
	return h, nil
}

// watched returns the held directory r, watched if it can be. The watch
// is given up when the held directory is no longer used.
func (k *KeptTree) watched(r *os.Root, info fs.FileInfo, now time.Time) *heldRoot {
	h := &heldRoot{root: r, info: info, armed: now}
	if w := watchDir(k.tree.dir, r); w != nil {
		h.watch = w
		runtime.AddCleanup(h, (*dirWatch).release, w)
	}
	return h
}
