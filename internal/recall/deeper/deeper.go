// Package deeper assembles the post-recognition context of a prompt from
// the library itself: entity summaries, sessions' key actions,
// workstreams and notes, ranked, filtered by visibility, redacted and
// bounded, with the provenance of every line. It backs the MCP tool
// get_deeper_context, the slower companion of prepare_recognition_context.
//
// By default no model is called. Rows are found through four doors
// (recognition, tag, lexical BM25, fuzzy; see search.go) over a
// per-manifest index that is rebuilt only for the manifests that change;
// its terms are the shared analyser's (package analyze), and a note or
// session also holds the words of its neighbours (index.go). With an
// embedder (Options.Embedder), a fifth door, semantic, fuses the rows
// nearest the prompt by an embedding model (semantic.go). An optional external L2
// backend (l2.go) is queried in parallel with the local assembly, under a
// deadline: its passages are appended when they arrive in time; its
// slowness, failure or garbage only shows in the payload's l2 status,
// never in the local answer.
//
// The reference (core/l6_server.py get_deeper_context, v0.10) returns
// only what its L2 backend returns, "" by default; its later versions
// assemble from the local store and add the provenance keys this package
// fills (source, entities, doors, l1_documents, truncated, reason,
// hydration_hint). Their exact values are this implementation's.
package deeper

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Bounds of the context. Every field is redacted (redact.Text) and cut to
// its limit before it is placed in a line.
const (
	DefaultMaxItems = 8
	DefaultMaxChars = 2400
	// maxPromptChars bounds the part of the prompt that is searched.
	maxPromptChars = 8000
	nameLimit      = 120
	fieldLimit     = 240
	lineLimit      = 480
	passageLimit   = 500
	// l2Share is the part of MaxChars kept for L2 passages when the
	// backend returns some.
	l2Share = 3
)

// Source is what the service reads from the federation;
// *federation.Store implements it.
type Source interface {
	Manifests(reader federation.Reader) []federation.AgentManifest
	PrepareRecognition(prompt string, level visibility.Level) recognition.Result
}

// Options configure a service.
type Options struct {
	// MaxItems bounds the library rows in the context (default 8); L2
	// passages add at most the backend's top_k.
	MaxItems int
	// MaxChars bounds the context in code points (default 2400).
	MaxChars int
	// L2 is the external backend; nil for none.
	L2 L2
	// L2TopK (default 5) and L2Timeout (default 2s) configure the calls.
	L2TopK    int
	L2Timeout time.Duration
	// Embedder, when set, adds the semantic arm (semantic.go): the rows
	// are embedded in the background and the prompt with each call,
	// within EmbedTimeout (default 2s); nil ranks lexically only.
	Embedder     embed.Embedder
	EmbedTimeout time.Duration
	// VectorCache, when set, is a file where the semantic arm keeps its
	// vectors, so a restart embeds only the rows it has not seen.
	VectorCache string
	// WordNet, when set, returns WordNet's lexicon (wordnet.DefaultLexicon,
	// or nil): a prompt also searches for words related to its words by
	// form, and a "what X" question for the kinds of X (lexicon.go). It is
	// called once, for the first prompt. nil searches the prompt's own
	// words only.
	WordNet func() *wordnet.Lexicon
	// Logger receives the details of L2 and embedder failures (the
	// payload only names their kind); nil logs nothing.
	Logger *slog.Logger
}

// Service answers get_deeper_context. It is safe for concurrent use.
type Service struct {
	src   Source
	opts  Options
	index *index
	sem   *semantic // nil without an embedder
	words *lexicon
}

// New returns a service over src.
func New(src Source, opts Options) *Service {
	if opts.MaxItems <= 0 {
		opts.MaxItems = DefaultMaxItems
	}
	if opts.MaxChars <= 0 {
		opts.MaxChars = DefaultMaxChars
	}
	if opts.L2TopK <= 0 {
		opts.L2TopK = DefaultL2TopK
	}
	opts.L2TopK = min(opts.L2TopK, MaxL2TopK)
	if opts.L2Timeout <= 0 {
		opts.L2Timeout = DefaultL2Timeout
	}
	s := &Service{src: src, opts: opts, index: newIndex(), words: &lexicon{load: opts.WordNet}}
	if opts.Embedder != nil {
		s.sem = newSemantic(opts.Embedder, opts.EmbedTimeout, opts.Logger, opts.VectorCache)
	}
	return s
}

