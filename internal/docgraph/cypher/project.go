package cypher

import "slices"

// projector builds the result from the matches: it evaluates RETURN,
// removes duplicates (DISTINCT), groups and aggregates, sorts, and applies
// SKIP and the limits.
//
// Without ORDER BY and aggregates it streams: it keeps rows after SKIP as
// they come and stops the matcher (errStop) once it has need of them.
// Otherwise it keeps every row or group, and sorts at the end.
type projector struct {
	ret       *returnClause
	aggs      []*callExpr // the query's aggregates, by index
	grouping  bool        // some column aggregates
	streaming bool
	skip      int
	need      int       // rows to keep: LIMIT, or one more than the row limit
	seen      setOfKeys // DISTINCT
	rows      []projected
	groups    map[string]*group
	order     []*group // groups in order of first match
	scratch   []any    // a match's columns or grouping keys, before they are kept
	keyBuf    []byte   // scratch space for encoded keys
}

// projected is one row, with its ORDER BY keys.
type projected struct {
	cols, sort []any
}

// group is the rows of one grouping key.
type group struct {
	keys   []any // the grouping columns' values (nil for aggregate columns)
	states []aggState
}

// aggState accumulates one aggregate over a group.
type aggState struct {
	count int64
	items []any
	seen  setOfKeys // count(DISTINCT x), collect(DISTINCT x)
}

// setOfKeys is a set of appendKey encodings.
type setOfKeys map[string]struct{}

// addKey adds key and reports whether it was new.
func (s setOfKeys) addKey(key []byte) bool {
	if _, ok := s[string(key)]; ok {
		return false
	}
	s[string(key)] = struct{}{}
	return true
}

// newProjector returns a projector for ret that drops the first skip rows
// and, when it streams, stops after need rows.
func newProjector(ret *returnClause, aggs []*callExpr, skip, need int) *projector {
	p := &projector{ret: ret, aggs: aggs, skip: skip, need: need, seen: setOfKeys{}}
	p.grouping = slices.ContainsFunc(ret.items, func(it *returnItem) bool { return it.agg })
	p.streaming = !p.grouping && len(ret.order) == 0
	if p.grouping {
		p.groups = map[string]*group{}
	}
	return p
}

// add takes one match.
func (p *projector) add(x *executor) error {
	if p.grouping {
		return p.accumulate(x)
	}
	cols := p.scratch[:0]
	for _, it := range p.ret.items {
		v, err := x.eval(it.expr)
		if err != nil {
			return err
		}
		cols = append(cols, v)
	}
	p.scratch = cols
	if p.ret.distinct && !p.seen.addKey(p.rowKey(cols)) {
		return nil
	}
	if p.streaming && p.skip > 0 {
		p.skip--
		return nil
	}
	cols = slices.Clone(cols)
	if p.streaming {
		p.rows = append(p.rows, projected{cols: cols})
		if len(p.rows) >= p.need {
			return errStop
		}
		return nil
	}
	sort, err := p.sortKeys(x, cols)
	if err != nil {
		return err
	}
	p.rows = append(p.rows, projected{cols: cols, sort: sort})
	return nil
}

// rowKey encodes cols into the projector's key buffer, which the next
// call reuses.
func (p *projector) rowKey(cols []any) []byte {
	p.keyBuf = p.keyBuf[:0]
	for _, c := range cols {
		p.keyBuf = appendKey(p.keyBuf, c)
	}
	return p.keyBuf
}

// sortKeys evaluates the ORDER BY keys of a row whose columns are cols.
func (p *projector) sortKeys(x *executor, cols []any) ([]any, error) {
	x.row = cols
	sort := make([]any, len(p.ret.order))
	for i, s := range p.ret.order {
		v, err := x.eval(s.expr)
		if err != nil {
			return nil, err
		}
		sort[i] = v
	}
	return sort, nil
}

