package cypher

import (
	"strings"
)

// Expression grammar, loosest binding first:
//
//	expr       = xor {OR xor}
//	xor        = and {XOR and}
//	and        = not {AND not}
//	not        = {NOT} comparison
//	comparison = predicate {(= | <> | < | <= | > | >=) predicate}
//	predicate  = postfix {STARTS WITH postfix | ENDS WITH postfix
//	             | CONTAINS postfix | IN postfix | IS [NOT] NULL}
//	postfix    = atom {.key | :Label}
//	atom       = literal | [list] | $param | (expr) | function(args) | variable
//
// A chain a < b < c means a < b AND b < c, as in Cypher.

// enter counts one level of nesting and fails past maxNesting.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxNesting {
		return p.errorf(KindLimit, p.peek().pos, "write a flatter expression", "expressions nest more than %d deep", maxNesting)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expr() (expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	return p.binaryChain("OR", opOr, func() (expr, error) {
		return p.binaryChain("XOR", opXor, func() (expr, error) {
			return p.binaryChain("AND", opAnd, p.not)
		})
	})
}

// binaryChain parses operand {kw operand}, associating to the left.
func (p *parser) binaryChain(kw string, op binaryOp, operand func() (expr, error)) (expr, error) {
	l, err := operand()
	if err != nil {
		return nil, err
	}
	for p.peek().isKeyword(kw) {
		pos := p.next().pos
		r, err := operand()
		if err != nil {
			return nil, err
		}
		l = &binaryExpr{pos: pos, op: op, l: l, r: r}
	}
	return l, nil
}

func (p *parser) not() (expr, error) {
	if t := p.peek(); t.isKeyword("NOT") {
		p.next()
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{pos: t.pos, op: opNot, x: x}, nil
	}
	return p.comparison()
}

var comparisons = map[string]binaryOp{"=": opEq, "<>": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

func (p *parser) comparison() (expr, error) {
	l, err := p.predicate()
	if err != nil {
		return nil, err
	}
	var out expr
	for {
		t := p.peek()
		op, ok := comparisons[t.text]
		if t.kind != tPunct || !ok {
			break
		}
		p.next()
		r, err := p.predicate()
		if err != nil {
			return nil, err
		}
		cmp := &binaryExpr{pos: t.pos, op: op, l: l, r: r}
		if out == nil {
			out = cmp
		} else {
			out = &binaryExpr{pos: t.pos, op: opAnd, l: out, r: cmp}
		}
		l = r
	}
	if out == nil {
		return l, nil
	}
	return out, nil
}

func (p *parser) predicate() (expr, error) {
	x, err := p.postfix()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		var op binaryOp
		switch {
		case t.isKeyword("IS"):
			p.next()
			u := &unaryExpr{pos: t.pos, op: opIsNull, x: x}
			if p.acceptKeyword("NOT") {
				u.op = opIsNotNull
			}
			if !p.acceptKeyword("NULL") {
				return nil, p.unexpected("NULL", "write IS NULL or IS NOT NULL")
			}
			x = u
			continue
		case t.isKeyword("STARTS"), t.isKeyword("ENDS"):
			p.next()
			if !p.acceptKeyword("WITH") {
				return nil, p.unexpected("WITH after "+strings.ToUpper(t.text), "write STARTS WITH or ENDS WITH")
			}
			op = opStartsWith
			if t.isKeyword("ENDS") {
				op = opEndsWith
			}
		case t.isKeyword("CONTAINS"):
			p.next()
			op = opContains
		case t.isKeyword("IN"):
			p.next()
			op = opIn
		default:
			return x, nil
		}
		r, err := p.postfix()
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{pos: t.pos, op: op, l: x, r: r}
	}
}

func (p *parser) postfix() (expr, error) {
	x, err := p.atom()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		switch {
		case t.is("."):
			p.next()
			k := p.next()
			if k.kind != tIdent {
				return nil, p.errorf(KindSyntax, k.pos, "write variable.property, as in n.uid", "expected a property name after the dot, found %s", describe(k))
			}
			x = &propExpr{pos: x.position(), target: x, key: k.text}
		case t.is(":"):
			p.next()
			l, err := p.label()
			if err != nil {
				return nil, err
			}
			x = &labelExpr{pos: x.position(), target: x, label: l}
		case t.is("["):
			return nil, p.errorf(KindRefused, t.pos, "return the whole list, or test membership with IN", "list indexing and slicing are not supported")
		case t.is("-") && (p.peekAt(1).is("[") || p.peekAt(1).is("-") || p.peekAt(1).is(">")),
			t.is("<") && p.peekAt(1).is("-") && (p.peekAt(2).is("[") || p.peekAt(2).is("-")):
			return nil, p.errorf(KindRefused, t.pos, "add the pattern to a MATCH or OPTIONAL MATCH clause", "patterns inside expressions are not supported")
		case t.kind == tPunct && strings.Contains("+-*/%^", t.text):
			return nil, p.errorf(KindRefused, t.pos, "compare and return values as they are; the subset has no arithmetic", "arithmetic (%s) is not supported", t.text)
		default:
			return x, nil
		}
	}
}