// Request is one get_deeper_context call.
type Request struct {
	Prompt string
	// AccessLevel is echoed as the caller wrote it; Level is what it
	// resolved to.
	AccessLevel    string
	Level          visibility.Level
	IncludePrivate bool
	// Reader limits the agents read (nil: every agent).
	Reader federation.Reader
	// Agents, when not empty, limits the context to these agents' rows
	// (within what Reader allows): the tool's agents argument.
	Agents []string
}

// MaxAgents bounds Request.Agents.
const MaxAgents = 64

// Payload is the get_deeper_context result. The first five keys are the
// reference's; the others are the provenance of the context.
type Payload struct {
	Prompt         string `json:"prompt"`
	AccessLevel    string `json:"access_level"`
	IncludePrivate bool   `json:"include_private"`
	// Context is the assembled text; "" when nothing matched.
	Context string `json:"context"`
	// ContextChars is Context's length in code points.
	ContextChars int `json:"context_chars"`
	// Source says where the context came from: "local", "l2",
	// "local+l2", or "none".
	Source string `json:"source"`
	// Entities are the entities recognition found in the prompt (as
	// prepare_recognition_context reports them); their rows enter
	// through the recognition door.
	Entities []recognition.MatchedEntity `json:"entities"`
	// Doors lists the doors the items came through, in the order
	// recognition, tag, lexical, fuzzy, semantic, l2.
	Doors []string `json:"doors"`
	// Items are the context's lines, with their provenance.
	Items []Item `json:"items"`
	// L1Documents lists L1 documents read into the context. This server
	// has no L1 directory: always empty.
	L1Documents []string `json:"l1_documents"`
	// Truncated is true when the bounds left out matching rows or cut
	// the text.
	Truncated bool `json:"truncated"`
	// Reason says why the context is empty; absent otherwise.
	Reason string `json:"reason,omitempty"`
	// HydrationHint says how to turn the context into prose.
	HydrationHint string `json:"hydration_hint"`
	// L2 reports the external backend's answer; absent when none is
	// configured.
	L2 *L2Status `json:"l2,omitempty"`
	// Semantic reports the semantic arm; absent without an embedder.
	Semantic *SemanticStatus `json:"semantic,omitempty"`
}

// Item is one line of the context.
type Item struct {
	Rank int `json:"rank"`
	// Kind is entity, session, workstream, note, or l2.
	Kind string `json:"kind"`
	// Door is recognition, tag, lexical, fuzzy, semantic, or l2.
	Door string `json:"door"`
	// Name is the entity's or workstream's name, the session's first
	// project focus; "" for notes and passages.
	Name string `json:"name"`
	// Date is the session's or note's date, the workstream's
	// last_touched; "" when none.
	Date string `json:"date"`
	// Agents are the agents whose rows the line draws on; empty for L2
	// passages.
	Agents []string `json:"agents"`
	// Tags are a note's tags (of every row of the item, at most
	// maxItemTags), so a caller can cite the row; absent otherwise.
	Tags []string `json:"tags,omitempty"`
	// Cwd is a session's working directory; absent otherwise.
	Cwd string `json:"cwd,omitempty"`
	// Source is an L2 passage's source, "" otherwise.
	Source string `json:"source,omitempty"`
	// Score is the ranking score (BM25, three decimals); 0 for L2 and
	// for a row the semantic door alone found.
	Score float64 `json:"score"`
	// Similarity is the cosine of the row and the prompt (three
	// decimals) when the semantic arm ran and the row is embedded;
	// absent otherwise.
	Similarity float64 `json:"similarity,omitempty"`
	// Terms are the prompt words that matched the line; a fuzzy match
	// reads "word~term".
	Terms []string `json:"terms"`
	// Text is the line as the context shows it, without its number.
	Text string `json:"text"`
}

// L2Status reports an L2 call.
type L2Status struct {
	// Status is ok, empty (answered nothing), timeout, error or skipped
	// (empty prompt).
	Status    string  `json:"status"`
	Passages  int     `json:"passages"`
	LatencyMS float64 `json:"latency_ms"`
	// Detail explains an error, redacted.
	Detail string `json:"detail,omitempty"`
}

// Hydration hints.
const (
	hintContext = "Assembled from library rows without a model call. For prose, give `context` and the prompt to your own model; " +
		"each item says which door found it and which agents published it."
	hintEmpty = "Nothing to hydrate: recognition alone (prepare_recognition_context) is the answer for this prompt."
)

