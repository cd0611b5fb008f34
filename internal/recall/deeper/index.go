package deeper

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// kind is the kind of library row a document is.
type kind uint8

// The row kinds, in the order a manifest lists them.
const (
	kindEntity kind = iota
	kindSession
	kindWorkstream
	kindNote
)

func (k kind) String() string {
	switch k {
	case kindSession:
		return "session"
	case kindWorkstream:
		return "workstream"
	case kindNote:
		return "note"
	}
	return "entity"
}

// doc is one row of a manifest, indexed.
type doc struct {
	kind   kind
	vis    visibility.Level
	pos    int32   // the row's position in its manifest list
	length float32 // weighted number of terms, its neighbours' included
	asks   bool    // a note that ends with a question mark
	holds  uint8   // answer types its text holds (textHolds)
	// speaker is the number of the note's speaker in segment.speakers
	// (the "Name" of a text that reads "Name: ..."), 0 for none.
	speaker uint16
}

// posting is one document that holds a term, with its weighted term
// frequency.
type posting struct {
	doc int32
	tf  float32
}

// termEntry is a term's postings (by document) and its document
// frequency by row visibility.
type termEntry struct {
	postings []posting
	df       [3]int32
}

// segment is the index of one manifest: the term statistics of one
// agent, so that a library of many agents ranks each agent's rows by
// that agent's vocabulary. It is built once per loaded manifest and
// never changed.
type segment struct {
	agent   string
	m       *l5.Manifest
	docs    []doc
	terms   map[string]*termEntry
	count   [3]int32           // documents by visibility
	length  [3]float64         // total length by visibility
	anchors map[string][]int32 // entity key -> documents about that entity
	// tags files every document under its tags, exactly as written
	// (trimmed, lower-cased): tags are keys, not text.
	tags map[string][]int32
	// speakers numbers the speakers of the segment's notes (lower-cased
	// names, from 1), at most maxSpeakers of them.
	speakers map[string]uint16
	// nameRefs files every entity document under the terms of its name
	// and of each alias; nameLens[doc][i] is the number of distinct terms
	// of the document's name i (nil for other kinds).
	nameRefs map[string][]nameRef
	nameLens [][]uint8
	// vecs are the documents' vectors, set once by the semantic arm when
	// it has embedded them (semantic.go); nil until then.
	vecs atomic.Pointer[segVectors]
}

// nameRef is name number name of entity document doc.
type nameRef struct {
	doc  int32
	name uint8
}

// dfAt is the number of documents of the segment holding e at level.
func (e *termEntry) dfAt(level visibility.Level) int32 {
	n := int32(0)
	for v := visibility.Public; v <= level; v++ {
		n += e.df[v]
	}
	return n
}

// countAt is the number of documents of the segment visible at level,
// and their total length.
func (s *segment) countAt(level visibility.Level) (int32, float64) {
	n, total := int32(0), 0.0
	for v := visibility.Public; v <= level; v++ {
		n += s.count[v]
		total += s.length[v]
	}
	return n, total
}

// Field weights: a term in a name counts twice. A note or a session also
// holds the terms of its neighbours (the rows of the same kind just
// before and after it with the same date, up to neighbourWindow rows
// each way: the turns around a turn of a conversation, the sessions of a
// day), at prevWeight before it and nextWeight after it, halved at each
// further step, so that a reply is found by the words of what it
// answers. Only neighbours at the
// row's visibility or a more public one lend their terms, so a row's
// score never depends on text its reader may not see.
const (
	weightName      = 2
	weightText      = 1
	prevWeight      = 0.7
	neighbourWindow = 3
	nextWeight      = 0.3
)

