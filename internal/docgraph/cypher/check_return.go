package cypher

import "slices"

// ret checks RETURN: it expands RETURN *, names the columns, finds the
// aggregating ones and resolves ORDER BY.
func (c *checker) ret(r *returnClause) error {
	if r.star {
		if len(c.named) == 0 {
			return c.errorf(KindSyntax, r.pos, "name a node or relationship in MATCH, or list the columns", "RETURN * has no named variables to return")
		}
		for _, v := range c.named {
			r.items = append(r.items, &returnItem{pos: r.pos, expr: &varExpr{pos: r.pos, name: v.name, slot: -1}, name: v.name})
		}
	}
	seen := map[string]bool{}
	for _, it := range r.items {
		if err := c.expr(it.expr, modeReturn); err != nil {
			return err
		}
		if seen[it.name] {
			return c.errorf(KindSyntax, it.pos, "give one of them another name with AS", "two columns are named %s", it.name)
		}
		seen[it.name] = true
		it.agg = hasAggregate(it.expr)
		if v := ungroupedVar(it.expr); it.agg && v != nil {
			return c.errorf(KindSyntax, v.pos, "return "+v.name+" as a column of its own, which groups the rows by it", "%s is used outside the aggregate in column %s", v.name, it.name)
		}
	}
	restricted := r.distinct || slices.ContainsFunc(r.items, func(it *returnItem) bool { return it.agg })
	for _, s := range r.order {
		e, err := c.orderExpr(s.expr, r, restricted)
		if err != nil {
			return err
		}
		s.expr = e
	}
	for _, e := range []expr{r.skip, r.limit} {
		if e != nil {
			if err := c.expr(e, modeScalar); err != nil {
				return err
			}
		}
	}
	return nil
}

// hasAggregate reports whether e holds an aggregate.
func hasAggregate(e expr) bool {
	found := false
	walk(e, func(e expr) {
		if c, ok := e.(*callExpr); ok && c.fn.aggregate {
			found = true
		}
	})
	return found
}

// ungroupedVar returns a variable e reads outside its aggregates, if any.
func ungroupedVar(e expr) *varExpr {
	switch e := e.(type) {
	case *varExpr:
		return e
	case *callExpr:
		if e.fn.aggregate {
			return nil
		}
		for _, x := range e.args {
			if v := ungroupedVar(x); v != nil {
				return v
			}
		}
	case *listExpr:
		for _, x := range e.elems {
			if v := ungroupedVar(x); v != nil {
				return v
			}
		}
	case *propExpr:
		return ungroupedVar(e.target)
	case *labelExpr:
		return ungroupedVar(e.target)
	case *unaryExpr:
		return ungroupedVar(e.x)
	case *binaryExpr:
		if v := ungroupedVar(e.l); v != nil {
			return v
		}
		return ungroupedVar(e.r)
	}
	return nil
}

const orderHint = "after RETURN DISTINCT or an aggregate, ORDER BY can only use the returned columns: return the expression too, or sort by its alias"

// orderExpr resolves an ORDER BY key. A key written as a returned
// expression, or a name of a column, reads that column; otherwise the key
// is evaluated against the matched row, which DISTINCT and aggregation
// (restricted) do not allow.
func (c *checker) orderExpr(e expr, r *returnClause, restricted bool) (expr, error) {
	text := format(e)
	for i, it := range r.items {
		if format(it.expr) == text {
			return &columnExpr{pos: e.position(), index: i}, nil
		}
	}
	var err error
	switch e := e.(type) {
	case *varExpr:
		if i := slices.IndexFunc(r.items, func(it *returnItem) bool { return it.name == e.name }); i >= 0 {
			return &columnExpr{pos: e.pos, index: i}, nil
		}
		if restricted {
			return nil, c.errorf(KindSyntax, e.pos, orderHint, "ORDER BY uses %s, which is not returned", e.name)
		}
		return e, c.variable(e)
	case *callExpr:
		if e.fn.aggregate {
			return nil, c.errorf(KindSyntax, e.pos, "return the aggregate and sort by its column, as in RETURN n.uid, count(*) AS c ORDER BY c", "ORDER BY uses %s(), which is not returned", e.fn.name)
		}
		for i, x := range e.args {
			if e.args[i], err = c.orderExpr(x, r, restricted); err != nil {
				return nil, err
			}
		}
	case *listExpr:
		for i, x := range e.elems {
			if e.elems[i], err = c.orderExpr(x, r, restricted); err != nil {
				return nil, err
			}
		}
	case *propExpr:
		e.target, err = c.orderExpr(e.target, r, restricted)
	case *labelExpr:
		e.target, err = c.orderExpr(e.target, r, restricted)
	case *unaryExpr:
		e.x, err = c.orderExpr(e.x, r, restricted)
	case *binaryExpr:
		if e.l, err = c.orderExpr(e.l, r, restricted); err == nil {
			e.r, err = c.orderExpr(e.r, r, restricted)
		}
	case *paramExpr:
		c.params[e.name] = struct{}{}
	}
	return e, err
}