// DeeperContext assembles the context of one prompt. It never fails: an
// L2 backend's error or slowness is reported in the payload's l2 status,
// and the local context is returned within the backend's deadline.
func (s *Service) DeeperContext(ctx context.Context, req Request) Payload {
	start := time.Now()
	p := Payload{
		Prompt: req.Prompt, AccessLevel: req.AccessLevel, IncludePrivate: req.IncludePrivate,
		Entities: []recognition.MatchedEntity{}, Doors: []string{}, Items: []Item{}, L1Documents: []string{},
	}
	blank := strings.TrimSpace(req.Prompt) == ""

	// L2 runs while the local context is assembled.
	var l2ch chan l2Outcome
	if s.opts.L2 != nil && !blank {
		l2ch = make(chan l2Outcome, 1)
		l2ctx, cancel := context.WithTimeout(ctx, s.opts.L2Timeout)
		q := L2Query{Query: boundRunes(req.Prompt, maxPromptChars), TopK: s.opts.L2TopK, AccessLevel: req.Level.String()}
		go func() {
			defer cancel()
			l2ch <- callL2(l2ctx, s.opts.L2, q, start)
		}()
	}

	// The prompt is embedded while the lexical doors search.
	var vec chan promptVec
	if s.sem != nil && !blank {
		vec = make(chan promptVec, 1)
		go func() {
			v, err := s.sem.promptVector(ctx, boundRunes(req.Prompt, maxPromptChars))
			vec <- promptVec{v, err, time.Since(start)}
		}()
	}

	local := s.local(req, blank, vec)
	p.Entities = local.entities
	p.Semantic = local.semantic
	if s.sem != nil && blank {
		p.Semantic = &SemanticStatus{Status: "skipped", Detail: "empty prompt"}
	}

	var l2 l2Outcome
	switch {
	case s.opts.L2 == nil:
	case blank:
		p.L2 = &L2Status{Status: "skipped", Detail: "empty prompt"}
	default:
		timer := time.NewTimer(max(s.opts.L2Timeout-time.Since(start), 0))
		select {
		case l2 = <-l2ch:
		case <-timer.C:
			l2 = l2Outcome{err: errTimeout, latency: time.Since(start)}
		case <-ctx.Done():
			l2 = l2Outcome{err: ctx.Err(), latency: time.Since(start)}
		}
		timer.Stop()
		p.L2 = l2.status(s.opts.L2TopK)
		if l2.err != nil && s.opts.Logger != nil {
			s.opts.Logger.Warn("L2 backend failed; answering from the library alone", "err", l2.err, "status", p.L2.Status)
		}
	}

	s.render(&p, local, l2.passages(s.opts.L2TopK))
	switch {
	case p.Context != "":
		p.HydrationHint = hintContext
	case blank:
		p.Reason = "the prompt is empty"
		p.HydrationHint = hintEmpty
	default:
		p.Reason = local.emptyReason(req.Level)
		if p.L2 != nil && p.L2.Status != "ok" {
			p.Reason += "; the L2 backend returned nothing (" + p.L2.Status + ")"
		}
		p.HydrationHint = hintEmpty
	}
	return p
}

// localResult is the local half of the context.
type localResult struct {
	entities []recognition.MatchedEntity
	items    []Item
	more     bool // matching rows beyond MaxItems
	visible  bool // the reader sees at least one row
	semantic *SemanticStatus
}

// promptVec is the prompt's embedding, or why there is none.
type promptVec struct {
	vec     []float32
	err     error
	latency time.Duration
}

func (l localResult) emptyReason(level visibility.Level) string {
	if !l.visible {
		return "the library has no row visible at access level " + level.String()
	}
	return "no library row visible at access level " + level.String() + " matches the prompt"
}

