package knowledge

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/requests"
)

// DefaultPoll is how often Watch looks at the corpus roots when
// Options.Poll is zero.
const DefaultPoll = time.Second

// Options configure a Base.
type Options struct {
	// Dirs are the corpus roots, in docs.Load order; none means a base of
	// memory only.
	Dirs []string
	// Store is the memory federation; nil means a base of documentation
	// only.
	Store *federation.Store
	// Embedder embeds the search index; nil means the offline model
	// trained on the corpus (docsearch.TrainEmbedder, 128 dimensions).
	Embedder embed.Embedder
	// EmbedderCache is a directory where the offline model is kept,
	// keyed by the corpus fingerprint (docsearch.CachedEmbedder), so that
	// a restart over the same corpus does not train it again; "" trains
	// it at every load.
	EmbedderCache string
	// Dictionary, when set, tells real words from misspelt ones, so that
	// search repairs only the misspelt (wordnet.DefaultLexicon);
	// nil repairs any word the corpus lacks.
	Dictionary embed.Dictionary
	// Logger receives rebuilds and their failures; nil discards them.
	Logger *slog.Logger
	// Poll is how often Watch looks for changed files under Dirs;
	// DefaultPoll when zero.
	Poll time.Duration
	// Requests is the request store whose requests join the graph (see
	// requests.go); nil for none.
	Requests *requests.Store
	// RequestsReconcile, when set, is how often Watch fingerprints the
	// requests of its own accord: set it when every change to them is
	// announced through DocumentChanged (a PostgreSQL store's
	// notifications), which makes Watch look at once; the interval then
	// only catches what an announcement missed. Zero looks every Poll.
	RequestsReconcile time.Duration
}

// Base is the live knowledge base. It is safe for concurrent use.
type Base struct {
	opts Options
	log  *slog.Logger

	mu sync.Mutex // serialises rebuilds; guards corpus, agents and reqs
	// corpus is the documentation half of the current snapshot.
	corpus *corpus
	// agents are the memory nodes of each manifest of the current
	// snapshot, reused while the library keeps the manifest.
	agents map[*l5.Manifest]*agentMemory
	// reqs are the requests of the current snapshot, read again only when
	// the request folder's fingerprint changes.
	reqs    *requestSet
	current atomic.Pointer[Snapshot]
	// nudged is signalled by DocumentChanged for Watch; it holds one
	// signal, which stands for any number.
	nudged chan struct{}
}

// requestSet is the requests read at one fingerprint of their folder.
type requestSet struct {
	stamp uint64
	all   []*requests.Request
}

// Open builds the first snapshot: it loads and indexes the corpus and
// joins the store's memory. A corpus root that cannot be read is an error;
// problems inside the corpus are not (see Snapshot.Problems).
func Open(ctx context.Context, opts Options) (*Base, error) {
	if opts.Poll <= 0 {
		opts.Poll = DefaultPoll
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	b := &Base{opts: opts, log: log, agents: map[*l5.Manifest]*agentMemory{}, nudged: make(chan struct{}, 1)}
	if _, err := b.Reload(ctx); err != nil {
		return nil, err
	}
	return b, nil
}

// Current returns the current snapshot.
func (b *Base) Current() *Snapshot { return b.current.Load() }

// Reload brings the base up to date now and returns the current snapshot.
// The corpus is loaded again when a file under its roots changed since
// the last load, and the memory joined again when the library changed;
// when neither did, the current snapshot is returned as it is. On an
// error the current snapshot stays.
func (b *Base) Reload(ctx context.Context) (*Snapshot, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	stamp := fingerprint(b.opts.Dirs)
	var lastReq uint64
	if b.reqs != nil {
		lastReq = b.reqs.stamp
	}
	reqStamp := b.requestsStamp(lastReq)
	lib := b.library()
	prev := b.current.Load()
	if prev != nil && prev.stamp == stamp && prev.lib == lib && prev.reqStamp == reqStamp {
		return prev, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if b.corpus == nil || b.corpus.stamp != stamp {
		c, err := loadCorpus(ctx, b.opts, stamp, b.log)
		if err != nil {
			return nil, fmt.Errorf("knowledge: %w", err)
		}
		b.corpus = c
	}
	if b.reqs == nil || b.reqs.stamp != reqStamp {
		b.reqs = &requestSet{stamp: reqStamp, all: b.requests()}
	}
	g, acc, err := join(b.corpus.graph, b.corpus.byKey, b.memory(lib), b.reqs.all, b.log)
	if err != nil {
		return nil, fmt.Errorf("knowledge: %w", err)
	}
	s := &Snapshot{
		Graph:    g,
		Index:    b.corpus.index,
		Problems: b.corpus.problems,
		Built:    time.Now(),
		Version:  1,
		access:   acc,
		stamp:    stamp,
		reqStamp: reqStamp,
		lib:      lib,
	}
	if prev != nil {
		s.Version = prev.Version + 1
	}
	b.current.Store(s)
	b.log.Info("knowledge base built", "version", s.Version, "nodes", g.Len(), "edges", g.EdgeCount(), "problems", len(s.Problems), "took", time.Since(start))
	return s, nil
}

// library returns the store's current library snapshot, or nil without a
// store.
func (b *Base) library() *library.Snapshot {
	if b.opts.Store == nil {
		return nil
	}
	return b.opts.Store.Snapshot()
}

// memory returns the memory nodes of every agent of lib, in agent id
// order, making them only for the manifests that changed since the last
// call. b.mu must be held.
func (b *Base) memory(lib *library.Snapshot) []*agentMemory {
	if lib == nil {
		return nil
	}
	ids := lib.IDs()
	out := make([]*agentMemory, len(ids))
	var todo []int
	for i, id := range ids {
		a, _ := lib.Agent(id)
		if out[i] = b.agents[a.Manifest]; out[i] == nil {
			todo = append(todo, i)
		}
	}
	parallel(len(todo), func(k int) {
		a, _ := lib.Agent(ids[todo[k]])
		out[todo[k]] = newAgentMemory(a)
	})
	next := make(map[*l5.Manifest]*agentMemory, len(ids))
	for i, id := range ids {
		a, _ := lib.Agent(id)
		next[a.Manifest] = out[i]
	}
	b.agents = next
	return out
}
