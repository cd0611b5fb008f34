package cypher

import (
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// A plan turns each MATCH clause into steps. Each pattern starts at its
// most selective node, then walks its relationships rightwards and then
// leftwards from there. Every condition is tested at the first step
// after which all the slots it reads are bound.

// clausePlan is the plan of one MATCH clause.
type clausePlan struct {
	optional bool
	// pre are conditions that read only slots of earlier clauses.
	pre   []expr
	steps []step
	// fresh are the slots the clause binds first; OPTIONAL MATCH sets
	// them to null when nothing matches.
	fresh []int
}

type stepKind uint8

const (
	// stepScan binds a pattern's start node from its source (or, when
	// the node is already bound, checks it).
	stepScan stepKind = iota
	// stepExpand walks a relationship from a bound node to the next.
	stepExpand
)

// source is where a scan takes its candidate nodes.
type source uint8

const (
	srcAll     source = iota // every node, in NodeID order
	srcLabel                 // the nodes of the step's label, in uid order
	srcUID                   // the node whose uid key evaluates to
	srcUIDList               // the nodes whose uids are in the list key evaluates to
)

type step struct {
	kind  stepKind
	slot  int         // the node the step binds (or checks)
	bound bool        // slot was bound earlier: check it instead
	label graph.Label // the label the node must have, or ""
	// A scan's source.
	src source
	key expr
	// An expansion from the node in slot from, along edges of types (any
	// when empty) in direction dir, min to max of them, binding the
	// relationship variable rel (-1 when none). reversed is set when the
	// walk runs right to left in the pattern.
	from     int
	types    []graph.EdgeType
	dir      graph.Direction
	min, max int
	rel      int
	reversed bool
	// filters are the conditions to test once the step has bound its
	// slots.
	filters []expr
}

// planQuery plans q's clauses against g, whose label sizes guide the
// choice of start nodes.
func planQuery(g *graph.Graph, clauses []*matchClause) []clausePlan {
	var plans []clausePlan
	var bound uint64
	for _, m := range clauses {
		before := bound
		cp := clausePlan{optional: m.optional}
		pending := slices.Clone(m.conds)
		// ready moves the pending conditions that bound now covers.
		ready := func() []expr {
			var out []expr
			pending = slices.DeleteFunc(pending, func(c *cond) bool {
				if c.deps&^bound == 0 {
					out = append(out, c.e)
					return true
				}
				return false
			})
			return out
		}
		cp.pre = ready()
		done := make([]bool, len(m.patterns))
		for range m.patterns {
			pi, ni, st := chooseStart(g, m.patterns, done, pending, bound)
			done[pi] = true
			p := m.patterns[pi]
			bound |= 1 << st.slot
			st.filters = ready()
			cp.steps = append(cp.steps, st)
			for j := ni; j < len(p.rels); j++ {
				st := expandStep(p.nodes[j], p.rels[j], p.nodes[j+1], false, bound)
				bound |= 1<<st.slot | relBit(p.rels[j])
				st.filters = ready()
				cp.steps = append(cp.steps, st)
			}
			for j := ni; j > 0; j-- {
				st := expandStep(p.nodes[j], p.rels[j-1], p.nodes[j-1], true, bound)
				bound |= 1<<st.slot | relBit(p.rels[j-1])
				st.filters = ready()
				cp.steps = append(cp.steps, st)
			}
		}
		for s := range maxSlots {
			if (bound&^before)&(1<<s) != 0 {
				cp.fresh = append(cp.fresh, s)
			}
		}
		plans = append(plans, cp)
	}
	return plans
}

func relBit(r *relPattern) uint64 {
	if r.slot < 0 {
		return 0
	}
	return 1 << r.slot
}

func expandStep(from *nodePattern, r *relPattern, to *nodePattern, reversed bool, bound uint64) step {
	dir := r.dir
	if reversed {
		dir = dir.Reverse()
	}
	return step{
		kind: stepExpand, slot: to.slot, bound: bound&(1<<to.slot) != 0, label: to.label,
		from: from.slot, types: r.types, dir: dir, min: r.min, max: r.max, rel: r.slot, reversed: reversed,
	}
}

// chooseStart picks, among the patterns not done, the node to start from:
// the one with the fewest candidates, preferring (in this order) a bound
// node, a uid given by an equality, a uid list given by IN, a label, and
// then any node. Ties go to the earlier pattern and node.
func chooseStart(g *graph.Graph, patterns []*pattern, done []bool, pending []*cond, bound uint64) (int, int, step) {
	var best step
	bi, bn, bestScore := -1, -1, 0
	for pi, p := range patterns {
		if done[pi] {
			continue
		}
		for ni, n := range p.nodes {
			st := step{kind: stepScan, slot: n.slot, label: n.label, rel: -1}
			score := 0
			switch key, src := uidSource(n.slot, pending, bound); {
			case bound&(1<<n.slot) != 0:
				st.bound = true
			case src == srcUID:
				st.src, st.key, score = src, key, 1
			case src == srcUIDList:
				st.src, st.key, score = src, key, 2
			case n.label != "":
				st.src, score = srcLabel, 3+len(g.ByLabel(n.label))
			default:
				st.src, score = srcAll, 4+g.Len()
			}
			if bi < 0 || score < bestScore {
				best, bi, bn, bestScore = st, pi, ni, score
			}
		}
	}
	return bi, bn, best
}

// uidSource finds a pending condition slot.uid = key (or id(slot) = key),
// or else slot.uid IN key, whose key reads only bound slots.
func uidSource(slot int, pending []*cond, bound uint64) (expr, source) {
	var list expr
	for _, c := range pending {
		b, ok := c.e.(*binaryExpr)
		if !ok {
			continue
		}
		switch {
		case b.op == opEq && uidOf(b.l) == slot && deps(b.r)&^bound == 0:
			return b.r, srcUID
		case b.op == opEq && uidOf(b.r) == slot && deps(b.l)&^bound == 0:
			return b.l, srcUID
		case b.op == opIn && list == nil && uidOf(b.l) == slot && deps(b.r)&^bound == 0:
			list = b.r
		}
	}
	if list != nil {
		return list, srcUIDList
	}
	return nil, srcAll
}

// uidOf returns the slot of the node whose uid e is (n.uid or id(n)), or
// -1.
func uidOf(e expr) int {
	var target expr
	switch e := e.(type) {
	case *propExpr:
		if e.key != "uid" {
			return -1
		}
		target = e.target
	case *callExpr:
		if e.fn.name != "id" {
			return -1
		}
		target = e.args[0]
	}
	if v, ok := target.(*varExpr); ok && v.kind == kindNode {
		return v.slot
	}
	return -1
}