// local finds and describes the rows for the prompt.
func (s *Service) local(req Request, blank bool, vec <-chan promptVec) localResult {
	var out localResult
	reader := req.Reader
	if len(req.Agents) > 0 {
		only := map[string]bool{}
		for _, a := range req.Agents {
			only[a] = true
		}
		reader = func(a string) bool { return only[a] && (req.Reader == nil || req.Reader(a)) }
	}
	view := s.index.sync(s.src.Manifests(nil))
	if s.sem != nil {
		s.sem.track(view)
	}
	for _, seg := range view.segs {
		if reader == nil || reader(seg.agent) {
			for l := visibility.Public; l <= req.Level; l++ {
				out.visible = out.visible || seg.count[l] > 0
			}
		}
	}
	out.entities = []recognition.MatchedEntity{}
	if blank {
		return out
	}
	anchors, boost := map[string]bool{}, map[string]bool{}
	rec := s.src.PrepareRecognition(boundRunes(req.Prompt, maxPromptChars), req.Level)
	for _, m := range rec.Matches {
		agents := m.SourceAgents
		if reader != nil {
			agents = slices.DeleteFunc(slices.Clone(agents), func(a string) bool { return !reader(a) })
			if len(agents) == 0 {
				continue
			}
		}
		for _, a := range agents {
			boost[a] = true
		}
		typ := m.Type
		if typ == "" {
			typ = "topic"
		}
		out.entities = append(out.entities, recognition.MatchedEntity{Name: m.Name, Type: typ, SourceAgents: agents})
		anchors[federation.Key(m.Name)] = true
		for _, a := range m.Aliases {
			anchors[federation.Key(a)] = true
		}
	}
	// Enough documents to fill MaxItems after entity rows of several
	// agents collapse into one item.
	q := query{
		prompt: req.Prompt, level: req.Level, reader: reader, anchors: anchors, boost: boost,
		limit: searchLimit(s.opts.MaxItems),
	}
	q.words = s.words
	q.focus, q.kinds = s.words.kindTerms(req.Prompt)
	hits, qs := view.search(q)
	if vec != nil {
		// The embedder's deadline bounds the wait; the timer guards
		// against an embedder that ignores its context.
		var pv promptVec
		timer := time.NewTimer(s.sem.timeout + time.Second)
		select {
		case pv = <-vec:
		case <-timer.C:
			pv = promptVec{err: context.DeadlineExceeded, latency: s.sem.timeout + time.Second}
		}
		timer.Stop()
		var near []hit
		rows, pending := 0, 0
		if pv.err == nil {
			near, rows, pending = view.nearest(q, pv.vec)
			hits = fuse(hits, near, pv.vec)
		} else if s.opts.Logger != nil {
			s.opts.Logger.Warn("embedding the prompt failed; get_deeper_context ranks lexically", "err", pv.err)
		}
		out.semantic = semanticStatus(pv.err, rows, pending, pv.latency)
	}
	out.items, out.more = describe(hits, qs, s.opts.MaxItems)
	return out
}

// describe turns hits into items. Rows that say the same thing become
// one item naming every agent: an entity's (or a workstream's) rows,
// sessions with the same date, focus and actions, notes with the same
// date and text. To keep the context varied, at most maxPerTopic sessions,
// notes and workstreams about one entity are taken before the others have
// had their turn; the items keep their rank order.
func describe(hits []hit, qs []qterm, maxItems int) ([]Item, bool) {
	type group struct {
		item  Item
		hits  []*hit
		terms uint64
		topic string
	}
	var groups []*group
	byKey := map[string]*group{}
	for i := range hits {
		h := &hits[i]
		d := h.seg.docs[h.doc]
		m := h.seg.m
		var key, topic string
		switch d.kind {
		case kindEntity:
			key = "e\x00" + federation.Key(m.Entities[d.pos].Name)
		case kindWorkstream:
			w := &m.Workstreams[d.pos]
			key = "w\x00" + federation.Key(w.Name)
			topic = firstKey(w.RelatedEntities)
		case kindSession:
			s := &m.Sessions[d.pos]
			cwd := ""
			if s.Cwd != nil {
				cwd = *s.Cwd
			}
			key = "s\x00" + s.Date + "\x00" + cwd + "\x00" + strings.Join(s.ProjectFocus, "\x1f") + "\x00" + strings.Join(s.KeyActions, "\x1f")
			topic = firstKey(s.ProjectFocus)
		case kindNote:
			n := &m.Notes[d.pos]
			key = "n\x00" + n.Date + "\x00" + n.Text
			topic = firstKey(n.RelatedEntities)
		}
		if g := byKey[key]; g != nil {
			g.hits = append(g.hits, h)
			g.terms |= h.terms
			continue
		}
		g := &group{item: Item{Kind: d.kind.String(), Door: h.door(qs), Score: round3(h.score), Similarity: round3(float64(h.sim))}, hits: []*hit{h}, terms: h.terms, topic: topic}
		groups = append(groups, g)
		byKey[key] = g
	}

	// An entity row says something only through its summary: without
	// one, it is left to the payload's entities and takes no item.
	groups = slices.DeleteFunc(groups, func(g *group) bool {
		if g.item.Kind != kindEntity.String() {
			return false
		}
		for _, h := range g.hits {
			if safe(h.seg.m.Entities[h.seg.docs[h.doc].pos].Summary, fieldLimit) != "" {
				return false
			}
		}
		return true
	})
	chosen := make([]bool, len(groups))
	perTopic := map[string]int{}
	n := 0
	for pass := 0; pass < 2 && n < maxItems; pass++ {
		for i, g := range groups {
			if n == maxItems {
				break
			}
			if chosen[i] || (pass == 0 && g.topic != "" && perTopic[g.topic] >= maxPerTopic) {
				continue
			}
			chosen[i] = true
			perTopic[g.topic]++
			n++
		}
	}
	items := make([]Item, 0, n)
	for i, g := range groups {
		if !chosen[i] {
			continue
		}
		// Rows of one item are shown in agent id order, as recognition
		// lists agents.
		slices.SortStableFunc(g.hits, func(a, b *hit) int { return strings.Compare(a.seg.agent, b.seg.agent) })
		it := g.item
		it.Terms = matchedTerms(g.terms, qs)
		it.Agents = []string{}
		for _, h := range g.hits {
			if !slices.Contains(it.Agents, h.seg.agent) {
				it.Agents = append(it.Agents, h.seg.agent)
			}
		}
		it.Name, it.Date, it.Text = line(g.hits)
		it.Tags, it.Cwd = provenance(g.hits)
		items = append(items, it)
	}
	return items, len(groups) > n || len(hits) >= searchLimit(maxItems)
}

