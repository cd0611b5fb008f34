package federation

import (
	"container/heap"
	"fmt"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// Page sizes of the paginated lists, as in the reference.
const (
	DefaultLimit     = 20
	MaxLimit         = 100
	DefaultSinceDays = 14
)

// PageQuery selects a page of dated rows (sessions or notes).
type PageQuery struct {
	// Since is the since filter as sent; nil when the caller omitted it.
	// See ParseSince for the grammar.
	Since *string
	// Agent restricts the page to one agent; "" means every agent.
	Agent string
	Level visibility.Level
	// Limit is the page size as sent; nil means DefaultLimit. It is
	// clamped to 1..MaxLimit.
	Limit *int
	// Cursor is the next_cursor of the previous page; nil or "" starts
	// at the first row.
	Cursor *string
	// Reader limits the rows to agents the caller may read. It applies
	// before pagination, so pages are full and counts reveal nothing.
	Reader Reader
}

// PageLimit returns the page size of a requested limit: DefaultLimit when
// nil, else clamped to 1..MaxLimit.
func PageLimit(limit *int) int {
	if limit == nil {
		return DefaultLimit
	}
	return min(max(*limit, 1), MaxLimit)
}

// Page is one page of rows, newest first.
type Page[T any] struct {
	Rows       []T
	NextCursor *string
	HasMore    bool
	// Warnings explains inputs that were ignored, such as a since filter
	// that is not a date.
	Warnings []string
	// Cutoff is the window's first day (YYYY-MM-DD) when it was not sent
	// as since (the default window, or one carried in the cursor): what a
	// cursor for a later page must carry. "" otherwise.
	Cutoff string
}

// window is a resolved PageQuery.
type window struct {
	cutoff    l5.Day // zero: no cutoff
	cutoffStr string
	carry     bool // put the cutoff into the next cursor
	offset    int
	limit     int
	warnings  []string
}

// resolve works out the cutoff day, offset and limit of a query.
//
// An explicit, valid since wins. When since is omitted or cannot be read,
// the cutoff saved in the cursor applies; failing that, a first page (no
// cursor) gets the 14-day default window, and an invalid since on a later
// page also falls back to that window. A later page with since omitted and
// nothing saved has no cutoff, as in the reference.
func (s *Store) resolve(q PageQuery) (window, error) {
	var w window
	cur := deref(q.Cursor)
	c, err := DecodeCursor(cur)
	if err != nil {
		return w, err
	}
	w.offset = c.Offset
	w.limit = PageLimit(q.Limit)
	invalidSince := false
	if q.Since != nil && *q.Since != "" {
		if day, ok := ParseSince(*q.Since); ok {
			w.setCutoff(day, false)
			return w, nil
		}
		invalidSince = true
		w.warnings = append(w.warnings, fmt.Sprintf("since %s is not a date (YYYY-MM-DD, optionally with THH:MM[:SS] and a zone); using the default window instead", pyfmt.Quote(*q.Since)))
	}
	switch {
	case c.Since != "":
		day, _ := parseDayText(c.Since)
		w.setCutoff(day, true)
	case cur == "" || invalidSince:
		w.setCutoff(dayOf(s.Now().UTC().Add(-DefaultSinceDays*24*time.Hour)), true)
	}
	return w, nil
}

func (w *window) setCutoff(day l5.Day, carry bool) {
	w.cutoff, w.cutoffStr, w.carry = day, day.String(), carry
}

// admits reports whether a row of the given date passes the cutoff.
func (w *window) admits(day l5.Day) bool {
	return w.cutoff.IsZero() || (!day.IsZero() && !day.Before(w.cutoff))
}

// exhausted reports whether a row whose date text is date, and every row
// after it in newest-first order, falls before the cutoff.
func (w *window) exhausted(date string) bool {
	return w.cutoffStr != "" && date < w.cutoffStr
}

// dated is how paginate sees one agent's rows: their newest-first order,
// and for a position its date text, day and visibility.
type dated interface {
	order(ai *agentIndex) []int
	row(ai *agentIndex, pos int) (date string, day l5.Day, vis visibility.Level)
}

// paginate walks the rows of the selected agents in (date, agent id)
// descending order, as one merged list, and returns the positions on the
// requested page.
func (s *Store) paginate(v *view, q PageQuery, kind dated) ([]rowRef, *string, bool, window, error) {
	w, err := s.resolve(q)
	if err != nil {
		return nil, nil, false, w, err
	}
	var agents []*agentIndex
	if q.Agent != "" {
		if ai, ok := v.byID[q.Agent]; ok {
			agents = []*agentIndex{ai}
		}
	} else {
		agents = v.agents
	}
	h := make(mergeHeap, 0, len(agents))
	for rank, ai := range agents {
		if !q.Reader.may(ai.id) {
			continue
		}
		st := &stream{ai: ai, rank: rank, order: kind.order(ai)}
		if st.advance(kind, &w, q.Level) {
			h = append(h, st)
		}
	}
	heap.Init(&h)
	var page []rowRef
	skipped, hasMore := 0, false
	for h.Len() > 0 {
		st := h[0]
		if skipped < w.offset {
			skipped++
		} else if len(page) < w.limit {
			page = append(page, rowRef{ai: st.ai, pos: st.order[st.i]})
		} else {
			hasMore = true
			break
		}
		st.i++
		if st.advance(kind, &w, q.Level) {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	var next *string
	if hasMore {
		c := Cursor{Offset: w.offset + len(page)}
		if w.carry {
			c.Since = w.cutoffStr
		}
		enc := c.Encode()
		next = &enc
	}
	return page, next, hasMore, w, nil
}

// info is what a page reports about its window.
func (w window) info() (warnings []string, cutoff string) {
	if w.carry {
		cutoff = w.cutoffStr
	}
	return w.warnings, cutoff
}

// rowRef names one row of one agent.
type rowRef struct {
	ai  *agentIndex
	pos int
}

// stream is one agent's rows in newest-first order.
type stream struct {
	ai    *agentIndex
	rank  int // position of the agent in id order
	order []int
	i     int
	date  string
}

// advance moves the stream to its next admissible row, reporting false
// when none is left.
func (st *stream) advance(kind dated, w *window, level visibility.Level) bool {
	for ; st.i < len(st.order); st.i++ {
		date, day, vis := kind.row(st.ai, st.order[st.i])
		if w.exhausted(date) {
			st.i = len(st.order)
			return false
		}
		if visibility.Visible(vis, level) && w.admits(day) {
			st.date = date
			return true
		}
	}
	return false
}

// mergeHeap orders streams by their current row: newest date first, then
// the higher agent id first.
type mergeHeap []*stream

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if c := strings.Compare(h[i].date, h[j].date); c != 0 {
		return c > 0
	}
	return h[i].rank > h[j].rank
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(*stream)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
