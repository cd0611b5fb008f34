package cypher

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// eval computes an expression over the current bindings.
func (x *executor) eval(e expr) (any, error) {
	switch e := e.(type) {
	case *literal:
		return e.val, nil
	case *paramExpr:
		return x.params[e.name], nil
	case *varExpr:
		return x.variable(e), nil
	case *columnExpr:
		return x.row[e.index], nil
	case *listExpr:
		out := make([]any, len(e.elems))
		for i, el := range e.elems {
			v, err := x.eval(el)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *propExpr:
		return x.property(e)
	case *labelExpr:
		v, err := x.eval(e.target)
		if err != nil || v == nil {
			return nil, err
		}
		n, ok := v.(nodeVal)
		if !ok {
			return nil, x.typeError(e.pos, "a label test takes a node", v)
		}
		return x.g.Node(graph.NodeID(n)).Label == e.label, nil
	case *unaryExpr:
		return x.unary(e)
	case *binaryExpr:
		return x.binary(e)
	case *callExpr:
		if e.agg >= 0 {
			return x.aggs[e.agg], nil
		}
		args := make([]any, len(e.args))
		for i, a := range e.args {
			v, err := x.eval(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		return e.fn.eval(x, e.pos, args)
	}
	panic(fmt.Sprintf("cypher: eval of %T", e))
}

// variable reads a slot as a value.
func (x *executor) variable(e *varExpr) any {
	b := &x.env[e.slot]
	switch {
	case e.kind == kindNode:
		if b.node < 0 {
			return nil
		}
		return nodeVal(b.node)
	case b.null:
		return nil
	case e.kind == kindRel:
		return b.edges[0]
	}
	out := make([]any, len(b.edges))
	for i, r := range b.edges {
		if b.reversed {
			i = len(out) - 1 - i
		}
		out[i] = r
	}
	return out
}

// property reads target.key. A node's uid, contentHash and lastModified
// come from the node itself, its other properties from Props;
// relationships have no properties, so they read as null.
func (x *executor) property(e *propExpr) (any, error) {
	if v, ok := e.target.(*varExpr); ok && v.kind == kindNode {
		id := x.env[v.slot].node
		if id < 0 {
			return nil, nil
		}
		return nodeProperty(x.g.Node(id), e.key), nil
	}
	t, err := x.eval(e.target)
	if err != nil {
		return nil, err
	}
	switch t := t.(type) {
	case nil, edgeRef:
		return nil, nil
	case nodeVal:
		return nodeProperty(x.g.Node(graph.NodeID(t)), e.key), nil
	case map[string]any:
		return t[e.key], nil
	}
	return nil, x.typeError(e.pos, "."+e.key+" reads a property of a node or a map", t)
}

func nodeProperty(n *graph.Node, key string) any {
	switch key {
	case "uid":
		return n.UID
	case "contentHash":
		return n.ContentHash
	case "lastModified":
		if !n.LastModified.IsZero() {
			return n.LastModified.UTC().Format(time.RFC3339)
		}
	}
	return propValue(n.Props[key])
}

func (x *executor) unary(e *unaryExpr) (any, error) {
	v, err := x.eval(e.x)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case opIsNull:
		return v == nil, nil
	case opIsNotNull:
		return v != nil, nil
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case bool:
		return !v, nil
	}
	return nil, x.typeError(e.pos, "NOT takes a boolean", v)
}

func (x *executor) binary(e *binaryExpr) (any, error) {
	switch e.op {
	case opAnd, opOr, opXor:
		return x.logic(e)
	}
	l, err := x.eval(e.l)
	if err != nil {
		return nil, err
	}
	r, err := x.eval(e.r)
	if err != nil {
		return nil, err
	}
	switch e.op {
	case opEq, opNe:
		eq, known := equal(l, r)
		if !known {
			return nil, nil
		}
		return eq == (e.op == opEq), nil
	case opLt, opLe, opGt, opGe:
		c, known := compare(l, r)
		if !known {
			return nil, nil
		}
		switch e.op {
		case opLt:
			return c < 0, nil
		case opLe:
			return c <= 0, nil
		case opGt:
			return c > 0, nil
		}
		return c >= 0, nil
	case opIn:
		return x.in(e, l, r)
	}
	ls, lok := l.(string)
	rs, rok := r.(string)
	if !lok || !rok {
		return nil, nil
	}
	switch e.op {
	case opStartsWith:
		return strings.HasPrefix(ls, rs), nil
	case opEndsWith:
		return strings.HasSuffix(ls, rs), nil
	}
	return strings.Contains(ls, rs), nil
}

// in is x IN list: true if an element equals x, null if none does but
// one compared as null, false otherwise.
func (x *executor) in(e *binaryExpr, v, list any) (any, error) {
	if list == nil {
		return nil, nil
	}
	l, ok := list.([]any)
	if !ok {
		return nil, x.typeError(e.pos, "IN takes a list on its right", list)
	}
	unknown := false
	for _, el := range l {
		eq, known := equal(v, el)
		if eq {
			return true, nil
		}
		unknown = unknown || !known
	}
	if unknown {
		return nil, nil
	}
	return false, nil
}

// logic is AND, OR and XOR in three-valued logic; AND and OR do not
// evaluate their right side when the left decides.
func (x *executor) logic(e *binaryExpr) (any, error) {
	l, err := x.truth(e.l)
	if err != nil {
		return nil, err
	}
	if e.op == opAnd && l == false || e.op == opOr && l == true {
		return l, nil
	}
	r, err := x.truth(e.r)
	if err != nil {
		return nil, err
	}
	switch {
	case e.op == opXor && (l == nil || r == nil):
		return nil, nil
	case e.op == opXor:
		return l != r, nil
	case r == nil || l == nil:
		// AND with the left true or null, OR with it false or null.
		if e.op == opAnd && r == false || e.op == opOr && r == true {
			return r, nil
		}
		return nil, nil
	}
	return r, nil
}

// truth evaluates a boolean operand: true, false or nil.
func (x *executor) truth(e expr) (any, error) {
	v, err := x.eval(e)
	if err != nil {
		return nil, err
	}
	switch v.(type) {
	case nil, bool:
		return v, nil
	}
	return nil, x.typeError(e.position(), "AND, OR and XOR take booleans", v)
}

// typeError reports a value of the wrong type met at run time.
func (x *executor) typeError(pos int, want string, got any) error {
	return errorAt(x.src, KindType, pos, "", "%s, not %s", want, describeValue(got))
}

// describeValue names the type of a value for messages.
func describeValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case string:
		return fmt.Sprintf("the string %q", v)
	case []any:
		if slices.ContainsFunc(v, func(e any) bool { _, ok := e.(edgeRef); return ok }) {
			return "a list of relationships"
		}
		return "a list"
	case map[string]any:
		return "a map"
	case nodeVal:
		return "a node"
	case edgeRef:
		return "a relationship"
	}
	return fmt.Sprintf("%T", v)
}