// maxItemTags bounds the tags an item lists.
const maxItemTags = 8

// provenance returns what an item cites of its rows beyond agent, kind
// and date: a note's tags, a session's cwd.
func provenance(hs []*hit) (tags []string, cwd string) {
	for _, h := range hs {
		d := h.seg.docs[h.doc]
		switch d.kind {
		case kindNote:
			for _, t := range h.seg.m.Notes[d.pos].Tags {
				if t = safe(t, nameLimit); t != "" && !slices.Contains(tags, t) && len(tags) < maxItemTags {
					tags = append(tags, t)
				}
			}
		case kindSession:
			if c := h.seg.m.Sessions[d.pos].Cwd; c != nil && cwd == "" {
				cwd = safe(*c, fieldLimit)
			}
		}
	}
	return tags, cwd
}

// maxPerTopic bounds the sessions, notes and workstreams about one entity
// taken before other rows.
const maxPerTopic = 2

// searchLimit is the number of documents a search returns for maxItems
// items: enough for rows of many agents to collapse into one item.
func searchLimit(maxItems int) int { return 8*maxItems + 1 }

func firstKey(list []string) string {
	for _, s := range list {
		if k := federation.Key(s); k != "" {
			return k
		}
	}
	return ""
}

// matchedTerms lists the prompt words behind the qterms a document holds.
func matchedTerms(mask uint64, qs []qterm) []string {
	out := []string{}
	for i, q := range qs {
		if mask&(1<<i) == 0 {
			continue
		}
		t := q.word
		if q.fuzzy {
			t = q.word + "~" + q.term
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// line renders one item from its rows (several rows for an entity or a
// workstream several agents publish).
func line(hs []*hit) (name, date, text string) {
	first := hs[0]
	d := first.seg.docs[first.doc]
	m := first.seg.m
	var b strings.Builder
	switch d.kind {
	case kindEntity:
		e := &m.Entities[d.pos]
		name = safe(strings.TrimSpace(e.Name), nameLimit)
		b.WriteString("[entity] " + name)
		if e.Type != "" {
			b.WriteString(" (" + safe(e.Type, nameLimit) + ")")
		}
		b.WriteString(" via " + agentList(hs))
		var summaries []string
		for _, h := range hs {
			s := safe(h.seg.m.Entities[h.seg.docs[h.doc].pos].Summary, fieldLimit)
			if s != "" && !slices.Contains(summaries, s) && len(summaries) < 3 {
				summaries = append(summaries, s)
			}
		}
		if len(summaries) > 0 {
			b.WriteString(": " + strings.Join(summaries, " | "))
		}
	case kindSession:
		s := &m.Sessions[d.pos]
		date = s.Date
		if len(s.ProjectFocus) > 0 {
			name = safe(s.ProjectFocus[0], nameLimit)
		}
		b.WriteString("[session " + safe(s.Date, 32) + ", " + agentList(hs))
		if s.Cwd != nil {
			if base := safe(cwdBase(*s.Cwd), nameLimit); base != "" {
				b.WriteString(", in " + base)
			}
		}
		b.WriteString("]")
		if len(s.ProjectFocus) > 0 {
			b.WriteString(" " + joinSafe(s.ProjectFocus, 3, nameLimit, ", "))
		}
		if len(s.KeyActions) > 0 {
			b.WriteString(": " + joinSafe(s.KeyActions, 3, fieldLimit, "; "))
		}
		if len(s.FilesTouched) > 0 {
			b.WriteString(" (files: " + joinSafe(s.FilesTouched, 3, nameLimit, ", ") + ")")
		}
	case kindWorkstream:
		w := &m.Workstreams[d.pos]
		name = safe(strings.TrimSpace(w.Name), nameLimit)
		date = w.LastTouched
		b.WriteString("[workstream " + safe(w.Status, 32))
		if w.LastTouched != "" {
			b.WriteString(", " + safe(w.LastTouched, 32))
		}
		b.WriteString("] " + name + " via " + agentList(hs))
		if s := safe(w.Summary, fieldLimit); s != "" {
			b.WriteString(": " + s)
		}
		if len(w.RelatedEntities) > 0 {
			b.WriteString(" (related: " + joinSafe(w.RelatedEntities, 3, nameLimit, ", ") + ")")
		}
	case kindNote:
		n := &m.Notes[d.pos]
		date = n.Date
		b.WriteString("[note " + safe(n.Date, 32) + ", " + agentList(hs) + "] " + safe(n.Text, fieldLimit))
		if len(n.RelatedEntities) > 0 {
			b.WriteString(" (related: " + joinSafe(n.RelatedEntities, 3, nameLimit, ", ") + ")")
		}
	}
	return name, date, cut(b.String(), lineLimit)
}

func agentList(hs []*hit) string {
	var agents []string
	for _, h := range hs {
		if !slices.Contains(agents, h.seg.agent) {
			agents = append(agents, h.seg.agent)
		}
	}
	s := joinSafe(agents, 4, 64, ", ")
	if len(agents) > 4 {
		s += " (+" + strconv.Itoa(len(agents)-4) + " more)"
	}
	return s
}

func joinSafe(list []string, n, limit int, sep string) string {
	var parts []string
	for _, s := range list {
		if t := safe(s, limit); t != "" {
			parts = append(parts, t)
			if len(parts) == n {
				break
			}
		}
	}
	return strings.Join(parts, sep)
}

func safe(s string, limit int) string { return redact.Text(s, limit) }

// cut bounds s to limit code points, "..." included.
func cut(s string, limit int) string {
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	return strings.TrimRight(boundRunes(s, limit-3), " ") + "..."
}

// boundRunes returns the first n code points of s.
func boundRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

func round3(x float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 3, 64), 64)
	return r
}

// Context text.
const (
	header         = "Bourdon deeper context (library rows, no model call):"
	l2Header       = "From the L2 backend (external):"
	recognizedHead = "Recognized: "
)

// render writes the context text within MaxChars: the header, the
// recognized entities, the local items while they fit, then the L2
// passages in the share kept for them.
func (s *Service) render(p *Payload, local localResult, passages []Passage) {
	budget := s.opts.MaxChars
	var lines []string
	used := 0
	fits := func(line string, limit int) bool {
		n := utf8.RuneCountInString(line)
		if len(lines) > 0 {
			n++ // newline
		}
		return used+n <= limit
	}
	push := func(line string) {
		if len(lines) > 0 {
			used++
		}
		used += utf8.RuneCountInString(line)
		lines = append(lines, line)
	}
	if len(local.items) == 0 && len(passages) == 0 {
		p.Truncated = local.more
		p.Source = "none"
		return
	}

	// The L2 share: what the passages need, at most a third.
	l2Lines := make([]string, len(passages))
	need := 0
	for i, ps := range passages {
		l2Lines[i] = l2Line(ps)
		need += utf8.RuneCountInString(l2Lines[i]) + 4
	}
	if len(passages) > 0 {
		need += len(l2Header) + 1
	}
	localBudget := budget - min(need, budget/l2Share)
	if len(local.items) == 0 {
		localBudget = 0
	}

	push(header)
	if len(p.Entities) > 0 {
		var names []string
		for _, e := range p.Entities {
			names = append(names, safe(e.Name, nameLimit)+" ("+safe(e.Type, nameLimit)+")")
		}
		r := cut(recognizedHead+strings.Join(names, ", "), lineLimit)
		if fits(r, budget) {
			push(r)
		}
	}
	truncated := local.more
	rank := 0
	for _, it := range local.items {
		text := strconv.Itoa(rank+1) + ". " + it.Text
		if !fits(text, localBudget) {
			if rank == 0 {
				// The first item is always shown, cut to what is left.
				room := localBudget - used - 1
				if room < 40 {
					truncated = true
					break
				}
				text = cut(text, room)
				it.Text = strings.TrimPrefix(text, strconv.Itoa(rank+1)+". ")
			} else {
				truncated = true
				break
			}
		}
		push(text)
		rank++
		it.Rank = rank
		p.Items = append(p.Items, it)
	}
	if len(passages) > 0 && fits(l2Header, budget) {
		push(l2Header)
		for i, ps := range passages {
			text := strconv.Itoa(rank+1) + ". " + l2Lines[i]
			if !fits(text, budget) {
				room := budget - used - 1
				if room < 40 {
					truncated = true
					break
				}
				text = cut(text, room)
				truncated = true
			}
			push(text)
			rank++
			p.Items = append(p.Items, Item{
				Rank: rank, Kind: "l2", Door: DoorL2, Agents: []string{}, Source: safe(ps.Source, nameLimit),
				Terms: []string{}, Text: strings.TrimPrefix(text, strconv.Itoa(rank)+". "),
			})
		}
	}
	if len(p.Items) == 0 {
		p.Truncated = truncated
		p.Source = "none"
		return
	}
	p.Context = strings.Join(lines, "\n")
	p.ContextChars = utf8.RuneCountInString(p.Context)
	p.Truncated = truncated
	hasLocal, hasL2 := false, false
	for _, door := range []string{DoorRecognition, DoorTag, DoorLexical, DoorFuzzy, DoorSemantic, DoorL2} {
		for _, it := range p.Items {
			if it.Door == door {
				p.Doors = append(p.Doors, door)
				hasLocal = hasLocal || door != DoorL2
				hasL2 = hasL2 || door == DoorL2
				break
			}
		}
	}
	switch {
	case hasLocal && hasL2:
		p.Source = "local+l2"
	case hasL2:
		p.Source = "l2"
	default:
		p.Source = "local"
	}
}

func l2Line(ps Passage) string {
	head := "[l2]"
	if ps.Source != "" {
		head = "[l2 " + safe(ps.Source, nameLimit) + "]"
	}
	return cut(head+" "+safe(ps.Text, passageLimit), passageLimit+nameLimit)
}

// l2Outcome is an L2 call's result.
type l2Outcome struct {
	ps      []Passage
	err     error
	latency time.Duration
}

var errTimeout = fmt.Errorf("no answer within the deadline")

// callL2 calls the backend and never panics.
func callL2(ctx context.Context, b L2, q L2Query, start time.Time) (out l2Outcome) {
	defer func() {
		if r := recover(); r != nil {
			out = l2Outcome{err: fmt.Errorf("backend panicked: %v", r), latency: time.Since(start)}
		}
	}()
	ps, err := b.Query(ctx, q)
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = errTimeout
	}
	return l2Outcome{ps: ps, err: err, latency: time.Since(start)}
}

// passages returns the usable passages: non-empty after redaction, at most
// topK.
func (o l2Outcome) passages(topK int) []Passage {
	if o.err != nil {
		return nil
	}
	var out []Passage
	for _, p := range o.ps {
		if strings.TrimSpace(safe(p.Text, passageLimit)) == "" {
			continue
		}
		out = append(out, p)
		if len(out) == topK {
			break
		}
	}
	return out
}

func (o l2Outcome) status(topK int) *L2Status {
	st := &L2Status{LatencyMS: float64(o.latency.Microseconds()) / 1000}
	switch {
	case o.err == errTimeout:
		st.Status = "timeout"
	case o.err != nil:
		st.Status = "error"
		st.Detail = safe(o.err.Error(), fieldLimit)
	default:
		st.Passages = len(o.passages(topK))
		st.Status = "ok"
		if st.Passages == 0 {
			st.Status = "empty"
		}
	}
	return st
}
