package knowledge

import (
	"context"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
)

// Timing of Watch: the library is looked at every watchStep (or every
// Poll, if shorter), and so are the corpus roots while a change is
// pending; a burst of changes is rebuilt once it has been quiet for
// watchQuiet, or after watchMaxDelay at the latest.
const (
	watchStep     = 50 * time.Millisecond
	watchQuiet    = 200 * time.Millisecond
	watchMaxDelay = 2 * time.Second
)

// Watch follows the corpus roots and the memory store until ctx ends,
// rebuilding when a file under a root is added, removed or modified
// (looked for every Options.Poll), when the store's library changes, or
// when the requests do (looked for every Options.Poll, or every
// Options.RequestsReconcile and whenever DocumentChanged names one).
// Bursts of changes are coalesced into one rebuild. After each rebuild it
// calls onChange, when not nil, with the snapshot it last reported, the
// new one, and the uids whose content changed, that were added and that
// were removed (docs.Diff: edges are not compared, so all three may be
// empty). A rebuild that fails is logged and the old snapshot stays; the
// next change tries again.
func (b *Base) Watch(ctx context.Context, onChange func(old, new *Snapshot, changed, added, removed []string)) {
	t := time.NewTicker(min(b.opts.Poll, watchStep))
	defer t.Stop()
	last := b.Current()
	now := time.Now()
	w := watchState{stamp: last.stamp, reqStamp: last.reqStamp, gen: generation(last), nextPoll: now.Add(b.opts.Poll), nextReqPoll: now.Add(b.requestsEvery())}
	for {
		select {
		case <-ctx.Done():
			return
		case <-b.nudged:
			w.nudged = true
			if !b.look(&w, time.Now()) {
				continue
			}
		case now := <-t.C:
			if !b.look(&w, now) {
				continue
			}
		}
		next, err := b.Reload(ctx)
		if err != nil {
			if ctx.Err() == nil {
				b.log.Error("knowledge base rebuild failed; keeping the last one", "version", last.Version, "err", err)
			}
			continue
		}
		if next == last {
			continue
		}
		if onChange != nil {
			changed, added, removed := docs.Diff(last.Graph, next.Graph)
			onChange(last, next, changed, added, removed)
		}
		last = next
	}
}

// watchState is what Watch knows of its inputs between two rebuilds.
type watchState struct {
	stamp    uint64    // the corpus fingerprint last seen
	reqStamp uint64    // the requests' stamp last seen
	gen      uint64    // the library generation last seen
	nextPoll time.Time // when to look at the corpus next
	// nextReqPoll is when to look at the requests next; nudged, that
	// DocumentChanged asked for a look since the last.
	nextReqPoll time.Time
	nudged      bool
	// first and latest are when the first and the latest change not
	// rebuilt yet were seen; first is zero when there is none.
	first, latest time.Time
}

// look notes what changed since the last look and reports whether a
// rebuild is due now; if so, the pending changes are taken as rebuilt.
// The corpus is looked at every Options.Poll, the requests every
// requestsEvery or when nudged, and both at every look while a change is
// pending, so that its quiet is measured too.
func (b *Base) look(w *watchState, now time.Time) bool {
	seen := false
	if b.opts.Store != nil {
		if g := b.opts.Store.Snapshot().Generation; g != w.gen {
			seen, w.gen = true, g
		}
	}
	pending := !w.first.IsZero()
	if pending || !now.Before(w.nextPoll) {
		w.nextPoll = now.Add(b.opts.Poll)
		if s := fingerprint(b.opts.Dirs); s != w.stamp {
			seen, w.stamp = true, s
		}
	}
	if pending || w.nudged || !now.Before(w.nextReqPoll) {
		w.nextReqPoll, w.nudged = now.Add(b.requestsEvery()), false
		if s := b.requestsStamp(w.reqStamp); s != w.reqStamp {
			seen, w.reqStamp = true, s
		}
	}
	if seen {
		if w.first.IsZero() {
			w.first = now
		}
		w.latest = now
	}
	if w.first.IsZero() || now.Sub(w.latest) < watchQuiet && now.Sub(w.first) < watchMaxDelay {
		return false
	}
	w.first = time.Time{}
	return true
}

// requestsEvery is how often Watch looks at the requests of its own
// accord.
func (b *Base) requestsEvery() time.Duration {
	if b.opts.RequestsReconcile > 0 {
		return b.opts.RequestsReconcile
	}
	return b.opts.Poll
}

// generation returns the library generation s was built from, 0 without
// a store.
func generation(s *Snapshot) uint64 {
	if s.lib == nil {
		return 0
	}
	return s.lib.Generation
}
