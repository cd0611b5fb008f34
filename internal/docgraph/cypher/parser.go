package cypher

import (
	"fmt"
	"strings"
)

// maxNesting bounds how deeply expressions nest, so that a hostile query
// cannot exhaust the stack.
const maxNesting = 64

// parser turns tokens into a query. It checks the grammar and the
// vocabulary; check (check.go) resolves names afterwards.
type parser struct {
	src   string
	toks  []token
	i     int
	depth int
}

// parse parses src into a query.
func parse(src string) (*query, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	return p.query()
}

func (p *parser) peek() token { return p.toks[p.i] }

// peekAt returns the token k places ahead (the last one is tEOF).
func (p *parser) peekAt(k int) token { return p.toks[min(p.i+k, len(p.toks)-1)] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// accept consumes the punctuation s if it is next.
func (p *parser) accept(s string) bool {
	if p.peek().is(s) {
		p.i++
		return true
	}
	return false
}

// acceptKeyword consumes the keyword kw if it is next.
func (p *parser) acceptKeyword(kw string) bool {
	if p.peek().isKeyword(kw) {
		p.i++
		return true
	}
	return false
}

func (p *parser) errorf(kind Kind, offset int, hint, format string, args ...any) error {
	return errorAt(p.src, kind, offset, hint, format, args...)
}

// unexpected reports the next token as out of place; it names a refused
// keyword as refused.
func (p *parser) unexpected(want, hint string) error {
	t := p.peek()
	if r, ok := refusedAt(p.toks, p.i); ok {
		return p.errorf(KindRefused, t.pos, r.hint, "%s", r.msg)
	}
	return p.errorf(KindSyntax, t.pos, hint, "expected %s, found %s", want, describe(t))
}

// expect consumes the punctuation s or fails.
func (p *parser) expect(s, hint string) (token, error) {
	if !p.peek().is(s) {
		return token{}, p.unexpected(fmt.Sprintf("%q", s), hint)
	}
	return p.next(), nil
}

// describe names a token for an error message.
func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the query"
	case tString:
		return "a string"
	case tInt, tFloat:
		return "the number " + t.text
	case tParam:
		return "$" + t.text
	}
	return fmt.Sprintf("%q", t.text)
}

const queryShape = "a query is MATCH pattern [WHERE condition] … RETURN expressions [ORDER BY …] [SKIP n] [LIMIT n]"

func (p *parser) query() (*query, error) {
	if p.peek().kind == tEOF {
		return nil, p.errorf(KindSyntax, 0, queryShape, "empty query")
	}
	q := &query{}
	for {
		t := p.peek()
		switch {
		case t.isKeyword("MATCH"), t.isKeyword("OPTIONAL"):
			c, err := p.matchClause()
			if err != nil {
				return nil, err
			}
			q.clauses = append(q.clauses, c)
		case t.isKeyword("RETURN"):
			r, err := p.returnClause()
			if err != nil {
				return nil, err
			}
			q.ret = r
			p.accept(";")
			if p.peek().kind != tEOF {
				return nil, p.unexpected("the end of the query after RETURN", "RETURN ends the query; send one query per call")
			}
			return q, nil
		default:
			if len(q.clauses) == 0 {
				return nil, p.unexpected("MATCH, OPTIONAL MATCH or RETURN", queryShape)
			}
			return nil, p.unexpected("MATCH, OPTIONAL MATCH, WHERE or RETURN", queryShape)
		}
	}
}

func (p *parser) matchClause() (*matchClause, error) {
	c := &matchClause{}
	if p.acceptKeyword("OPTIONAL") {
		c.optional = true
		if !p.acceptKeyword("MATCH") {
			return nil, p.unexpected("MATCH after OPTIONAL", "write OPTIONAL MATCH pattern")
		}
	} else {
		p.next() // MATCH
	}
	for {
		pat, err := p.pattern()
		if err != nil {
			return nil, err
		}
		c.patterns = append(c.patterns, pat)
		if !p.accept(",") {
			break
		}
	}
	if p.acceptKeyword("WHERE") {
		w, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.where = w
	}
	return c, nil
}

func (p *parser) returnClause() (*returnClause, error) {
	r := &returnClause{pos: p.next().pos}
	r.distinct = p.acceptKeyword("DISTINCT")
	if p.accept("*") {
		r.star = true
	} else {
		for {
			it, err := p.returnItem()
			if err != nil {
				return nil, err
			}
			r.items = append(r.items, it)
			if !p.accept(",") {
				break
			}
		}
	}
	if t := p.peek(); t.isKeyword("ORDER") {
		p.next()
		if !p.acceptKeyword("BY") {
			return nil, p.unexpected("BY after ORDER", "write ORDER BY expression [ASC|DESC]")
		}
		for {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			s := &sortItem{expr: e}
			switch {
			case p.acceptKeyword("DESC"), p.acceptKeyword("DESCENDING"):
				s.desc = true
			case p.acceptKeyword("ASC"), p.acceptKeyword("ASCENDING"):
			}
			r.order = append(r.order, s)
			if !p.accept(",") {
				break
			}
		}
	}
	var err error
	if p.acceptKeyword("SKIP") || p.acceptKeyword("OFFSET") {
		if r.skip, err = p.count("SKIP"); err != nil {
			return nil, err
		}
	}
	if p.acceptKeyword("LIMIT") {
		if r.limit, err = p.count("LIMIT"); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// returnItem parses expression [AS alias].
func (p *parser) returnItem() (*returnItem, error) {
	start := p.peek().pos
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	it := &returnItem{pos: start, expr: e, name: strings.TrimSpace(p.src[start:p.toks[p.i-1].end])}
	if p.acceptKeyword("AS") {
		t := p.next()
		if t.kind != tIdent {
			return nil, p.errorf(KindSyntax, t.pos, "write a name after AS", "expected a column name, found %s", describe(t))
		}
		it.name = t.text
	}
	return it, nil
}

// count parses the argument of SKIP or LIMIT: a non-negative integer or
// a parameter.
func (p *parser) count(what string) (expr, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		return &literal{pos: t.pos, val: t.ival}, nil
	case tParam:
		return &paramExpr{pos: t.pos, name: t.text}, nil
	}
	return nil, p.errorf(KindSyntax, t.pos, "write "+what+" 10 or "+what+" $n", "%s needs a non-negative integer or a parameter, found %s", what, describe(t))
}
