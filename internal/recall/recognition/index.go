package recognition

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Index is the recognition index of a federation: every agent's entities,
// merged into one row per name as the reference's
// build_recognition_manifest merges them, with a phrase table for
// detection.
//
// Rows are merged by name.strip().lower(); agents are visited in id order
// and each agent's entities in list order. A row's name, type and first
// summary come from its first contribution visible to the reader; its
// aliases, tags, types and source agents are the unions over the visible
// contributions. Because visibility decides which contribution comes
// first, rows are merged at query time, and only for the rows a prompt
// names.
//
// Detection tokenizes the prompt once. The phrase table maps every name
// and alias (as space-joined tokens) to the contributions that use it, and
// records, per first token, which phrase lengths exist; a query looks up
// only the token runs of those lengths that start at each prompt token.
// Its cost grows with the prompt and the matches, not with the number of
// entities.
//
// An Index is safe for concurrent use. The zero value is not usable; call
// [NewIndex].
type Index struct {
	mu      sync.RWMutex
	agents  map[string]*agentEntry
	rows    map[string]*row     // merge key -> row
	phrases map[string]*phrase  // space-joined tokens -> phrase
	starts  map[string]*starter // first token -> phrase lengths
}

// agentEntry is one agent's contribution to the index.
type agentEntry struct {
	id       string
	contribs []*contrib // in entity order
}

// contrib is one entity of one agent, as it enters the merge.
type contrib struct {
	agent    *agentEntry
	pos      int    // index in the agent's entity list
	name     string // trimmed
	typ      string // type, or "topic"
	summary  string // as written
	stripped string // summary trimmed
	aliases  []string
	tags     []string
	vis      visibility.Level
	row      *row
	nameKey  string    // phrase key of the name, "" when it has no tokens
	phrases  []*phrase // phrases this entity contributes a use to
}

// row is one merge key's contributions, ordered by agent id, then
// position.
type row struct {
	key      string
	contribs []*contrib
}

// phrase is one distinct token sequence used as a name or alias.
type phrase struct {
	key   string // tokens joined by single spaces
	first string // first token
	n     int    // number of tokens
	uses  []use
}

// use says that an entity recognises by a phrase, as its name or as one
// of its aliases.
type use struct {
	c    *contrib
	name bool
}

// starter counts the phrases that start with one token, by length.
type starter struct {
	byLen []int32 // byLen[n]: phrases of n tokens; index 0 unused
	total int
}

// NewIndex returns an empty index.
func NewIndex() *Index {
	return &Index{
		agents:  map[string]*agentEntry{},
		rows:    map[string]*row{},
		phrases: map[string]*phrase{},
		starts:  map[string]*starter{},
	}
}

// Update replaces everything agentID contributes with entities (in the
// agent's list order). Entities with a blank name are left out, as the
// reference leaves them out of its recognition manifest. The index keeps
// no reference to entities or its slices.
//
// The cost is proportional to the agent's old and new entities and to the
// other contributions sharing their rows and phrases, not to the size of
// the index.
func (x *Index) Update(agentID string, entities []Entity) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.remove(agentID)
	a := &agentEntry{id: agentID, contribs: make([]*contrib, 0, len(entities))}
	x.agents[agentID] = a
	added := make(map[*row][]*contrib, len(entities))
	for i := range entities {
		e := &entities[i]
		name := pyStrip(e.Name)
		if name == "" {
			continue
		}
		c := &contrib{
			agent:    a,
			pos:      i,
			name:     name,
			typ:      typeOrTopic(e.Type),
			summary:  e.Summary,
			stripped: pyStrip(e.Summary),
			aliases:  strippedItems(e.Aliases),
			tags:     strippedItems(e.Tags),
			vis:      e.Visibility,
			nameKey:  phraseKey(name),
		}
		key := mergeKey(name)
		r := x.rows[key]
		if r == nil {
			r = &row{key: key}
			x.rows[key] = r
		}
		c.row = r
		added[r] = append(added[r], c)
		a.contribs = append(a.contribs, c)

		if c.nameKey != "" {
			x.addUse(c.nameKey, use{c: c, name: true})
		}
		var seen []string
		for _, alias := range c.aliases {
			k := phraseKey(alias)
			if k == "" || slices.Contains(seen, k) {
				continue
			}
			seen = append(seen, k)
			x.addUse(k, use{c: c})
		}
	}
	for r, cs := range added {
		at, _ := slices.BinarySearchFunc(r.contribs, agentID, func(c *contrib, id string) int {
			return strings.Compare(c.agent.id, id)
		})
		r.contribs = slices.Insert(r.contribs, at, cs...)
	}
}

// Remove drops everything agentID contributes. Removing an unknown agent
// does nothing.
func (x *Index) Remove(agentID string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.remove(agentID)
}

