package cypher

import (
	"strconv"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// query is a parsed query: its MATCH clauses in order, then RETURN.
type query struct {
	clauses []*matchClause
	ret     *returnClause
}

// matchClause is one MATCH or OPTIONAL MATCH with its WHERE.
type matchClause struct {
	optional bool
	patterns []*pattern
	where    expr // nil when absent
	// conds are the clause's conditions, set by check: the top-level
	// AND terms of where and one equality per inline property.
	conds []*cond
}

// pattern is a path: nodes joined by relationships, rels[i] between
// nodes[i] and nodes[i+1].
type pattern struct {
	nodes []*nodePattern
	rels  []*relPattern
}

// nodePattern is (name:Label {key: value}).
type nodePattern struct {
	pos   int
	name  string      // "" when anonymous
	label graph.Label // "" when none
	props []propEntry
	slot  int // set by check
}

// propEntry is key: value in a node's property map.
type propEntry struct {
	pos int
	key string
	val expr
}

// relPattern is -[name:type1|type2*min..max]->, or one of its shorter
// forms.
type relPattern struct {
	pos   int
	name  string           // "" when anonymous
	types []graph.EdgeType // empty: any type
	// dir is the direction as written, from the node on the left.
	dir       graph.Direction
	varLength bool
	min, max  int // both 1 unless varLength
	slot      int // set by check; -1 when anonymous
}

// returnClause is RETURN with its ORDER BY, SKIP and LIMIT.
type returnClause struct {
	pos         int
	distinct    bool
	star        bool // RETURN *; check replaces it with items
	items       []*returnItem
	order       []*sortItem
	skip, limit expr // an integer literal or a parameter; nil when absent
}

// returnItem is one column of the result.
type returnItem struct {
	pos  int
	expr expr
	name string // the alias, or else the expression's text
	agg  bool   // set by check: the expression contains an aggregate
}

// sortItem is one ORDER BY key.
type sortItem struct {
	expr expr
	desc bool
}

// expr is an expression. Each carries the byte offset where it starts.
type expr interface{ position() int }

// A literal is null, a bool, an int64, a float64 or a string.
type literal struct {
	pos int
	val any
}

type listExpr struct {
	pos   int
	elems []expr
}

type paramExpr struct {
	pos  int
	name string
}

// varExpr names a variable; check sets its slot and kind.
type varExpr struct {
	pos  int
	name string
	slot int
	kind varKind
}

// columnExpr stands, in ORDER BY, for a column of the row being sorted.
type columnExpr struct {
	pos   int
	index int
}

// propExpr is target.key.
type propExpr struct {
	pos    int
	target expr
	key    string
}

// labelExpr is target:Label, true when the node has the label.
type labelExpr struct {
	pos    int
	target expr
	label  graph.Label
}

type unaryOp uint8

const (
	opNot unaryOp = iota
	opIsNull
	opIsNotNull
)

type unaryExpr struct {
	pos int
	op  unaryOp
	x   expr
}

type binaryOp uint8

const (
	opAnd binaryOp = iota
	opOr
	opXor
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opIn
	opStartsWith
	opEndsWith
	opContains
)

var binaryText = [...]string{
	opAnd: "AND", opOr: "OR", opXor: "XOR", opEq: "=", opNe: "<>", opLt: "<",
	opLe: "<=", opGt: ">", opGe: ">=", opIn: "IN", opStartsWith: "STARTS WITH",
	opEndsWith: "ENDS WITH", opContains: "CONTAINS",
}

type binaryExpr struct {
	pos  int
	op   binaryOp
	l, r expr
}

// callExpr is a function call; count(*) has star set.
type callExpr struct {
	pos      int
	fn       *function
	args     []expr
	distinct bool
	star     bool
	agg      int // set by check: the aggregate's index, or -1
}

func (e *literal) position() int    { return e.pos }
func (e *listExpr) position() int   { return e.pos }
func (e *paramExpr) position() int  { return e.pos }
func (e *varExpr) position() int    { return e.pos }
func (e *columnExpr) position() int { return e.pos }
func (e *propExpr) position() int   { return e.pos }
func (e *labelExpr) position() int  { return e.pos }
func (e *unaryExpr) position() int  { return e.pos }
func (e *binaryExpr) position() int { return e.pos }
func (e *callExpr) position() int   { return e.pos }

// format writes e in a canonical form (keywords in upper case, one space
// around operators), so that two spellings of one expression compare
// equal.
func format(e expr) string {
	var sb strings.Builder
	formatTo(&sb, e)
	return sb.String()
}

func formatTo(sb *strings.Builder, e expr) {
	switch e := e.(type) {
	case *literal:
		switch v := e.val.(type) {
		case nil:
			sb.WriteString("null")
		case string:
			sb.WriteString(strconv.Quote(v))
		case bool:
			sb.WriteString(strconv.FormatBool(v))
		case int64:
			sb.WriteString(strconv.FormatInt(v, 10))
		case float64:
			sb.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
	case *listExpr:
		sb.WriteByte('[')
		for i, x := range e.elems {
			if i > 0 {
				sb.WriteString(", ")
			}
			formatTo(sb, x)
		}
		sb.WriteByte(']')
	case *paramExpr:
		sb.WriteString("$" + e.name)
	case *varExpr:
		sb.WriteString(e.name)
	case *columnExpr:
		sb.WriteString("#" + strconv.Itoa(e.index))
	case *propExpr:
		formatTo(sb, e.target)
		sb.WriteString("." + e.key)
	case *labelExpr:
		formatTo(sb, e.target)
		sb.WriteString(":" + string(e.label))
	case *unaryExpr:
		switch e.op {
		case opNot:
			sb.WriteString("NOT (")
			formatTo(sb, e.x)
			sb.WriteByte(')')
		case opIsNull, opIsNotNull:
			sb.WriteByte('(')
			formatTo(sb, e.x)
			sb.WriteString(map[unaryOp]string{opIsNull: ") IS NULL", opIsNotNull: ") IS NOT NULL"}[e.op])
		}
	case *binaryExpr:
		sb.WriteByte('(')
		formatTo(sb, e.l)
		sb.WriteString(" " + binaryText[e.op] + " ")
		formatTo(sb, e.r)
		sb.WriteByte(')')
	case *callExpr:
		sb.WriteString(e.fn.name + "(")
		if e.distinct {
			sb.WriteString("DISTINCT ")
		}
		if e.star {
			sb.WriteByte('*')
		}
		for i, x := range e.args {
			if i > 0 {
				sb.WriteString(", ")
			}
			formatTo(sb, x)
		}
		sb.WriteByte(')')
	}
}
