package docsearch

import (
	"math"
	"slices"
	"sync"
)

// The lexical arm's top k by MaxScore (Turtle and Flood, "Query
// evaluation: strategies and optimizations", 1995), exact: the documents
// are visited in increasing number, and a document is scored only when
// the most its terms could add beats the k-th best score so far. Each
// query term has a list in the fields index and one in the passage index
// (by passage, whose numbers run document by document), and each list an
// upper bound on what it adds to a document's score: the term's weight
// times its largest impact (bm25.top). Sorted by bound, the lists whose
// bounds add up to no more than the k-th best score are non-essential: a
// document found in them alone cannot enter the top k, so only the other
// lists are walked (with WAND's pivot, see run), and the non-essential
// ones are only looked up for the documents the walk finds. Before the
// walk, a floor from the lists of the rarest terms (see floor) stands in
// for the k-th best score. A document's score is then summed exactly as
// by scoring every posting (the same terms in the same order, in
// float32), so the top k, ties included, are those of the exhaustive
// scoring.

// slack widens the bounds so that rounding can never prune a document
// that enters the top k: a score sums at most 2·maxQueryTerms+1 float32
// terms, each addition off by a relative 2⁻²⁴ at most, which stays under
// 1e-5 of the sum; the bound is summed in float64.
const slack = 1 + 1e-4

// endDoc is the document of an exhausted cursor.
const endDoc = math.MaxInt32

// cursor walks the postings of one query term in one index, by document.
type cursor struct {
	ids  []int32 // documents, or passages when pass is set
	imps []float32
	w    float32
	ub   float32 // w times the term's largest impact
	pos  int
	pass *passageIndex // nil: ids are documents
	cur  int32         // docAt(pos)
	seed bool          // read by floor
}

// doc is the document of the current posting.
func (c *cursor) doc() int32 { return c.cur }

// move puts the cursor on posting i.
func (c *cursor) move(i int) { c.pos, c.cur = i, c.docAt(i) }

// docAt is the document of posting i.
func (c *cursor) docAt(i int) int32 {
	if i >= len(c.ids) {
		return endDoc
	}
	if c.pass != nil {
		return c.pass.doc[c.ids[i]]
	}
	return c.ids[i]
}

// seek moves the cursor to the first posting of document d or of a later
// one, galloping from where it is.
func (c *cursor) seek(d int32) {
	target := d
	if c.pass != nil {
		if int(d) >= len(c.pass.first)-1 {
			c.move(len(c.ids))
			return
		}
		target = c.pass.first[d]
	}
	lo := c.pos
	if lo >= len(c.ids) || c.ids[lo] >= target {
		return
	}
	hi := lo + 1
	for step := 1; hi < len(c.ids) && c.ids[hi] < target; step *= 2 {
		lo, hi = hi, hi+step
	}
	hi = min(hi, len(c.ids))
	i, _ := slices.BinarySearch(c.ids[lo+1:hi], target)
	c.move(lo + 1 + i)
}

// end is the position after the postings of document d, the cursor being
// on its first one.
func (c *cursor) end(d int32) int {
	if c.pass == nil {
		return c.pos + 1
	}
	e, limit := c.pos+1, c.pass.first[d+1]
	for e < len(c.ids) && c.ids[e] < limit {
		e++
	}
	return e
}

// bound is the most the cursor's term adds to the score of document d,
// the cursor being on d: its field score, or its weight times its best
// impact among d's passages.
func (c *cursor) bound(d int32) float32 {
	top := c.imps[c.pos]
	for _, x := range c.imps[c.pos+1 : c.end(d)] {
		top = max(top, x)
	}
	return c.w * top
}

// maxScore is the state of one query of the lexical arm.
type maxScore struct {
	fields, pass []cursor  // in query order
	sorted       []*cursor // by ascending ub
	byDoc        []*cursor // the essential ones, by document
	// prefix[i] is the sum of the bounds of sorted[:i].
	prefix []float64
	// acc holds the passage scores of the document being scored.
	acc []float32
	// fieldLow and passLow hold, by document, the lower bounds of a
	// query's start (see floor).
	fieldLow, passLow []float32
	touched           []int32
}

var maxScorePool = sync.Pool{New: func() any { return new(maxScore) }}

// Which way the lexical arm takes: MaxScore pays per document it visits
// (about once per posting of the essential lists) and per list it keeps
// in step, scoring every posting pays per posting. On the 50,000-node
// benchmark MaxScore is the quicker while the essential postings times
// the lists, times maxScoreShare, stay under the postings of all lists;
// a query of many mid-frequency terms, whose bounds add up past the k-th
// best score almost everywhere, is quicker scored exhaustively (densely,
// see denseSpan), and so is any query of few postings (every query on
// testdata/learn). Over that benchmark's queries of at least
// maxScorePostings, each timed both ways, a share of 8 puts the arm's
// p99 at 1.46 ms against 2.59 at a share of 3 (1.33 choosing each query's
// quicker way by hand) and its total time at 498 ms against 531: at 3,
// queries of a few frequent terms beside many rare ones took MaxScore,
// whose walk then seeks the frequent lists at every document of the rare
// ones, up to three times as slow as the exhaustive way.
const (
	maxScorePostings = 32768 // the least postings for MaxScore
	maxScoreShare    = 8     // see above
)

