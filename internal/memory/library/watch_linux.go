//go:build linux

package library

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// inotifyWatcher asks the kernel which directory events happened. The
// kernel queues an event before the writer's system call returns, so
// draining the queue at the start of a query sees every change that
// finished before the query began, at the cost of one non-blocking read.
type inotifyWatcher struct {
	dir   string
	fd    int // -1 when no watch is armed
	buf   []byte
	armed bool
}

func newWatcher(dir string) watcher {
	w := &inotifyWatcher{dir: dir, fd: -1, buf: make([]byte, 64<<10)}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return pollWatcher{}
	}
	w.fd = fd
	w.arm()
	return w
}

// arm places the watch on the directory if it exists.
func (w *inotifyWatcher) arm() {
	if _, err := unix.InotifyAddWatch(w.fd, w.dir, fsutil.InotifyChanges); err == nil {
		w.armed = true
	}
}

func (w *inotifyWatcher) changed() (bool, map[string]bool, bool) {
	if !w.armed {
		// The directory did not exist; look again (one stat).
		if _, err := os.Stat(w.dir); err != nil {
			return false, nil, false
		}
		w.arm()
		return true, nil, true
	}
	var touched map[string]bool
	changed, all := false, false
	for {
		n, err := unix.Read(w.fd, w.buf)
		if err != nil || n <= 0 {
			if err != nil && !errors.Is(err, unix.EAGAIN) {
				// The descriptor is unusable: treat every call as a change.
				w.armed = false
				return true, nil, true
			}
			return changed, touched, all
		}
		changed = true
		for ev := range fsutil.InotifyEvents(w.buf[:n]) {
			switch {
			case ev.Mask&unix.IN_Q_OVERFLOW != 0:
				all = true
			case ev.Mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
				// The directory itself went away or moved: re-arm on
				// its path at the next call.
				w.armed = false
				all = true
			case len(ev.Name) > 0:
				if touched == nil {
					touched = map[string]bool{}
				}
				touched[string(ev.Name)] = true
			}
		}
	}
}

func (w *inotifyWatcher) close() error {
	if w.fd < 0 {
		return nil
	}
	err := unix.Close(w.fd)
	w.fd = -1
	return err
}
