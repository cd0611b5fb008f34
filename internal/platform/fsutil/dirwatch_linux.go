//go:build linux

package fsutil

import (
	"bytes"
	"errors"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// InotifyEvent is one event of an inotify descriptor: the watch it came
// from, what happened, and the name in the watched directory it happened
// to (empty for the directory itself).
type InotifyEvent struct {
	WD   int32
	Mask uint32
	Name []byte
}

// InotifyEvents iterates the events of buf, the bytes one read of an
// inotify descriptor returned. Name aliases buf.
func InotifyEvents(buf []byte) iter.Seq[InotifyEvent] {
	return func(yield func(InotifyEvent) bool) {
		for off := 0; off+unix.SizeofInotifyEvent <= len(buf); {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			end := off + unix.SizeofInotifyEvent + int(ev.Len)
			if end > len(buf) {
				return
			}
			name := bytes.TrimRight(buf[off+unix.SizeofInotifyEvent:end], "\x00")
			if !yield(InotifyEvent{WD: ev.Wd, Mask: ev.Mask, Name: name}) {
				return
			}
			off = end
		}
	}
}

// InotifyChanges is the mask of the events that change what a stat of a
// directory's entries, or of the directory itself, would say.
const InotifyChanges = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_ATTRIB | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF

// maxInotifyEvent is the size of the largest event: a read that leaves
// at least this much of its buffer unused has emptied the queue.
const maxInotifyEvent = unix.SizeofInotifyEvent + unix.NAME_MAX + 1

// watchHub is the one inotify descriptor of the process through which
// every KeptTree learns what changed in its directory. One descriptor is
// shared because the kernel allows few per user (128 by default) and a
// server holds several kept trees; watches themselves are plentiful.
type watchHub struct {
	mu      sync.Mutex
	fd      int
	broken  bool // a read failed: no answer is kept any more
	buf     []byte
	dirs    map[int32][]*dirWatch // by the watch of the directory
	parents map[int32][]*dirWatch // by the watch of the directory's parent
	refs    map[int32]int         // how many dirWatches use a watch
}

var (
	hubOnce sync.Once
	hub     *watchHub // nil where inotify is not available
)

func theHub() *watchHub {
	hubOnce.Do(func() {
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			return
		}
		hub = &watchHub{
			fd:      fd,
			buf:     make([]byte, 16<<10),
			dirs:    map[int32][]*dirWatch{},
			parents: map[int32][]*dirWatch{},
			refs:    map[int32]int{},
		}
	})
	return hub
}

// watchDir watches dir, the directory that root has open, and the name
// path gives it in its parent (so that a link or directory put in its
// place is seen). It returns nil when that cannot be done.
func watchDir(path string, root *os.Root) *dirWatch {
	h := theHub()
	if h == nil {
		return nil
	}
	f, err := root.Open(".")
	if err != nil {
		return nil
	}
	defer f.Close()
	// Through the descriptor, so that the watch is on the very directory
	// root has open, whatever path names now.
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.broken {
		return nil
	}
	// IN_MASK_ADD: a directory may already be watched, as another
	// tree's directory or parent, and keeps what that watch asked for.
	wd, err := unix.InotifyAddWatch(h.fd, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), InotifyChanges|unix.IN_MASK_ADD)
	if err != nil {
		return nil
	}
	h.refs[int32(wd)]++
	pwd, err := unix.InotifyAddWatch(h.fd, filepath.Dir(path), unix.IN_CREATE|unix.IN_DELETE|
		unix.IN_MOVED_FROM|unix.IN_MOVED_TO|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_MASK_ADD)
	if err != nil {
		h.unref(int32(wd))
		return nil
	}
	h.refs[int32(pwd)]++
	w := &dirWatch{hub: h, wd: int32(wd), parentWD: int32(pwd), base: filepath.Base(path), files: map[string]*keptStat{}}
	h.dirs[w.wd] = append(h.dirs[w.wd], w)
	h.parents[w.parentWD] = append(h.parents[w.parentWD], w)
	return w
}

// release stops watching for w; a second call does nothing.
func (w *dirWatch) release() {
	h := w.hub
	h.mu.Lock()
	defer h.mu.Unlock()
	if w.released {
		return
	}
	w.released = true
	w.dead.Store(true)
	h.dirs[w.wd] = without(h.dirs[w.wd], w)
	h.parents[w.parentWD] = without(h.parents[w.parentWD], w)
	h.unref(w.wd)
	h.unref(w.parentWD)
}

