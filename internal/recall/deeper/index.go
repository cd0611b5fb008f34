package deeper

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

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

// Field weights: a term in a name counts twice.
const (
	weightName = 2
	weightText = 1
)

// doc is one row of a manifest, indexed.
type doc struct {
	kind   kind
	vis    visibility.Level
	pos    int32   // the row's position in its manifest list
	length float32 // weighted number of terms
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

// segment is the index of one manifest. It is built once per loaded
// manifest and never changed.
type segment struct {
	agent   string
	m       *l5.Manifest
	docs    []doc
	terms   map[string]*termEntry
	count   [3]int32           // documents by visibility
	length  [3]float64         // total length by visibility
	anchors map[string][]int32 // entity key -> documents about that entity
	// nameRefs files every entity document under the terms of its name
	// and of each alias; nameLens[doc][i] is the number of distinct terms
	// of the document's name i (nil for other kinds).
	nameRefs map[string][]nameRef
	nameLens [][]uint8
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

// buildSegment indexes one manifest: one document per entity, session,
// workstream and note.
//
//	entity      name and aliases (x2), type, summary, tags
//	session     project focus (x2), key actions, files touched, the cwd's
//	            last directory
//	workstream  name (x2), status, summary, related entities, tags
//	note        text, related entities, tags
//
// A document is also filed under the entities it is about (anchors):
// an entity under its name and aliases, a session under its project
// focus, a workstream under its name and related entities, a note under
// its related entities.
func buildSegment(agent string, m *l5.Manifest) *segment {
	s := &segment{agent: agent, m: m, terms: map[string]*termEntry{}, anchors: map[string][]int32{}, nameRefs: map[string][]nameRef{}}
	var b docBuilder
	add := func(kind kind, pos int, vis visibility.Level, anchors []string) {
		id := int32(len(s.docs))
		s.docs = append(s.docs, doc{kind: kind, vis: vis, pos: int32(pos), length: b.length})
		s.count[vis]++
		s.length[vis] += float64(b.length)
		for t, tf := range b.tf {
			e := s.terms[t]
			if e == nil {
				e = &termEntry{}
				s.terms[t] = e
			}
			e.postings = append(e.postings, posting{doc: id, tf: tf})
			e.df[vis]++
		}
		for _, a := range anchors {
			if k := federation.Key(a); k != "" {
				if list := s.anchors[k]; len(list) == 0 || list[len(list)-1] != id {
					s.anchors[k] = append(list, id)
				}
			}
		}
		b.reset()
	}
	for i := range m.Entities {
		e := &m.Entities[i]
		var lens []uint8
		id := int32(len(s.docs))
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			var ts []string
			eachTerm(n, func(t string) {
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
		for _, t := range e.Tags {
			b.add(t, weightText)
		}
		add(kindEntity, i, e.Visibility, append([]string{e.Name}, e.Aliases...))
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
		add(kindSession, i, ses.Visibility, ses.ProjectFocus)
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
		for _, t := range w.Tags {
			b.add(t, weightText)
		}
		add(kindWorkstream, i, w.Visibility, append([]string{w.Name}, w.RelatedEntities...))
		s.nameLens = append(s.nameLens, nil)
	}
	for i := range m.Notes {
		n := &m.Notes[i]
		b.add(n.Text, weightText)
		for _, r := range n.RelatedEntities {
			b.add(r, weightText)
		}
		for _, t := range n.Tags {
			b.add(t, weightText)
		}
		add(kindNote, i, n.Visibility, n.RelatedEntities)
		s.nameLens = append(s.nameLens, nil)
	}
	for _, e := range s.terms {
		e.postings = slices.Clip(e.postings)
	}
	return s
}

// cwdBase returns the last directory of a session's cwd (either slash).
func cwdBase(p string) string {
	p = strings.TrimRight(p, `/\`)
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// docBuilder accumulates the weighted terms of one document.
type docBuilder struct {
	tf     map[string]float32
	length float32
}

func (b *docBuilder) add(text string, w float32) {
	if b.tf == nil {
		b.tf = map[string]float32{}
	}
	eachTerm(text, func(t string) {
		b.tf[t] += w
		b.length += w
	})
}

func (b *docBuilder) reset() {
	clear(b.tf)
	b.length = 0
}

// eachTerm calls fn with every term of text: the analyser's words
// (analyze.Words), lower-cased, without the Memory stopwords, at least
// two characters long unless all digits. Credentials (what redact.Span
// replaces) have no terms: no piece of one is indexed, matched, or
// reported in an item's terms, whether it is in a row or in the prompt.
func eachTerm(text string, fn func(string)) {
	analyze.Words(redact.Blank(text), func(word string, _, _ int) {
		t := analyze.Lower(word)
		if (utf8.RuneCountInString(t) >= 2 || isDigits(t)) && !analyze.Memory.Has(t) {
			fn(t)
		}
	})
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
	build sync.Mutex // one (parallel) build at a time
}

// newIndex returns an empty index.
func newIndex() *index { return &index{segs: map[string]*segment{}} }

// view is the set of segments of one library state, with the union of
// their vocabularies for the fuzzy door (built on first use).
type view struct {
	segs      []*segment // in agent id order
	vocabOnce sync.Once
	vocab     map[string]struct{}
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

	v := &view{segs: segs}
	x.mu.Lock()
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
