package library

import (
	"context"
	"log/slog"
	"path/filepath"
	"sync"
	"time"
)

// ManifestStore is a store of manifests other than the agents directory (a
// PostgreSQL database, internal/memory/store/postgres): the library lists
// the manifests' versions and reads again only those whose version
// changed. Nothing tells a Library on its own that a Source changed: the
// server feeds it notifications (Notify), and a Library lists the
// versions anyway every reconcile interval, since notifications can be
// lost (a dropped connection). Its calls must end in bounded time (the
// PostgreSQL store bounds each): a listing that fails is retried by a
// probe, off the readers' path (see sourceWatcher).
type ManifestStore interface {
	// ManifestPath names agent id's manifest (Agent.File).
	ManifestPath(id string) string
	// Manifest returns agent id's manifest.
	Manifest(ctx context.Context, id string) ([]byte, error)
	// Versions returns every manifest's version, by agent id; a write
	// changes its manifest's version.
	Versions(ctx context.Context) (map[string]int64, error)
}

// DefaultReconcile is how often a Library on a ManifestStore lists the versions
// without having been notified.
const DefaultReconcile = 5 * time.Second

// OpenStore loads the manifests of src. root is the library directory
// that still holds what src does not (requests, the registry, the audit
// log); Root returns it. reconcile <= 0 is DefaultReconcile.
func OpenStore(root string, src ManifestStore, reconcile time.Duration, log *slog.Logger) (*Library, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if reconcile <= 0 {
		reconcile = DefaultReconcile
	}
	w := &sourceWatcher{every: reconcile, src: src, stop: make(chan struct{})}
	l := &Library{root: abs, agentsDir: filepath.Join(abs, "agents"), log: log, src: src, files: map[string]*fileState{}, watch: w}
	l.current.Store(&Snapshot{agents: map[string]*Agent{}})
	l.mu.Lock()
	defer l.mu.Unlock()
	w.last = time.Now()
	if _, err := l.rescan(context.Background(), func(string) bool { return true }, nil); err != nil {
		return nil, err
	}
	return l, nil
}

// Notify tells a Library on a ManifestStore that a manifest changed, or that
// changes may have been missed: the next Snapshot lists the versions. On a
// directory it does nothing; the directory has its watcher.
func (l *Library) Notify() {
	if w, ok := l.watch.(*sourceWatcher); ok {
		w.notify()
	}
}

// sourceWatcher asks for a listing when notified, and at least every
// interval. Once a listing fails (the database does not answer), it asks
// for none until it is notified (the listener reconnected) or a probe of
// its own, every interval, lists the versions again: meanwhile reads are
// served the last snapshot at once rather than each waiting for the store
// to give up.
type sourceWatcher struct {
	src   ManifestStore
	every time.Duration
	stop  chan struct{} // closed by close: ends a probe

	mu      sync.Mutex
	pending bool
	last    time.Time // of the last listing
	down    bool      // a probe is waiting for the store to answer
	probes  int       // counts the probes started: a probe ends when another starts
	closed  bool
}

func (w *sourceWatcher) notify() {
	w.mu.Lock()
	w.pending, w.down = true, false
	w.mu.Unlock()
}

// changed never forces a read: versions are exact, unlike file stamps.
func (w *sourceWatcher) changed() (bool, map[string]bool, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	if w.down || !w.pending && now.Sub(w.last) < w.every {
		return false, nil, false
	}
	w.pending, w.last = false, now
	return true, nil, false
}

// failed is told that a listing failed: it starts the probe, which asks
// for a listing once the store answers again.
func (w *sourceWatcher) failed() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.down || w.closed {
		return
	}
	w.down = true
	w.probes++
	go w.probe(w.probes)
}

// probe lists the versions every interval until the store answers, the
// watcher is notified, or another probe starts.
func (w *sourceWatcher) probe(n int) {
	for {
		select {
		case <-w.stop:
			return
		case <-time.After(w.every):
		}
		w.mu.Lock()
		over := !w.down || w.probes != n
		w.mu.Unlock()
		if over {
			return
		}
		if _, err := w.src.Versions(context.Background()); err == nil {
			w.mu.Lock()
			if w.probes == n {
				w.down, w.pending = false, true
			}
			w.mu.Unlock()
			return
		}
	}
}

func (w *sourceWatcher) close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		close(w.stop)
	}
	return nil
}