// lexical returns the k allowed documents of highest BM25 score: the
// BM25F score of their fields plus that of their best passage. It runs
// MaxScore or scores every posting (exhaustive), whichever costs less
// for the query's lists; both return the same hits.
func (a *arms) lexical(lq lexQuery, allowed bitset, k int) []hit {
	postings := a.lex.postingsOf(lq.fields)
	if a.pass != nil {
		postings += a.pass.lex.postingsOf(lq.pass)
	}
	if postings >= maxScorePostings {
		m := a.maxScore(lq)
		defer maxScorePool.Put(m)
		floor := m.floor(allowed, k, len(a.nodes))
		essential := 0
		for i, c := range m.sorted {
			if m.prefix[i+1]*slack > floor {
				essential += len(c.ids)
			}
		}
		if maxScoreShare*essential*len(m.sorted) <= postings {
			return m.run(allowed, k, floor)
		}
	}
	return a.exhaustive(lq, allowed, k)
}

// maxScoreTop returns the top k of lexical by MaxScore, whatever it costs.
func (a *arms) maxScoreTop(lq lexQuery, allowed bitset, k int) []hit {
	m := a.maxScore(lq)
	defer maxScorePool.Put(m)
	return m.run(allowed, k, m.floor(allowed, k, len(a.nodes)))
}

// maxScore returns the state of a query by MaxScore: its cursors, sorted
// by bound, and the sums of their bounds. The caller puts it back in
// maxScorePool.
func (a *arms) maxScore(lq lexQuery) *maxScore {
	m := maxScorePool.Get().(*maxScore)
	m.fields = a.lex.cursors(lq.fields, nil, m.fields[:0])
	m.pass = m.pass[:0]
	if a.pass != nil {
		m.pass = a.pass.lex.cursors(lq.pass, a.pass, m.pass)
	}
	m.sorted = m.sorted[:0]
	for i := range m.fields {
		m.sorted = append(m.sorted, &m.fields[i])
	}
	for i := range m.pass {
		m.sorted = append(m.sorted, &m.pass[i])
	}
	slices.SortStableFunc(m.sorted, func(x, y *cursor) int {
		if x.ub < y.ub {
			return -1
		}
		if x.ub > y.ub {
			return 1
		}
		return 0
	})
	m.prefix = append(m.prefix[:0], 0)
	for _, c := range m.sorted {
		m.prefix = append(m.prefix, m.prefix[len(m.prefix)-1]+float64(c.ub))
	}
	return m
}

// postingsOf is the number of postings of the query terms.
func (ix *bm25) postingsOf(qs []qterm) int {
	n := 0
	for _, q := range qs {
		n += int(ix.start[q.id+1] - ix.start[q.id])
	}
	return n
}

// postingsWithin is the number of postings of the query terms from
// document (or passage) lo to hi, excluded.
func (ix *bm25) postingsWithin(qs []qterm, lo, hi int32) int {
	n := 0
	for _, q := range qs {
		i, j := within(ix.doc[ix.start[q.id]:ix.start[q.id+1]], lo, hi)
		n += j - i
	}
	return n
}

// cursors appends a cursor for each query term to cs; pass is set for
// the passage index.
func (ix *bm25) cursors(qs []qterm, pass *passageIndex, cs []cursor) []cursor {
	for _, q := range qs {
		lo, hi := ix.start[q.id], ix.start[q.id+1]
		cs = append(cs, cursor{
			ids: ix.doc[lo:hi], imps: ix.imp[lo:hi], w: q.w, ub: q.w * ix.top[q.id],
			pass: pass,
		})
		cs[len(cs)-1].move(0)
	}
	return cs
}

