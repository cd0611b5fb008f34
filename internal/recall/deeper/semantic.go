package deeper

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// The semantic arm.
//
// With an embedder (Options.Embedder), every row that says something is
// embedded in the background, as the redacted text a reader could see of
// it (embedText), and the prompt is embedded with each call. The rows
// nearest the prompt by cosine (denseDepth of them, among the rows the
// reader may see) are fused with the lexical ranking by reciprocal rank:
// a row scores 1/(rrfK + its lexical rank) + denseWeight/(rrfK + its
// dense rank). An entity the prompt names stays first. So a row the
// lexical ranking placed low rises when the model also finds it close,
// and a row that shares no word with the prompt ("Where does she live
// now?" / "I bought a flat in Portobello") can still enter the context.
// The dense list weighs half the lexical one: the model has not seen the
// library's names and ids, which the lexical doors match exactly.
//
// Private rows are not embedded: the embedding service may be remote, and
// a private row is its agent's alone. They are found by the lexical doors
// as before.
//
// Vectors are kept by the digest of their text, so a changed manifest
// re-embeds only its new or edited rows. Until an agent's rows are
// embedded (after a start, or while the embedding service is down), its
// rows are ranked by the lexical doors alone, and the payload's semantic
// status says how many rows were pending.
const (
	rrfK        = 60
	denseWeight = 0.5
	denseDepth  = 40
	// embedBatch is the number of texts per call of the embedder.
	embedBatch = 64
	// maxEmbedRunes bounds the text of a row that is embedded.
	maxEmbedRunes = 2000
	// retryAfter is how long the background embedding waits after the
	// service failed.
	retryAfter = 30 * time.Second
	// DefaultEmbedTimeout bounds the embedding of a prompt.
	DefaultEmbedTimeout = 2 * time.Second
)

// DoorSemantic is the door of a row found by the embedder alone.
const DoorSemantic = "semantic"

// SemanticStatus reports the semantic arm of one call.
type SemanticStatus struct {
	// Status is ok, pending (no visible row is embedded yet), timeout or
	// error (the prompt could not be embedded), or skipped (empty prompt).
	Status string `json:"status"`
	// Rows is the number of visible rows compared with the prompt;
	// Pending the visible rows not embedded yet.
	Rows      int     `json:"rows"`
	Pending   int     `json:"pending"`
	LatencyMS float64 `json:"latency_ms"`
	// Detail explains an error, redacted.
	Detail string `json:"detail,omitempty"`
}

// segVectors are the unit vectors of a segment's documents: document i's
// is data[i*dim:(i+1)*dim] when has[i], the vector of the text whose
// digest is keys[i].
type segVectors struct {
	dim  int
	data []float32
	has  []bool
	keys [][sha256.Size]byte
}

// at returns document i's vector, or nil.
func (sv *segVectors) at(i int32) []float32 {
	if !sv.has[i] {
		return nil
	}
	return sv.data[int(i)*sv.dim : (int(i)+1)*sv.dim]
}

// semantic embeds the library's rows in the background and ranks rows by
// their closeness to a prompt.
type semantic struct {
	emb       embed.Embedder
	timeout   time.Duration
	log       *slog.Logger
	cachePath string // the vectors on disk (vectorcache.go); "" for none

	mu sync.Mutex
	// cache holds unit vectors by digest of their text; each is a row of
	// a segment's vectors, not a copy.
	cache    map[[sha256.Size]byte][]float32
	queue    []*segment
	queued   map[*segment]bool
	running  bool
	failedAt time.Time
	latest   *view // the view last tracked: what the cache keeps
	dirty    bool  // vectors embedded since the cache file was written
}

// newSemantic returns the arm of embedder emb; cachePath, when not "",
// is the file its vectors are read from now and kept in.
func newSemantic(emb embed.Embedder, timeout time.Duration, log *slog.Logger, cachePath string) *semantic {
	if timeout <= 0 {
		timeout = DefaultEmbedTimeout
	}
	s := &semantic{emb: emb, timeout: timeout, log: log, cachePath: cachePath, cache: map[[sha256.Size]byte][]float32{}, queued: map[*segment]bool{}}
	if cachePath != "" {
		vecs, err := readVectorCache(cachePath, emb.Name(), emb.Dim())
		switch {
		case err == nil:
			s.cache = vecs
		case !errors.Is(err, fs.ErrNotExist) && log != nil:
			log.Warn("the semantic arm's vector cache is not used; the library's rows are embedded again", "file", cachePath, "err", err)
		}
	}
	return s
}