func (p *parser) atom() (expr, error) {
	t := p.peek()
	switch t.kind {
	case tString:
		p.next()
		if len(t.text) > MaxLiteralBytes {
			return nil, p.errorf(KindLimit, t.pos, "pass long text as a parameter, or match on a shorter part of it", "a string literal of %d bytes is over the maximum of %d", len(t.text), MaxLiteralBytes)
		}
		return &literal{pos: t.pos, val: t.text}, nil
	case tInt:
		p.next()
		return &literal{pos: t.pos, val: t.ival}, nil
	case tFloat:
		p.next()
		return &literal{pos: t.pos, val: t.fval}, nil
	case tParam:
		p.next()
		return &paramExpr{pos: t.pos, name: t.text}, nil
	case tIdent:
		return p.name()
	}
	switch {
	case t.is("-"):
		p.next()
		switch n := p.next(); n.kind {
		case tInt:
			return &literal{pos: t.pos, val: -n.ival}, nil
		case tFloat:
			return &literal{pos: t.pos, val: -n.fval}, nil
		}
		return nil, p.errorf(KindRefused, t.pos, "a minus sign may only start a number; the subset has no arithmetic", "negation is not supported")
	case t.is("("):
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "close the parenthesis"); err != nil {
			return nil, err
		}
		return x, nil
	case t.is("["):
		return p.list()
	case t.is("{"):
		return nil, p.errorf(KindRefused, t.pos, "pass a map as a parameter instead", "map literals are not supported in expressions")
	}
	return nil, p.unexpected("an expression", "an expression is a literal, a $parameter, a variable, variable.property or a function call")
}

// list parses [expr, …].
func (p *parser) list() (expr, error) {
	open := p.next()
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	l := &listExpr{pos: open.pos}
	if p.accept("]") {
		return l, nil
	}
	for {
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		l.elems = append(l.elems, x)
		if p.accept("]") {
			return l, nil
		}
		if _, err := p.expect(",", "separate list elements with commas and close the list with ]"); err != nil {
			return nil, err
		}
	}
}

// name parses what starts with an identifier: true, false, null, a
// function call or a variable.
func (p *parser) name() (expr, error) {
	t := p.next()
	switch {
	case t.isKeyword("true"):
		return &literal{pos: t.pos, val: true}, nil
	case t.isKeyword("false"):
		return &literal{pos: t.pos, val: false}, nil
	case t.isKeyword("null"):
		return &literal{pos: t.pos, val: nil}, nil
	case t.isKeyword("CASE"), t.isKeyword("EXISTS"), t.isKeyword("COUNT") && p.peek().is("{"):
		return nil, p.errorf(KindRefused, t.pos, "use WHERE with AND, OR and IS NULL, or OPTIONAL MATCH", "%s expressions are not supported", strings.ToUpper(t.text))
	}
	if name, ok := p.dottedCall(t); ok {
		return nil, p.errorf(KindRefused, t.pos, "the functions are "+functionList(), "namespaced functions and procedures (%s) are not supported", name)
	}
	if t.quoted || !p.peek().is("(") {
		return &varExpr{pos: t.pos, name: t.text, slot: -1}, nil
	}
	return p.call(t)
}

// dottedCall reports whether t starts a namespaced call a.b.c(, and
// returns its name.
func (p *parser) dottedCall(t token) (string, bool) {
	if t.quoted {
		return "", false
	}
	name := t.text
	k := 0
	for p.peekAt(k).is(".") && p.peekAt(k+1).kind == tIdent {
		name += "." + p.peekAt(k+1).text
		k += 2
	}
	return name, k > 0 && p.peekAt(k).is("(")
}

// call parses name(args), name(DISTINCT x) or count(*).
func (p *parser) call(name token) (expr, error) {
	fn, ok := functions[strings.ToLower(name.text)]
	if !ok {
		return nil, p.errorf(KindRefused, name.pos, "the functions are "+functionList(), "unknown function %s()", name.text)
	}
	p.next() // (
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	c := &callExpr{pos: name.pos, fn: fn, agg: -1}
	if t := p.peek(); t.isKeyword("DISTINCT") {
		if !fn.aggregate {
			return nil, p.errorf(KindSyntax, t.pos, "DISTINCT goes inside count() or collect(), or after RETURN", "%s() does not take DISTINCT", fn.name)
		}
		p.next()
		c.distinct = true
	}
	if t := p.peek(); t.is("*") {
		if fn.name != "count" || c.distinct {
			return nil, p.errorf(KindSyntax, t.pos, "only count(*) takes *", "%s(*) is not a function call", fn.name)
		}
		p.next()
		c.star = true
	} else if !p.peek().is(")") {
		for {
			x, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, x)
			if !p.accept(",") {
				break
			}
		}
	}
	if _, err := p.expect(")", "close the call with )"); err != nil {
		return nil, err
	}
	if n := len(c.args); !c.star && (n < fn.minArgs || fn.maxArgs >= 0 && n > fn.maxArgs) {
		return nil, p.errorf(KindSyntax, name.pos, "write "+fn.signature, "%s() takes %s, not %d", fn.name, fn.arity(), n)
	}
	return c, nil
}