// buildSegment indexes one manifest: one document per entity, session,
// workstream and note.
//
//	entity      name and aliases (x2), type, summary
//	session     project focus (x2), key actions, files touched, the cwd's
//	            last directory; and its neighbours'
//	workstream  name (x2), status, summary, related entities
//	note        text, related entities; and its neighbours'
//
// Tags are not text: every document is filed under its tags as keys
// (segment.tags). A document is also filed under the entities it is about
// (anchors): an entity under its name and aliases, a session under its
// project focus, a workstream under its name and related entities, a note
// under its related entities.
func buildSegment(agent string, m *l5.Manifest) *segment {
	s := &segment{agent: agent, m: m, terms: map[string]*termEntry{}, anchors: map[string][]int32{},
		tags: map[string][]int32{}, nameRefs: map[string][]nameRef{}, speakers: map[string]uint16{}}
	b := rowTerms{cache: map[string]string{}}
	var own [][2]int // each document's own terms: b.terms[own[id][0]:own[id][1]]
	add := func(kind kind, pos int, vis visibility.Level, anchors, tags []string) {
		id := int32(len(s.docs))
		s.docs = append(s.docs, doc{kind: kind, vis: vis, pos: int32(pos)})
		start := 0
		if len(own) > 0 {
			start = own[len(own)-1][1]
		}
		own = append(own, [2]int{start, len(b.terms)})
		for _, a := range anchors {
			if k := federation.Key(a); k != "" {
				if list := s.anchors[k]; len(list) == 0 || list[len(list)-1] != id {
					s.anchors[k] = append(list, id)
				}
			}
		}
		for _, t := range tags {
			if k := tagKey(t); k != "" {
				if list := s.tags[k]; len(list) == 0 || list[len(list)-1] != id {
					s.tags[k] = append(list, id)
				}
			}
		}
	}
	for i := range m.Entities {
		e := &m.Entities[i]
		var lens []uint8
		id := int32(len(s.docs))
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			var ts []string
			b.each(n, func(t string) {
				if !slices.Contains(ts, t) {
					ts = append(ts, t)
				}
			})
			if len(ts) == 0 || len(ts) > 255 || len(lens) == 255 {
				continue
			}
			for _, t := range ts {
				s.nameRefs[t] = append(s.nameRefs[t], nameRef{doc: id, name: uint8(len(lens))})
			}
			lens = append(lens, uint8(len(ts)))
		}
		s.nameLens = append(s.nameLens, lens)
		b.add(e.Name, weightName)
		for _, a := range e.Aliases {
			b.add(a, weightName)
		}
		b.add(e.Type, weightText)
		b.add(e.Summary, weightText)
		add(kindEntity, i, e.Visibility, append([]string{e.Name}, e.Aliases...), e.Tags)
	}
	for i := range m.Sessions {
		ses := &m.Sessions[i]
		for _, f := range ses.ProjectFocus {
			b.add(f, weightName)
		}
		for _, a := range ses.KeyActions {
			b.add(a, weightText)
		}
		for _, f := range ses.FilesTouched {
			b.add(f, weightText)
		}
		if ses.Cwd != nil {
			b.add(cwdBase(*ses.Cwd), weightText)
		}
		add(kindSession, i, ses.Visibility, ses.ProjectFocus, nil)
		s.nameLens = append(s.nameLens, nil)
	}
	for i := range m.Workstreams {
		w := &m.Workstreams[i]
		b.add(w.Name, weightName)
		b.add(w.Status, weightText)
		b.add(w.Summary, weightText)
		for _, r := range w.RelatedEntities {
			b.add(r, weightText)
		}
		add(kindWorkstream, i, w.Visibility, append([]string{w.Name}, w.RelatedEntities...), w.Tags)
		s.nameLens = append(s.nameLens, nil)
	}
	for i := range m.Notes {
		n := &m.Notes[i]
		b.add(n.Text, weightText)
		for _, r := range n.RelatedEntities {
			b.add(r, weightText)
		}
		add(kindNote, i, n.Visibility, n.RelatedEntities, n.Tags)
		d := &s.docs[len(s.docs)-1]
		d.asks = strings.HasSuffix(strings.TrimSpace(n.Text), "?")
		d.holds = textHolds(n.Text)
		if who, _ := splitSpeaker(n.Text); who != "" {
			key := strings.ToLower(who)
			if s.speakers[key] == 0 && len(s.speakers) < maxSpeakers {
				s.speakers[key] = uint16(len(s.speakers) + 1)
			}
			d.speaker = s.speakers[key]
		}
		s.nameLens = append(s.nameLens, nil)
	}

	tf := map[string]float32{}
	for id := range s.docs {
		d := &s.docs[id]
		clear(tf)
		d.length = b.into(tf, own[id], 1)
		for _, nb := range s.neighbours(id) {
			if s.docs[nb.doc].vis <= d.vis {
				d.length += b.into(tf, own[nb.doc], nb.weight)
			}
		}
		s.count[d.vis]++
		s.length[d.vis] += float64(d.length)
		for t, f := range tf {
			e := s.terms[t]
			if e == nil {
				e = &termEntry{}
				s.terms[t] = e
			}
			e.postings = append(e.postings, posting{doc: int32(id), tf: f})
			e.df[d.vis]++
		}
	}
	for _, e := range s.terms {
		e.postings = slices.Clip(e.postings)
	}
	return s
}