// track queues the view's segments that have no vectors yet and starts
// the background worker if it is not running (and the service has not
// failed within retryAfter). An older view than the one tracked is
// ignored.
func (s *semantic) track(v *view) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.latest != nil && s.latest.gen > v.gen {
		return // a call that read the library earlier: a newer view is tracked
	}
	s.latest = v
	for _, seg := range v.segs {
		if seg.vecs.Load() == nil && !s.queued[seg] {
			s.queued[seg] = true
			s.queue = append(s.queue, seg)
		}
	}
	if s.running || len(s.queue) == 0 || (!s.failedAt.IsZero() && time.Since(s.failedAt) < retryAfter) {
		return
	}
	s.running = true
	go s.work()
}

// work embeds the queued segments, one at a time, until the queue is
// empty or the service fails; then it drops the vectors no segment of the
// latest view uses.
func (s *semantic) work() {
	for {
		s.mu.Lock()
		if len(s.queue) == 0 {
			s.running = false
			s.prune()
			var save map[[sha256.Size]byte][]float32
			if s.dirty && s.cachePath != "" {
				save, s.dirty = maps.Clone(s.cache), false
			}
			s.mu.Unlock()
			if save != nil {
				if err := writeVectorCache(s.cachePath, s.emb.Name(), s.emb.Dim(), save); err != nil && s.log != nil {
					s.log.Warn("writing the semantic arm's vector cache failed", "file", s.cachePath, "err", err)
				}
			}
			return
		}
		seg := s.queue[0]
		s.queue = s.queue[1:]
		live := slices.Contains(s.latest.segs, seg)
		s.mu.Unlock()
		if !live {
			s.mu.Lock()
			delete(s.queued, seg)
			s.mu.Unlock()
			continue
		}
		if err := s.embedSegment(seg); err != nil {
			s.mu.Lock()
			s.failedAt = time.Now()
			s.running = false
			s.queue = nil
			clear(s.queued) // queued again by the next call after retryAfter
			s.mu.Unlock()
			if s.log != nil {
				s.log.Warn("embedding the library's rows failed; get_deeper_context ranks them lexically meanwhile", "agent", seg.agent, "err", err, "retry_after", retryAfter)
			}
			return
		}
		s.mu.Lock()
		delete(s.queued, seg)
		s.failedAt = time.Time{}
		s.mu.Unlock()
	}
}

// prune keeps the cache to the vectors of the latest view's segments
// (all embedded when the queue is empty), each now pointing into the
// segment that holds it, so the vectors of replaced segments are freed.
// s.mu is held.
func (s *semantic) prune() {
	keep := make(map[[sha256.Size]byte][]float32, len(s.cache))
	for _, seg := range s.latest.segs {
		sv := seg.vecs.Load()
		if sv == nil {
			continue
		}
		for i, k := range sv.keys {
			if v := sv.at(int32(i)); v != nil {
				keep[k] = v
			}
		}
	}
	s.cache = keep
}

// embedSegment gives seg its vectors, embedding the texts the cache does
// not hold.
func (s *semantic) embedSegment(seg *segment) error {
	dim := s.emb.Dim()
	sv := &segVectors{dim: dim, data: make([]float32, len(seg.docs)*dim), has: make([]bool, len(seg.docs)), keys: make([][sha256.Size]byte, len(seg.docs))}
	texts := make([]string, len(seg.docs))
	for i := range seg.docs {
		if seg.docs[i].vis == visibility.Private {
			continue // private rows never leave for the service
		}
		if texts[i] = embedText(seg, i); texts[i] != "" {
			sv.keys[i] = sha256.Sum256([]byte(texts[i]))
		}
	}
	var batch []string                       // the texts to embed, each once
	var batchKeys [][sha256.Size]byte        // their digests
	waiting := map[[sha256.Size]byte][]int{} // their documents
	s.mu.Lock()
	for i, text := range texts {
		if text == "" {
			continue
		}
		if v, ok := s.cache[sv.keys[i]]; ok {
			copy(sv.data[i*dim:], v)
			sv.has[i] = true
			continue
		}
		if waiting[sv.keys[i]] == nil {
			batch = append(batch, text)
			batchKeys = append(batchKeys, sv.keys[i])
		}
		waiting[sv.keys[i]] = append(waiting[sv.keys[i]], i)
	}
	s.mu.Unlock()
	for start := 0; start < len(batch); start += embedBatch {
		end := min(start+embedBatch, len(batch))
		vecs, err := s.emb.Embed(context.Background(), batch[start:end])
		if err == nil {
			err = embed.Check(vecs, end-start, dim)
		}
		if err != nil {
			return err
		}
		s.mu.Lock()
		for j, v := range vecs {
			embed.Normalize(v)
			k := batchKeys[start+j]
			for _, i := range waiting[k] {
				copy(sv.data[i*dim:], v)
				sv.has[i] = true
			}
			s.cache[k] = sv.at(int32(waiting[k][0]))
		}
		s.dirty = true
		s.mu.Unlock()
	}
	seg.vecs.Store(sv)
	return nil
}