// unref drops one use of a watch, removing it after the last.
func (h *watchHub) unref(wd int32) {
	if h.refs[wd]--; h.refs[wd] > 0 {
		return
	}
	delete(h.refs, wd)
	delete(h.dirs, wd)
	delete(h.parents, wd)
	_, _ = unix.InotifyRmWatch(h.fd, uint32(wd))
}

func without(ws []*dirWatch, w *dirWatch) []*dirWatch {
	for i, x := range ws {
		if x == w {
			return append(ws[:i:i], ws[i+1:]...)
		}
	}
	return ws
}

// drain reads every event queued and forgets what they touched. The
// kernel queues an event before the system call that caused it returns,
// so after drain no kept answer predates a change that has finished.
// h.mu is held.
func (h *watchHub) drain() {
	for !h.broken {
		n, err := unix.Read(h.fd, h.buf)
		if err != nil || n <= 0 {
			if err != nil && !errors.Is(err, unix.EAGAIN) {
				h.broken = true
				h.forgetAll()
			}
			return
		}
		for ev := range InotifyEvents(h.buf[:n]) {
			h.apply(ev)
		}
		if n <= len(h.buf)-maxInotifyEvent {
			return // the queue is empty: nothing more to read
		}
	}
}

// apply forgets what one event may have changed.
func (h *watchHub) apply(ev InotifyEvent) {
	if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
		h.forgetAll()
		return
	}
	self := ev.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF|unix.IN_UNMOUNT) != 0
	for _, w := range h.dirs[ev.WD] {
		switch {
		case self:
			w.forget()
		default:
			if k := w.files[string(ev.Name)]; k != nil {
				k.seq++
				k.valid = false
			}
		}
	}
	for _, w := range h.parents[ev.WD] {
		if self || string(ev.Name) == w.base {
			w.forget()
		}
	}
	if ev.Mask&unix.IN_IGNORED != 0 {
		// The kernel dropped the watch (its directory is gone): no
		// event will come from it again.
		for _, w := range h.dirs[ev.WD] {
			w.dead.Store(true)
		}
		for _, w := range h.parents[ev.WD] {
			w.dead.Store(true)
		}
	}
}

func (h *watchHub) forgetAll() {
	for _, ws := range h.dirs {
		for _, w := range ws {
			w.forget()
		}
	}
}

// dirWatch is what a KeptTree keeps of the entries of its directory: the
// last stat of each name asked, until an event names it.
type dirWatch struct {
	hub          *watchHub
	wd, parentWD int32
	base         string      // the directory's name in its parent
	dead         atomic.Bool // the kernel dropped a watch, or w was released: nothing is kept
	released     bool
	files        map[string]*keptStat
}

// keptStat is the last stat of one name. seq counts the events that
// named it, so that a stat taken before an event is not kept after it.
type keptStat struct {
	seq   uint64
	valid bool
	statResult
	at time.Time
}

// maxKeptNames bounds the names one directory keeps a stat of.
const maxKeptNames = 256

// lookup returns the kept stat of name when no event has named it since
// and it is younger than keptStatMaxAge. Otherwise it returns a ticket for
// remember (0: do not remember). When another request is reading the
// events, it does not wait: it misses.
func (w *dirWatch) lookup(name string, now time.Time) (res statResult, hit bool, ticket uint64) {
	h := w.hub
	if !h.mu.TryLock() {
		return statResult{}, false, 0
	}
	defer h.mu.Unlock()
	h.drain()
	if w.dead.Load() || h.broken {
		return statResult{}, false, 0
	}
	k := w.files[name]
	if k == nil {
		if len(w.files) >= maxKeptNames {
			return statResult{}, false, 0
		}
		k = &keptStat{seq: 1}
		w.files[name] = k
	}
	if k.valid && now.Sub(k.at) < keptStatMaxAge {
		return k.statResult, true, 0
	}
	return statResult{}, false, k.seq
}

// remember keeps a stat of name taken after lookup gave ticket, unless
// an event has named it since.
func (w *dirWatch) remember(name string, ticket uint64, res statResult, now time.Time) {
	h := w.hub
	if !h.mu.TryLock() {
		return
	}
	defer h.mu.Unlock()
	h.drain()
	if k := w.files[name]; k != nil && k.seq == ticket && !w.dead.Load() && !h.broken {
		k.valid, k.statResult, k.at = true, res, now
	}
}

// lost reports whether w keeps nothing any more and should be replaced.
func (w *dirWatch) lost() bool { return w.dead.Load() }

// forget drops every kept stat. h.mu is held.
func (w *dirWatch) forget() {
	for _, k := range w.files {
		k.seq++
		k.valid = false
	}
}