// run walks the essential lists and returns the top k. The essential
// cursors are kept in the order of their documents, and the walk goes
// to the first document where the bounds of the cursors up to it (and
// of the non-essential lists) could beat the k-th best score, seeking
// the cursors before it over the documents in between (the pivot of
// WAND: Broder, Carmel, Herscovici, Soffer and Zien, "Efficient query
// evaluation using a two-level retrieval process", 2003).
func (m *maxScore) run(allowed bitset, k int, floor float64) []hit {
	top := newTopK(k)
	if k <= 0 {
		return top.best()
	}
	theta := floor // then the k-th best score once there are k
	ess := 0       // sorted[ess:] are the essential lists
	for ess < len(m.sorted) && m.prefix[ess+1]*slack <= theta {
		ess++
	}
	m.byDoc = append(m.byDoc[:0], m.sorted[ess:]...)
	for {
		sortByDoc(m.byDoc)
		ub, pivot := m.prefix[ess], -1
		for i, c := range m.byDoc {
			if c.doc() == endDoc {
				break
			}
			if ub += float64(c.ub); ub*slack > theta {
				pivot = i
				break
			}
		}
		if pivot < 0 {
			break
		}
		d := m.byDoc[pivot].doc()
		if m.byDoc[0].doc() < d {
			for _, c := range m.byDoc[:pivot] {
				c.seek(d)
			}
			continue
		}
		if allowed.has(int(d)) {
			if s, ok := m.score(d, ess, theta); ok && s > 0 {
				top.push(d, s)
				if len(top.h) == k {
					theta = max(theta, float64(top.h[0].score))
					for ess < len(m.sorted) && m.prefix[ess+1]*slack <= theta {
						m.byDoc = slices.DeleteFunc(m.byDoc, func(c *cursor) bool { return c == m.sorted[ess] })
						ess++
					}
				}
			}
		}
		for _, c := range m.byDoc {
			if c.doc() == d {
				c.move(c.end(d))
			}
		}
	}
	return top.best()
}

// seedPostings bounds the postings that floor reads.
const seedPostings = 8192

// floor returns a score that k allowed documents of n are known to pass
// (-Inf when it finds fewer), so that the walk prunes from its start
// rather than from when it has met k documents, which in document order
// are mostly weak. It reads the lists of the highest bounds, within
// seedPostings postings (at least one list), and bounds each document
// they hold from below by the sum of its field scores for their terms
// plus its best single passage posting among them.
func (m *maxScore) floor(allowed bitset, k, n int) float64 {
	if len(m.fieldLow) < n {
		m.fieldLow, m.passLow = make([]float32, n), make([]float32, n)
	}
	budget := seedPostings
	for i := len(m.sorted) - 1; i >= 0; i-- {
		c := m.sorted[i]
		if i < len(m.sorted)-1 && len(c.ids) > budget {
			break
		}
		c.seed, budget = true, budget-len(c.ids)
	}
	m.touched = m.touched[:0]
	note := func(d int32) {
		if m.fieldLow[d] == 0 && m.passLow[d] == 0 {
			m.touched = append(m.touched, d)
		}
	}
	for i := range m.fields {
		if c := &m.fields[i]; c.seed {
			for j, d := range c.ids {
				if allowed.has(int(d)) {
					note(d)
					m.fieldLow[d] += c.w * c.imps[j]
				}
			}
		}
	}
	for i := range m.pass {
		if c := &m.pass[i]; c.seed {
			for j, p := range c.ids {
				if d := c.pass.doc[p]; allowed.has(int(d)) {
					note(d)
					m.passLow[d] = max(m.passLow[d], c.w*c.imps[j])
				}
			}
		}
	}
	low := newTopK(k)
	for _, d := range m.touched {
		low.push(d, m.fieldLow[d]+m.passLow[d])
		m.fieldLow[d], m.passLow[d] = 0, 0
	}
	if k == 0 || len(low.h) < k {
		return math.Inf(-1)
	}
	return float64(low.h[0].score) / slack
}

// sortByDoc orders cursors by document (an insertion sort: a step of
// the walk moves few of them).
func sortByDoc(cs []*cursor) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].doc() < cs[j-1].doc(); j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// score returns the score of document d, or false when its bound shows
// that it cannot beat theta (a later document needs more than theta: on
// a tie the lower number wins). The essential cursors are on d or past
// it; the non-essential ones are moved to d.
func (m *maxScore) score(d int32, ess int, theta float64) (float32, bool) {
	ub := m.prefix[ess]
	for _, c := range m.sorted[ess:] {
		if c.doc() == d {
			ub += float64(c.bound(d))
		}
	}
	for i := ess - 1; i >= 0; i-- {
		if ub*slack <= theta {
			return 0, false
		}
		c := m.sorted[i]
		ub -= float64(c.ub)
		c.seek(d)
		if c.doc() == d {
			ub += float64(c.bound(d))
		}
	}
	if ub*slack <= theta {
		return 0, false
	}
	var fields float32
	for i := range m.fields {
		if c := &m.fields[i]; c.doc() == d {
			fields += c.w * c.imps[c.pos]
		}
	}
	if len(m.pass) == 0 {
		return fields, true
	}
	first := m.pass[0].pass.first
	n := int(first[d+1] - first[d])
	if cap(m.acc) < n {
		m.acc = make([]float32, n)
	}
	acc := m.acc[:n]
	for i := range m.pass {
		c := &m.pass[i]
		if c.doc() != d {
			continue
		}
		for j, e := c.pos, c.end(d); j < e; j++ {
			acc[c.ids[j]-first[d]] += c.w * c.imps[j]
		}
	}
	var best float32
	for j, s := range acc {
		best = max(best, s)
		acc[j] = 0
	}
	return fields + best, true
}