// neighbour is a document near another, and the weight its terms lend.
type neighbour struct {
	doc    int
	weight float32
}

// neighbours returns the documents up to neighbourWindow before and after
// document id that are notes (or sessions) like it of the same day,
// stopping at the first that is not; the weight of each is prevWeight or
// nextWeight, halved at each further step.
func (s *segment) neighbours(id int) []neighbour {
	d := s.docs[id]
	if d.kind != kindNote && d.kind != kindSession {
		return nil
	}
	var out []neighbour
	for _, dir := range []int{-1, 1} {
		w := float32(nextWeight)
		if dir < 0 {
			w = prevWeight
		}
		for step := 1; step <= neighbourWindow; step++ {
			nb := id + dir*step
			if nb < 0 || nb >= len(s.docs) || s.docs[nb].kind != d.kind || s.rowDate(nb) != s.rowDate(id) {
				break
			}
			out = append(out, neighbour{nb, w})
			w /= 2
		}
	}
	return out
}

// rowDate is the day of a note or session document: the date as
// written, cut to its YYYY-MM-DD part when it starts with one (a
// timestamp's turns of one day are neighbours too).
func (s *segment) rowDate(id int) string {
	d := s.docs[id]
	var text string
	if d.kind == kindNote {
		text = s.m.Notes[d.pos].Date
	} else {
		text = s.m.Sessions[d.pos].Date
	}
	if len(text) > 10 && text[4] == '-' && text[7] == '-' {
		return text[:10]
	}
	return text
}

// tagKey is the key a tag is filed under and matched by: trimmed and
// lower-cased, "" for a blank tag.
func tagKey(tag string) string { return strings.ToLower(strings.TrimSpace(tag)) }