// embedText is what the embedder sees of document i of seg: the row's
// words, redacted as a reader would see them, without the markup of its
// context line; "" for a row that says nothing (an entity without a
// summary) or that redaction replaced whole (it holds a credential).
func embedText(seg *segment, i int) string {
	d := seg.docs[i]
	m := seg.m
	var parts []string
	switch d.kind {
	case kindEntity:
		e := &m.Entities[d.pos]
		if strings.TrimSpace(e.Summary) == "" {
			return ""
		}
		parts = []string{e.Name + ": " + e.Summary}
	case kindSession:
		ses := &m.Sessions[d.pos]
		parts = append(slices.Clone(ses.ProjectFocus), ses.KeyActions...)
	case kindWorkstream:
		w := &m.Workstreams[d.pos]
		parts = []string{w.Name, w.Summary}
	case kindNote:
		parts = []string{m.Notes[d.pos].Text}
	}
	text := safe(strings.Join(slices.DeleteFunc(parts, func(p string) bool { return strings.TrimSpace(p) == "" }), ". "), maxEmbedRunes)
	if text == redact.Sentinel {
		return ""
	}
	return text
}

// promptVector embeds the prompt within the timeout.
func (s *semantic) promptVector(ctx context.Context, prompt string) ([]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	vecs, err := s.emb.Embed(ctx, []string{prompt})
	if err != nil {
		return nil, err
	}
	if err := embed.Check(vecs, 1, s.emb.Dim()); err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(vecs[0], func(x float32) bool { return x != 0 }) {
		return nil, errNoVector
	}
	embed.Normalize(vecs[0])
	return vecs[0], nil
}

// nearest returns the denseDepth documents of the view nearest vec among
// those q lets the reader see, nearest first, and counts the visible
// documents compared and those not embedded yet.
func (v *view) nearest(q query, vec []float32) (near []hit, rows, pending int) {
	for _, seg := range v.segs {
		if q.reader != nil && !q.reader(seg.agent) {
			continue
		}
		sv := seg.vecs.Load()
		if sv == nil {
			n, _ := seg.countAt(q.level)
			pending += int(n)
			continue
		}
		for i := range seg.docs {
			v := sv.at(int32(i))
			if seg.docs[i].vis > q.level || v == nil {
				continue
			}
			rows++
			sim := embed.Dot(v, vec)
			if len(near) == denseDepth && sim <= near[len(near)-1].sim {
				continue
			}
			h := hit{seg: seg, doc: int32(i), sim: sim}
			at, _ := slices.BinarySearchFunc(near, sim, func(e hit, s float32) int { return cmp.Compare(s, e.sim) })
			near = slices.Insert(near, at, h)
			if len(near) > denseDepth {
				near = near[:denseDepth]
			}
		}
	}
	return near, rows, pending
}

// fuse merges the lexical hits (best first) with the documents nearest
// the prompt's vector by reciprocal rank. Entities the prompt names (tier
// 2) keep their places at the top; the other hits are ordered by their
// fused score. A document found by the embedder alone comes in with tier
// 0 and no terms, and its door is semantic. Every hit with a vector gets
// its cosine.
func fuse(lexical, near []hit, vec []float32) []hit {
	type key struct {
		seg *segment
		doc int32
	}
	fused := map[key]float64{}
	var out []hit
	at := map[key]int{}
	for r, h := range lexical {
		k := key{h.seg, h.doc}
		fused[k] += 1 / float64(rrfK+r+1)
		at[k] = len(out)
		if sv := h.seg.vecs.Load(); sv != nil {
			if v := sv.at(h.doc); v != nil {
				h.sim = embed.Dot(v, vec)
			}
		}
		out = append(out, h)
	}
	for r, h := range near {
		k := key{h.seg, h.doc}
		fused[k] += denseWeight / float64(rrfK+r+1)
		if _, ok := at[k]; ok {
			continue
		}
		h.dense = true
		at[k] = len(out)
		out = append(out, h)
	}
	slices.SortStableFunc(out, func(a, b hit) int {
		if ta, tb := a.tier == 2, b.tier == 2; ta != tb {
			if ta {
				return -1
			}
			return 1
		} else if ta {
			return 0 // named entities keep the lexical order
		}
		return cmp.Compare(fused[key{b.seg, b.doc}], fused[key{a.seg, a.doc}])
	})
	return out
}

// errNoVector is the error of a prompt embedded to a zero vector.
var errNoVector = errors.New("the embedder returned a zero vector for the prompt")

// semanticStatus is the status of a call whose prompt took latency to
// embed.
func semanticStatus(err error, rows, pending int, latency time.Duration) *SemanticStatus {
	st := &SemanticStatus{Status: "ok", Rows: rows, Pending: pending, LatencyMS: math.Round(float64(latency.Microseconds())/10) / 100}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		st.Status = "timeout"
	case err != nil:
		st.Status, st.Detail = "error", safe(err.Error(), fieldLimit)
	case rows == 0:
		st.Status = "pending"
	}
	return st
}