// Agents returns the ids of the agents in the index, sorted.
func (x *Index) Agents() []string {
	x.mu.RLock()
	defer x.mu.RUnlock()
	ids := make([]string, 0, len(x.agents))
	for id := range x.agents {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

func (x *Index) remove(agentID string) {
	a := x.agents[agentID]
	if a == nil {
		return
	}
	delete(x.agents, agentID)
	rows := make(map[*row]struct{}, len(a.contribs))
	phrases := make(map[*phrase]struct{}, len(a.contribs))
	for _, c := range a.contribs {
		rows[c.row] = struct{}{}
		for _, p := range c.phrases {
			phrases[p] = struct{}{}
		}
	}
	mine := func(c *contrib) bool { return c.agent == a }
	for r := range rows {
		r.contribs = slices.DeleteFunc(r.contribs, mine)
		if len(r.contribs) == 0 {
			delete(x.rows, r.key)
		}
	}
	for p := range phrases {
		p.uses = slices.DeleteFunc(p.uses, func(u use) bool { return mine(u.c) })
		if len(p.uses) == 0 {
			x.dropPhrase(p)
		}
	}
}

// addUse records that u.c recognises by the phrase key.
func (x *Index) addUse(key string, u use) {
	p := x.phrases[key]
	if p == nil {
		first, _, _ := strings.Cut(key, " ")
		p = &phrase{key: key, first: first, n: strings.Count(key, " ") + 1}
		x.phrases[key] = p
		st := x.starts[first]
		if st == nil {
			st = &starter{}
			x.starts[first] = st
		}
		for len(st.byLen) <= p.n {
			st.byLen = append(st.byLen, 0)
		}
		st.byLen[p.n]++
		st.total++
	}
	p.uses = append(p.uses, u)
	u.c.phrases = append(u.c.phrases, p)
}

// dropPhrase removes an unused phrase from the tables.
func (x *Index) dropPhrase(p *phrase) {
	delete(x.phrases, p.key)
	st := x.starts[p.first]
	st.byLen[p.n]--
	st.total--
	if st.total == 0 {
		delete(x.starts, p.first)
		return
	}
	n := len(st.byLen)
	for n > 1 && st.byLen[n-1] == 0 {
		n--
	}
	st.byLen = st.byLen[:n]
}

// Detect returns the rows that prompt names, merged as seen at level, in
// the order the reference's recognition manifest lists them (the position
// of each row's first visible contribution: agent id, then entity order).
//
// A row matches when its merged name or one of its merged aliases,
// tokenized, is a contiguous run of the prompt's tokens. Contributions the
// reader may not see take no part: a private entity's alias does not make
// its row match for a team reader.
func (x *Index) Detect(prompt string, level visibility.Level) []Match {
	var bufArr [512]byte
	var spanArr [64]span
	buf, spans := normalize(prompt, bufArr[:0], spanArr[:0])
	if len(spans) == 0 {
		return nil
	}

	x.mu.RLock()
	defer x.mu.RUnlock()

	// Phrases present in the prompt, each once.
	var found hitList[*phrase, bool]
	for i, sp := range spans {
		st := x.starts[string(buf[sp.start:sp.end])]
		if st == nil {
			continue
		}
		longest := min(len(st.byLen)-1, len(spans)-i)
		for n := 1; n <= longest; n++ {
			if st.byLen[n] == 0 {
				continue
			}
			p := x.phrases[string(buf[sp.start:spans[i+n-1].end])]
			if p == nil {
				continue
			}
			exact := i == 0 && n == len(spans)
			if j := found.find(p); j >= 0 {
				found.list[j].val = found.list[j].val || exact
			} else {
				found.add(p, exact)
			}
		}
	}
	if len(found.list) == 0 {
		return nil
	}

	// Rows those phrases recognise at this level.
	var hits hitList[*row, rowHit]
	for _, f := range found.list {
		p, exact := f.key, f.val
		for _, u := range p.uses {
			r := u.c.row
			j := hits.find(r)
			if j >= 0 && (!exact || hits.list[j].val.exact) {
				continue
			}
			if !visibility.Visible(u.c.vis, level) {
				continue
			}
			var first *contrib
			if j >= 0 {
				first = hits.list[j].val.first
			} else {
				first = r.firstVisible(level)
			}
			// A merged row is recognised by its own (first-seen) name and by
			// every visible alias.
			if u.name && first.nameKey != p.key {
				continue
			}
			if j >= 0 {
				hits.list[j].val.exact = true
			} else {
				hits.add(r, rowHit{first: first, exact: exact})
			}
		}
	}
	if len(hits.list) == 0 {
		return nil
	}
	slices.SortFunc(hits.list, func(a, b hitEntry[*row, rowHit]) int {
		return compareFirst(a.val.first, b.val.first)
	})
	out := make([]Match, len(hits.list))
	for i, h := range hits.list {
		out[i] = h.key.merge(level)
		out[i].Confidence = ConfidenceMedium
		if h.val.exact {
			out[i].Confidence = ConfidenceHigh
		}
	}
	return out
}

// Prepare detects the rows prompt names at level and builds the payload
// parts from them: Detect, then [NewResult].
func (x *Index) Prepare(prompt string, level visibility.Level) Result {
	return NewResult(x.Detect(prompt, level))
}

// Rows returns every row visible at level, merged, in recognition-manifest
// order: the known_entities of the reference's build_recognition_manifest.
// Unlike Detect it visits the whole index.
func (x *Index) Rows(level visibility.Level) []Row {
	x.mu.RLock()
	defer x.mu.RUnlock()
	type item struct {
		r     *row
		first *contrib
	}
	items := make([]item, 0, len(x.rows))
	for _, r := range x.rows {
		if first := r.firstVisible(level); first != nil {
			items = append(items, item{r, first})
		}
	}
	slices.SortFunc(items, func(a, b item) int { return compareFirst(a.first, b.first) })
	out := make([]Row, len(items))
	for i, it := range items {
		out[i] = it.r.merge(level).Row
	}
	return out
}

// rowHit is a row a prompt recognises: its first visible contribution,
// and whether the whole prompt is one of its names.
type rowHit struct {
	first *contrib
	exact bool
}

// compareFirst orders contributions by agent id, then entity position.
func compareFirst(a, b *contrib) int {
	if c := strings.Compare(a.agent.id, b.agent.id); c != 0 {
		return c
	}
	return cmp.Compare(a.pos, b.pos)
}

// firstVisible returns the row's first contribution visible at level, or
// nil.
func (r *row) firstVisible(level visibility.Level) *contrib {
	for _, c := range r.contribs {
		if visibility.Visible(c.vis, level) {
			return c
		}
	}
	return nil
}

// merge builds the row as a reader at level sees it.
func (r *row) merge(level visibility.Level) Match {
	visible := 0
	for _, c := range r.contribs {
		if visibility.Visible(c.vis, level) {
			visible++
		}
	}
	var m Match
	m.Summaries = make(map[string]string, visible)
	m.SourceAgents = make([]string, 0, visible)
	first := true
	for _, c := range r.contribs {
		if !visibility.Visible(c.vis, level) {
			continue
		}
		id := c.agent.id
		if first {
			first = false
			m.Name, m.Type, m.Summary = c.name, c.typ, c.summary
			if c.summary != "" {
				m.SummaryAgent = id
			}
		}
		m.Types = appendUnique(m.Types, c.typ)
		if n := len(m.SourceAgents); n == 0 || m.SourceAgents[n-1] != id {
			m.SourceAgents = append(m.SourceAgents, id)
		}
		for _, a := range c.aliases {
			m.Aliases = appendUnique(m.Aliases, a)
		}
		for _, t := range c.tags {
			m.Tags = appendUnique(m.Tags, t)
		}
		if c.stripped != "" {
			if m.Summary == "" {
				m.Summary, m.SummaryAgent = c.stripped, id
			}
			m.Summaries[id] = c.stripped
		}
	}
	m.Types = nonNil(m.Types)
	m.Aliases = nonNil(m.Aliases)
	m.SourceAgents = slices.Clip(m.SourceAgents) // callers may append (peer agents)
	m.Tags = nonNil(m.Tags)
	return m
}

// nonNil returns list, or an empty list in place of nil, so that JSON
// shows [] rather than null.
func nonNil[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}

// hitList is a small insertion-ordered set with a value per key: a slice,
// plus a map once it grows past a few entries so that prompts with many
// hits stay linear.
type hitList[K comparable, V any] struct {
	list []hitEntry[K, V]
	idx  map[K]int
}

type hitEntry[K comparable, V any] struct {
	key K
	val V
}

// hitListLinear is the size up to which hitList searches its slice.
const hitListLinear = 16

func (h *hitList[K, V]) find(k K) int {
	if h.idx != nil {
		if i, ok := h.idx[k]; ok {
			return i
		}
		return -1
	}
	for i := range h.list {
		if h.list[i].key == k {
			return i
		}
	}
	return -1
}

func (h *hitList[K, V]) add(k K, v V) {
	h.list = append(h.list, hitEntry[K, V]{k, v})
	switch {
	case h.idx != nil:
		h.idx[k] = len(h.list) - 1
	case len(h.list) > hitListLinear:
		h.idx = make(map[K]int, 2*len(h.list))
		for i, e := range h.list {
			h.idx[e.key] = i
		}
	}
}