// cwdBase returns the last directory of a session's cwd (either slash).
func cwdBase(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// rowTerms are the weighted terms of the rows of one manifest, in order
// of appearance, and the term of every word met (cache: "" for none).
type rowTerms struct {
	terms   []string
	weights []float32
	cache   map[string]string
}

func (r *rowTerms) add(text string, w float32) {
	r.each(text, func(t string) {
		r.terms = append(r.terms, t)
		r.weights = append(r.weights, w)
	})
}

// each is eachTerm with the cache.
func (r *rowTerms) each(text string, fn func(term string)) {
	analyze.Words(redact.Blank(text), func(word string, _, _ int) {
		t, ok := r.cache[word]
		if !ok {
			t, _ = analyze.Normalize(word)
			r.cache[word] = t
		}
		if t != "" {
			fn(t)
		}
	})
}

// into adds the terms span (a range of r.terms), times scale, to tf and
// returns the length they add.
func (r *rowTerms) into(tf map[string]float32, span [2]int, scale float32) float32 {
	var n float32
	for i := span[0]; i < span[1]; i++ {
		tf[r.terms[i]] += scale * r.weights[i]
		n += scale * r.weights[i]
	}
	return n
}

// eachTerm calls fn with every term of text (analyze.Each: lower-cased,
// stemmed, without English stopwords) and the lower-cased word it came
// from. Credentials (what redact.Span replaces) have no terms: no piece
// of one is indexed, matched, or reported in an item's terms, whether it
// is in a row or in the prompt.
func eachTerm(text string, fn func(term, word string)) {
	text = redact.Blank(text)
	analyze.Each(text, func(t string, start, end int) { fn(t, analyze.Lower(text[start:end])) })
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// index caches one segment per agent manifest. Segments are rebuilt only
// when an agent's manifest changes (a new manifest pointer); a query
// never waits for a segment another query is building beyond the build
// itself. It is safe for concurrent use.
type index struct {
	mu    sync.Mutex
	segs  map[string]*segment // agent id -> segment of its current manifest
	view  *view
	views uint64     // views built so far
	build sync.Mutex // one (parallel) build at a time
}

// newIndex returns an empty index.
func newIndex() *index { return &index{segs: map[string]*segment{}} }

// view is the set of segments of one library state, with the union of
// their vocabularies for the fuzzy door (built on first use).
type view struct {
	segs      []*segment // in agent id order
	gen       uint64     // its number among the index's views: a later view is newer
	vocabOnce sync.Once
	vocab     map[string]struct{}
	// kindTerms keeps, by focus noun, the terms of its kinds that the
	// view holds (lexicon.go), at most maxLexiconMemo nouns.
	kindTerms sync.Map
	kindCount atomic.Int32
}

// sync returns the view of the given manifests (every agent of the
// library, in id order), indexing the manifests it has not seen.
func (x *index) sync(agents []federation.AgentManifest) *view {
	x.mu.Lock()
	if v := x.view; v != nil && sameManifests(v.segs, agents) {
		x.mu.Unlock()
		return v
	}
	x.mu.Unlock()

	x.build.Lock()
	defer x.build.Unlock()
	x.mu.Lock()
	if v := x.view; v != nil && sameManifests(v.segs, agents) {
		x.mu.Unlock()
		return v
	}
	segs := make([]*segment, len(agents))
	var missing []int
	for i, a := range agents {
		if s := x.segs[a.ID]; s != nil && s.m == a.Manifest {
			segs[i] = s
		} else {
			missing = append(missing, i)
		}
	}
	x.mu.Unlock()

	// Index the new manifests in parallel.
	work := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(missing)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				segs[i] = buildSegment(agents[i].ID, agents[i].Manifest)
			}
		}()
	}
	for _, i := range missing {
		work <- i
	}
	close(work)
	wg.Wait()

	x.mu.Lock()
	x.views++
	v := &view{segs: segs, gen: x.views}
	x.segs = make(map[string]*segment, len(segs))
	for _, s := range segs {
		x.segs[s.agent] = s
	}
	x.view = v
	x.mu.Unlock()
	return v
}

func sameManifests(segs []*segment, agents []federation.AgentManifest) bool {
	if len(segs) != len(agents) {
		return false
	}
	for i, s := range segs {
		if s.agent != agents[i].ID || s.m != agents[i].Manifest {
			return false
		}
	}
	return true
}

// hasTerm reports whether any segment of the view holds term (at any
// visibility; the search checks the level).
func (v *view) hasTerm(term string) bool {
	v.vocabOnce.Do(func() {
		n := 0
		for _, s := range v.segs {
			n = max(n, len(s.terms))
		}
		v.vocab = make(map[string]struct{}, 2*n)
		for _, s := range v.segs {
			for t := range s.terms {
				v.vocab[t] = struct{}{}
			}
		}
	})
	_, ok := v.vocab[term]
	return ok
}