// accumulate adds a match to its group.
func (p *projector) accumulate(x *executor) error {
	keys := p.scratch[:0]
	for _, it := range p.ret.items {
		if it.agg {
			keys = append(keys, nil)
			continue
		}
		v, err := x.eval(it.expr)
		if err != nil {
			return err
		}
		keys = append(keys, v)
	}
	p.scratch = keys
	g := p.group(keys)
	for i, a := range p.aggs {
		if err := g.states[i].add(x, a, &p.keyBuf); err != nil {
			return err
		}
	}
	return nil
}

// group returns the group of the grouping keys, making it if new.
func (p *projector) group(keys []any) *group {
	k := p.rowKey(keys)
	g, ok := p.groups[string(k)]
	if !ok {
		g = &group{keys: slices.Clone(keys), states: make([]aggState, len(p.aggs))}
		p.groups[string(k)] = g
		p.order = append(p.order, g)
	}
	return g
}

// add accumulates the aggregate a for the current match; buf is scratch
// space for keys.
func (s *aggState) add(x *executor, a *callExpr, buf *[]byte) error {
	if a.star {
		s.count++
		return nil
	}
	v, err := x.eval(a.args[0])
	if err != nil || v == nil {
		return err
	}
	if a.distinct {
		if s.seen == nil {
			s.seen = setOfKeys{}
		}
		*buf = appendKey((*buf)[:0], v)
		if !s.seen.addKey(*buf) {
			return nil
		}
	}
	s.count++
	if a.fn.name == "collect" {
		s.items = append(s.items, v)
	}
	return nil
}

// result returns the aggregate's value.
func (s *aggState) result(a *callExpr) any {
	if a.fn.name == "collect" {
		if s.items == nil {
			return []any{}
		}
		return s.items
	}
	return s.count
}

// finish returns the rows after SKIP and LIMIT, at most limit of them, and
// whether there were more than limit.
func (p *projector) finish(x *executor, limit, queryLimit int) ([][]any, bool, error) {
	if p.grouping {
		if err := p.groupRows(x); err != nil {
			return nil, false, err
		}
	}
	if !p.streaming {
		slices.SortStableFunc(p.rows, func(a, b projected) int {
			for i, s := range p.ret.order {
				c := orderCompare(a.sort[i], b.sort[i])
				if s.desc {
					c = -c
				}
				if c != 0 {
					return c
				}
			}
			return 0
		})
		p.rows = p.rows[min(p.skip, len(p.rows)):]
	}
	if queryLimit >= 0 && len(p.rows) > queryLimit {
		p.rows = p.rows[:queryLimit]
	}
	truncated := len(p.rows) > limit
	p.rows = p.rows[:min(limit, len(p.rows))]
	out := make([][]any, len(p.rows))
	size := 0
	for i, r := range p.rows {
		out[i] = make([]any, len(r.cols))
		for j, c := range r.cols {
			out[i][j] = toJSON(x.g, c)
			if size += jsonSize(out[i][j]) + 1; size > x.output {
				return nil, false, outputError(x.output)
			}
		}
	}
	return out, truncated, nil
}

// groupRows turns the groups into rows: the grouping columns, then the
// aggregate columns evaluated over each group's results. With no
// grouping columns and no match there is still one row (count 0).
func (p *projector) groupRows(x *executor) error {
	if len(p.order) == 0 && !slices.ContainsFunc(p.ret.items, func(it *returnItem) bool { return !it.agg }) {
		p.group(make([]any, len(p.ret.items)))
	}
	x.aggs = make([]any, len(p.aggs))
	for _, g := range p.order {
		for i, a := range p.aggs {
			x.aggs[i] = g.states[i].result(a)
		}
		cols := slices.Clone(g.keys)
		for i, it := range p.ret.items {
			if !it.agg {
				continue
			}
			v, err := x.eval(it.expr)
			if err != nil {
				return err
			}
			cols[i] = v
		}
		if p.ret.distinct && !p.seen.addKey(p.rowKey(cols)) {
			continue
		}
		sort, err := p.sortKeys(x, cols)
		if err != nil {
			return err
		}
		p.rows = append(p.rows, projected{cols: cols, sort: sort})
	}
	return nil
}
