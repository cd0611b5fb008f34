package cypher

import (
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// MaxDepth is the largest upper bound of a variable-length relationship.
const MaxDepth = 4

// pattern parses (a)-[r]->(b)….
func (p *parser) pattern() (*pattern, error) {
	if t := p.peek(); t.kind == tIdent && p.peekAt(1).is("=") {
		return nil, p.errorf(KindRefused, t.pos, "name the relationship instead, as in MATCH (a)-[r:dependsOn*1..4]->(b) RETURN r", "path variables (%s = …) are not supported", t.text)
	}
	if t := p.peek(); t.isKeyword("shortestPath") || t.isKeyword("allShortestPaths") {
		return nil, p.errorf(KindRefused, t.pos, "use a variable-length relationship such as -[:dependsOn*1..4]->", "%s is not supported", t.text)
	}
	pat := &pattern{}
	n, err := p.nodePattern()
	if err != nil {
		return nil, err
	}
	pat.nodes = append(pat.nodes, n)
	for p.peek().is("-") || p.peek().is("<") {
		r, err := p.relPattern()
		if err != nil {
			return nil, err
		}
		n, err := p.nodePattern()
		if err != nil {
			return nil, err
		}
		pat.rels = append(pat.rels, r)
		pat.nodes = append(pat.nodes, n)
	}
	return pat, nil
}

// nodePattern parses (name:Label {key: value, …}).
func (p *parser) nodePattern() (*nodePattern, error) {
	open, err := p.expect("(", "a pattern is made of nodes in parentheses, as in (n:Doc)-[:xref]->(m)")
	if err != nil {
		return nil, err
	}
	n := &nodePattern{pos: open.pos}
	if t := p.peek(); t.kind == tIdent {
		n.name = p.next().text
	}
	if p.accept(":") {
		l, err := p.label()
		if err != nil {
			return nil, err
		}
		n.label = l
		if t := p.peek(); t.is(":") || t.is("|") {
			return nil, p.errorf(KindRefused, t.pos, "give one label, and test others in WHERE, as in WHERE n:Doc OR n:Article", "a node has exactly one label, so label combinations are not supported")
		}
	}
	if p.peek().is("{") {
		props, err := p.propMap()
		if err != nil {
			return nil, err
		}
		n.props = props
	}
	if _, err := p.expect(")", "close the node with )"); err != nil {
		return nil, err
	}
	return n, nil
}

// label parses a label name and checks it against the vocabulary, which
// spells each label in exactly one way.
func (p *parser) label() (graph.Label, error) {
	t := p.next()
	if t.kind != tIdent {
		return "", p.errorf(KindSyntax, t.pos, "write a label after the colon, as in (n:Doc)", "expected a label, found %s", describe(t))
	}
	spec, ok := graph.LookupLabel(t.text)
	if !ok {
		return "", p.errorf(KindRefused, t.pos, "the labels are "+labelList()+" (describe_schema describes them)", "unknown label :%s", t.text)
	}
	if string(spec.Label) != t.text {
		return "", p.errorf(KindRefused, t.pos, "write :"+string(spec.Label), "labels are case-sensitive: :%s is not a label", t.text)
	}
	return spec.Label, nil
}

func labelList() string {
	var names []string
	for _, s := range graph.Labels() {
		names = append(names, string(s.Label))
	}
	return strings.Join(names, ", ")
}

func edgeList() string {
	var names []string
	for _, e := range graph.Edges() {
		names = append(names, string(e.Type))
	}
	return strings.Join(names, ", ")
}

// propMap parses {key: value, …}.
func (p *parser) propMap() ([]propEntry, error) {
	p.next() // {
	var props []propEntry
	if p.accept("}") {
		return nil, nil
	}
	for {
		k := p.next()
		if k.kind != tIdent {
			return nil, p.errorf(KindSyntax, k.pos, "a property map is {key: value, …}", "expected a property name, found %s", describe(k))
		}
		if _, err := p.expect(":", "a property map is {key: value, …}"); err != nil {
			return nil, err
		}
		v, err := p.expr()
		if err != nil {
			return nil, err
		}
		props = append(props, propEntry{pos: k.pos, key: k.text, val: v})
		if p.accept("}") {
			return props, nil
		}
		if _, err := p.expect(",", "separate properties with commas and close the map with }"); err != nil {
			return nil, err
		}
	}
}

const relShape = "a relationship is -[:type]->, <-[:type]-, -[:type]- or -[:type*1..4]->"

// relPattern parses one of -->, <--, --, -[…]->, <-[…]- and -[…]-.
func (p *parser) relPattern() (*relPattern, error) {
	r := &relPattern{pos: p.peek().pos, min: 1, max: 1, slot: -1}
	left := p.accept("<")
	if _, err := p.expect("-", relShape); err != nil {
		return nil, err
	}
	if p.accept("[") {
		if err := p.relDetail(r); err != nil {
			return nil, err
		}
		if _, err := p.expect("]", relShape); err != nil {
			return nil, err
		}
	}
	if _, err := p.expect("-", relShape); err != nil {
		return nil, err
	}
	right := p.accept(">")
	switch {
	case left == right:
		r.dir = graph.Both
	case left:
		r.dir = graph.Incoming
	default:
		r.dir = graph.Outgoing
	}
	return r, nil
}

// relDetail parses what is between [ and ]: name, :types and *range.
func (p *parser) relDetail(r *relPattern) error {
	if t := p.peek(); t.kind == tIdent {
		r.name = p.next().text
	}
	if p.accept(":") {
		for {
			t := p.next()
			if t.kind != tIdent {
				return p.errorf(KindSyntax, t.pos, "write a type after the colon, as in -[:xref|dependsOn]->", "expected a relationship type, found %s", describe(t))
			}
			et, err := p.edgeType(t)
			if err != nil {
				return err
			}
			r.types = append(r.types, et)
			if !p.accept("|") {
				break
			}
			p.accept(":") // the older spelling :a|:b
		}
	}
	if star := p.peek(); star.is("*") {
		p.next()
		if err := p.rangeSpec(r, star.pos); err != nil {
			return err
		}
	}
	if t := p.peek(); t.is("{") {
		return p.errorf(KindRefused, t.pos, "relationships carry only their type; filter on the nodes in WHERE", "relationship property maps are not supported")
	}
	return nil
}

// edgeType checks a relationship type against the vocabulary; types are
// case-sensitive.
func (p *parser) edgeType(t token) (graph.EdgeType, error) {
	if e, ok := graph.LookupEdge(t.text); ok {
		return e.Type, nil
	}
	for _, e := range graph.Edges() {
		if strings.EqualFold(string(e.Type), t.text) {
			return "", p.errorf(KindRefused, t.pos, "write :"+string(e.Type), "relationship types are case-sensitive: :%s is not a type", t.text)
		}
	}
	return "", p.errorf(KindRefused, t.pos, "the types are "+edgeList()+" (describe_schema describes them)", "unknown relationship type :%s", t.text)
}

const rangeHint = "write a bounded range such as *1..4, *2..3, *..3 (1 to 3) or *2 (exactly 2), with an upper bound of at most 4"

// rangeSpec parses what follows * in a relationship: n, n..m or ..m.
func (p *parser) rangeSpec(r *relPattern, pos int) error {
	r.varLength = true
	lo, hi := 1, -1
	if t := p.peek(); t.kind == tInt {
		p.next()
		lo = int(min(t.ival, 1<<20))
		hi = lo
	}
	if p.accept("..") {
		hi = -1
		if t := p.peek(); t.kind == tInt {
			p.next()
			hi = int(min(t.ival, 1<<20))
		}
	} else if p.peek().kind == tFloat {
		return p.errorf(KindSyntax, p.peek().pos, rangeHint, "a range needs whole numbers")
	}
	switch {
	case hi < 0:
		return p.errorf(KindLimit, pos, rangeHint, "a variable-length relationship needs an upper bound")
	case hi > MaxDepth:
		return p.errorf(KindLimit, pos, rangeHint, "depth %d is over the maximum of %d", hi, MaxDepth)
	case lo > hi:
		return p.errorf(KindSyntax, pos, rangeHint, "the lower bound %d is over the upper bound %d", lo, hi)
	}
	r.min, r.max = lo, hi
	return nil
}
