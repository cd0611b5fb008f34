package cypher

import (
	"context"
	"errors"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// binding is what a slot holds while matching. A node slot holds node
// (-1 for null); a relationship slot holds its edges in the order they
// were walked (one for a single relationship), and reversed when that
// order runs right to left in the pattern.
type binding struct {
	node     graph.NodeID
	edges    []edgeRef
	reversed bool
	null     bool
}

var nullBinding = binding{node: -1, null: true}

// errStop ends matching once the projector has all the rows it needs.
var errStop = errors.New("enough rows")

// checkEvery is how many expansions pass between two looks at the
// context.
const checkEvery = 1024

// executor runs one query over one graph: a backtracking matcher that
// binds slots step by step and hands each complete match to the
// projector.
type executor struct {
	ctx    context.Context
	src    string
	g      *graph.Graph
	params map[string]any
	plans  []clausePlan
	env    []binding
	// used holds the relationships of the current match, which a clause
	// may not use twice; bases[i] is where clause i's begin.
	used   []edgeRef
	bases  []int
	hits   []int // matches completed per clause, for OPTIONAL MATCH
	budget int
	// output is the output budget, in bytes of the result's JSON.
	output   int
	expanded int
	// visible hides nodes from the run (Options.Visible); nil hides none.
	// hidden counts the expansions that met a hidden node: they count
	// against the budget, but are left out of what the run reports, which
	// would otherwise tell how much the caller may not see.
	visible func(graph.NodeID) bool
	hidden  int
	proj    *projector
	// row is the projected row that columnExprs read; aggs the aggregate
	// results callExprs with agg >= 0 read.
	row  []any
	aggs []any
}

// match runs the clauses from ci on.
func (x *executor) match(ci int) error {
	if ci == len(x.plans) {
		return x.proj.add(x)
	}
	cp := &x.plans[ci]
	x.bases[ci] = len(x.used)
	hits := x.hits[ci]
	if ok, err := x.test(cp.pre); err != nil {
		return err
	} else if ok {
		if err := x.step(ci, 0); err != nil {
			return err
		}
	}
	if !cp.optional || x.hits[ci] != hits {
		return nil
	}
	for _, s := range cp.fresh {
		x.env[s] = nullBinding
	}
	return x.match(ci + 1)
}

// step runs step si of clause ci, and the rest after it.
func (x *executor) step(ci, si int) error {
	cp := &x.plans[ci]
	if si == len(cp.steps) {
		x.hits[ci]++
		return x.match(ci + 1)
	}
	st := &cp.steps[si]
	if st.kind == stepExpand {
		from := x.env[st.from].node
		if from < 0 {
			return nil
		}
		return x.walk(ci, si, st, from, len(x.used), 0)
	}
	if st.bound {
		id := x.env[st.slot].node
		if id < 0 || st.label != "" && x.g.Node(id).Label != st.label {
			return nil
		}
		return x.next(ci, si, st)
	}
	switch st.src {
	case srcUID:
		v, err := x.eval(st.key)
		if err != nil {
			return err
		}
		if uid, ok := v.(string); ok {
			if id, ok := x.g.Lookup(uid); ok {
				return x.visit(ci, si, st, id)
			}
		}
	case srcUIDList:
		ids, err := x.uidList(st.key)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if err := x.visit(ci, si, st, id); err != nil {
				return err
			}
		}
	case srcLabel:
		for _, id := range x.g.ByLabel(st.label) {
			if err := x.visit(ci, si, st, id); err != nil {
				return err
			}
		}
	case srcAll:
		for id := range graph.NodeID(x.g.Len()) {
			if err := x.visit(ci, si, st, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// uidList evaluates the list of an IN and returns the nodes of its
// uids, in NodeID order, each once.
func (x *executor) uidList(e expr) ([]graph.NodeID, error) {
	v, err := x.eval(e)
	if err != nil || v == nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, x.typeError(e.position(), "IN takes a list on its right", v)
	}
	var ids []graph.NodeID
	for _, u := range list {
		if uid, ok := u.(string); ok {
			if id, ok := x.g.Lookup(uid); ok {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// visit binds a scanned candidate.
func (x *executor) visit(ci, si int, st *step, id graph.NodeID) error {
	if err := x.tick(); err != nil {
		return err
	}
	if !x.sees(id) || st.label != "" && x.g.Node(id).Label != st.label {
		return nil
	}
	x.env[st.slot] = binding{node: id}
	return x.next(ci, si, st)
}

// sees reports whether the run may see node id, counting the expansion
// that met it as hidden when it may not.
func (x *executor) sees(id graph.NodeID) bool {
	if x.visible == nil || x.visible(id) {
		return true
	}
	x.hidden++
	return false
}

// shown is the number of expansions the run reports: those that met no
// hidden node.
func (x *executor) shown() int { return x.expanded - x.hidden }

// next tests the step's filters and goes on to the next step.
func (x *executor) next(ci, si int, st *step) error {
	if ok, err := x.test(st.filters); !ok || err != nil {
		return err
	}
	return x.step(ci, si+1)
}

// walk is a depth-first walk of an expansion: at each depth from min to
// max the node reached is a match; relationships already in the clause's
// match are not walked again.
func (x *executor) walk(ci, si int, st *step, cur graph.NodeID, start, depth int) error {
	if depth >= st.min {
		if err := x.arrive(ci, si, st, cur, start); err != nil {
			return err
		}
	}
	if depth == st.max {
		return nil
	}
	if st.dir != graph.Incoming {
		for _, a := range x.g.Out(cur) {
			if err := x.follow(ci, si, st, edgeRef{cur, a.Node, a.Type}, a.Node, start, depth); err != nil {
				return err
			}
		}
	}
	if st.dir != graph.Outgoing {
		for _, a := range x.g.In(cur) {
			if st.dir == graph.Both && a.Node == cur {
				continue // a self-loop, walked already as an outgoing edge
			}
			if err := x.follow(ci, si, st, edgeRef{a.Node, cur, a.Type}, a.Node, start, depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// follow walks one edge, if its type fits and the clause has not used it.
func (x *executor) follow(ci, si int, st *step, e edgeRef, to graph.NodeID, start, depth int) error {
	if err := x.tick(); err != nil {
		return err
	}
	if !x.sees(to) || len(st.types) > 0 && !slices.Contains(st.types, e.typ) || slices.Contains(x.used[x.bases[ci]:], e) {
		return nil
	}
	x.used = append(x.used, e)
	err := x.walk(ci, si, st, to, start, depth+1)
	x.used = x.used[:len(x.used)-1]
	return err
}

// arrive binds (or checks) the node an expansion reached and its
// relationship variable, then goes on.
func (x *executor) arrive(ci, si int, st *step, id graph.NodeID, start int) error {
	if st.bound {
		if x.env[st.slot].node != id {
			return nil
		}
	}
	if st.label != "" && x.g.Node(id).Label != st.label {
		return nil
	}
	x.env[st.slot] = binding{node: id}
	if st.rel >= 0 {
		end := len(x.used)
		x.env[st.rel] = binding{node: -1, edges: x.used[start:end:end], reversed: st.reversed}
	}
	return x.next(ci, si, st)
}

// tick counts one expansion, failing past the budget, and looks at the
// context every checkEvery expansions.
func (x *executor) tick() error {
	x.expanded++
	if x.expanded > x.budget {
		return &Error{Kind: KindBudget, Msg: budgetMsg(x.budget), Hint: narrowHint}
	}
	if x.expanded%checkEvery == 0 {
		return x.alive()
	}
	return nil
}

// alive reports the context's end as a timeout error.
func (x *executor) alive() error {
	if err := x.ctx.Err(); err != nil {
		return timeoutError(err, x.shown())
	}
	return nil
}

// test reports whether every condition is true (null and false fail).
func (x *executor) test(conds []expr) (bool, error) {
	for _, c := range conds {
		v, err := x.eval(c)
		if err != nil {
			return false, err
		}
		switch v {
		case true:
			continue
		case false, nil:
			return false, nil
		}
		return false, x.typeError(c.position(), "a WHERE condition must be true, false or null", v)
	}
	return true, nil
}
