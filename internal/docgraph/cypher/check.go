package cypher

import "strings"

// varKind is what a variable holds.
type varKind uint8

const (
	kindNode    varKind = iota + 1
	kindRel             // one relationship
	kindRelList         // the relationships of a variable-length path
)

// maxSlots bounds the variables of a query, counting anonymous nodes;
// conditions record the slots they read in a uint64.
const maxSlots = 64

type variable struct {
	name string
	slot int
	kind varKind
}

// cond is one condition of a MATCH clause and the slots it reads, so the
// matcher can test it as soon as they are bound.
type cond struct {
	e    expr
	deps uint64
}

// checker resolves the names of a parsed query: it gives every node
// pattern and named relationship a slot, binds variable references to
// them, and checks functions, aggregates, columns and ORDER BY.
type checker struct {
	src    string
	scope  map[string]*variable
	named  []*variable // in order of first appearance
	kinds  []varKind   // by slot
	params map[string]struct{}
	aggs   []*callExpr
}

// exprMode says where an expression is, which decides whether it may
// hold aggregates.
type exprMode uint8

const (
	modeScalar      exprMode = iota // WHERE and property maps
	modeReturn                      // a RETURN item
	modeInAggregate                 // an aggregate's argument
)

func (c *checker) errorf(kind Kind, offset int, hint, format string, args ...any) error {
	return errorAt(c.src, kind, offset, hint, format, args...)
}

func (c *checker) query(q *query) error {
	for _, m := range q.clauses {
		if err := c.clause(m); err != nil {
			return err
		}
	}
	return c.ret(q.ret)
}

// declare gives a pattern element its slot. A node variable named again
// joins the earlier one; a relationship variable may be named once.
func (c *checker) declare(name string, kind varKind, pos int) (int, error) {
	if v, ok := c.scope[name]; ok && name != "" {
		if kind == kindNode && v.kind == kindNode {
			return v.slot, nil
		}
		if v.kind == kindNode {
			return 0, c.errorf(KindSyntax, pos, "give the relationship its own name", "%s is already a node", name)
		}
		return 0, c.errorf(KindSyntax, pos, "give each relationship its own name", "relationship variable %s is already bound", name)
	}
	if len(c.kinds) == maxSlots {
		return 0, c.errorf(KindLimit, pos, "split the query", "more than %d nodes and relationship variables", maxSlots)
	}
	slot := len(c.kinds)
	c.kinds = append(c.kinds, kind)
	if name != "" {
		v := &variable{name: name, slot: slot, kind: kind}
		c.scope[name] = v
		c.named = append(c.named, v)
	}
	return slot, nil
}

func (c *checker) clause(m *matchClause) error {
	var err error
	for _, p := range m.patterns {
		for i, n := range p.nodes {
			if n.slot, err = c.declare(n.name, kindNode, n.pos); err != nil {
				return err
			}
			if i == len(p.rels) || p.rels[i].name == "" {
				continue
			}
			r := p.rels[i]
			kind := kindRel
			if r.varLength {
				kind = kindRelList
			}
			if r.slot, err = c.declare(r.name, kind, r.pos); err != nil {
				return err
			}
		}
	}
	for _, p := range m.patterns {
		for _, n := range p.nodes {
			for _, kv := range n.props {
				if err := c.expr(kv.val, modeScalar); err != nil {
					return err
				}
				target := &varExpr{pos: n.pos, name: n.name, slot: n.slot, kind: kindNode}
				eq := &binaryExpr{pos: kv.pos, op: opEq, l: &propExpr{pos: kv.pos, target: target, key: kv.key}, r: kv.val}
				m.conds = append(m.conds, &cond{e: eq, deps: deps(eq)})
			}
		}
	}
	if m.where != nil {
		if err := c.expr(m.where, modeScalar); err != nil {
			return err
		}
		for _, t := range conjuncts(m.where, nil) {
			m.conds = append(m.conds, &cond{e: t, deps: deps(t)})
		}
	}
	return nil
}

// conjuncts splits e into its top-level AND terms.
func conjuncts(e expr, out []expr) []expr {
	if b, ok := e.(*binaryExpr); ok && b.op == opAnd {
		return conjuncts(b.r, conjuncts(b.l, out))
	}
	return append(out, e)
}

// deps returns the slots e reads.
func deps(e expr) uint64 {
	var d uint64
	walk(e, func(e expr) {
		if v, ok := e.(*varExpr); ok {
			d |= 1 << v.slot
		}
	})
	return d
}

// walk calls f on e and each expression inside it.
func walk(e expr, f func(expr)) {
	f(e)
	switch e := e.(type) {
	case *listExpr:
		for _, x := range e.elems {
			walk(x, f)
		}
	case *propExpr:
		walk(e.target, f)
	case *labelExpr:
		walk(e.target, f)
	case *unaryExpr:
		walk(e.x, f)
	case *binaryExpr:
		walk(e.l, f)
		walk(e.r, f)
	case *callExpr:
		for _, x := range e.args {
			walk(x, f)
		}
	}
}

// expr resolves the variables and parameters of e and checks where
// aggregates are.
func (c *checker) expr(e expr, mode exprMode) error {
	switch e := e.(type) {
	case *paramExpr:
		c.params[e.name] = struct{}{}
	case *varExpr:
		return c.variable(e)
	case *listExpr:
		for _, x := range e.elems {
			if err := c.expr(x, mode); err != nil {
				return err
			}
		}
	case *propExpr:
		return c.expr(e.target, mode)
	case *labelExpr:
		return c.expr(e.target, mode)
	case *unaryExpr:
		return c.expr(e.x, mode)
	case *binaryExpr:
		if err := c.expr(e.l, mode); err != nil {
			return err
		}
		return c.expr(e.r, mode)
	case *callExpr:
		argMode := mode
		if e.fn.aggregate {
			switch mode {
			case modeScalar:
				return c.errorf(KindSyntax, e.pos, "aggregate in RETURN, as in RETURN n.uid, count(*)", "%s() is an aggregate, and aggregates are only allowed in RETURN", e.fn.name)
			case modeInAggregate:
				return c.errorf(KindSyntax, e.pos, "aggregate once per column", "%s() is nested in another aggregate", e.fn.name)
			}
			argMode = modeInAggregate
			e.agg = len(c.aggs)
			c.aggs = append(c.aggs, e)
		}
		for _, x := range e.args {
			if err := c.expr(x, argMode); err != nil {
				return err
			}
		}
	}
	return nil
}

// variable binds a reference to its variable.
func (c *checker) variable(e *varExpr) error {
	v, ok := c.scope[e.name]
	if !ok {
		hint := "name it in a MATCH pattern first"
		if len(c.named) > 0 {
			var names []string
			for _, v := range c.named {
				names = append(names, v.name)
			}
			hint = "the variables are " + strings.Join(names, ", ")
		}
		return c.errorf(KindSyntax, e.pos, hint, "variable %s is not defined", e.name)
	}
	e.slot, e.kind = v.slot, v.kind
	return nil
}
