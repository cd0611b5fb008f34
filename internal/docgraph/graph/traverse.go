package graph

import (
	"errors"
	"fmt"
	"slices"
)

// Direction says which way a traversal follows edges.
type Direction uint8

// The directions. The zero Direction is invalid.
const (
	// Outgoing follows an edge from its source to its target.
	Outgoing Direction = iota + 1
	// Incoming follows an edge from its target back to its source.
	Incoming
	// Both follows an edge either way.
	Both
)

// ParseDirection reads "out", "in" or "both".
func ParseDirection(s string) (Direction, error) {
	switch s {
	case "out":
		return Outgoing, nil
	case "in":
		return Incoming, nil
	case "both":
		return Both, nil
	}
	return 0, fmt.Errorf("direction %q: want out, in or both", s)
}

// String returns "out", "in" or "both".
func (d Direction) String() string {
	switch d {
	case Outgoing:
		return "out"
	case Incoming:
		return "in"
	case Both:
		return "both"
	}
	return fmt.Sprintf("Direction(%d)", uint8(d))
}

// Reverse returns the direction seen from the other end of an edge:
// Outgoing and Incoming swap, Both stays.
func (d Direction) Reverse() Direction {
	switch d {
	case Outgoing:
		return Incoming
	case Incoming:
		return Outgoing
	}
	return d
}

// Reached is one node a traversal reached, with the edge it was first
// reached by.
type Reached struct {
	Node NodeID
	// Depth is the number of edges between the start and Node (1 or more).
	Depth int
	// From is the node, one step nearer the start, that the edge joins to
	// Node.
	From   NodeID
	Type   EdgeType
	Weight float32
	// Dir is Outgoing when the edge points from From to Node and Incoming
	// when it points from Node to From.
	Dir Direction
}

// ErrBudget is the error Neighbourhood returns, wrapped, when it would
// examine more edges than its budget allows.
var ErrBudget = errors.New("traversal budget exhausted")

// NeighbourhoodFunc walks breadth-first from start, following only edges of
// the given types (every type when types is empty) in direction dir, to at
// most maxDepth edges away. It returns each node reached once, at its
// shortest depth and with the first edge that reached it, in breadth-first
// order: by depth; within a depth, in the order of the nodes they were
// reached from, outgoing edges before incoming ones, then in adjacency
// order (by the other end's NodeID, then edge type). The start node is not
// among them.
//
// budget bounds the number of edges examined, whatever their type; a walk
// that needs more returns an error wrapping ErrBudget and no nodes. A budget
// of zero or less means no bound.
//
// Only the nodes for which visible returns true are reached: the others
// are neither reached nor walked through, as if they and their edges were
// not in the graph (their edges still count against the budget). A start that is not visible is an error, like one
// that does not exist. A nil visible sees every node.
func NeighbourhoodFunc(g *Graph, start NodeID, types []EdgeType, dir Direction, maxDepth, budget int, visible func(NodeID) bool) ([]Reached, error) {
	if start < 0 || int(start) >= g.Len() || visible != nil && !visible(start) {
		return nil, fmt.Errorf("neighbourhood: no node %d", start)
	}
	if dir < Outgoing || dir > Both {
		return nil, fmt.Errorf("neighbourhood: invalid direction %d", dir)
	}
	seen := map[NodeID]struct{}{start: {}}
	var out []Reached
	frontier := []NodeID{start}
	examined := 0
	for depth := 1; depth <= maxDepth && len(frontier) > 0; depth++ {
		var next []NodeID
		for _, from := range frontier {
			for _, side := range [2]Direction{Outgoing, Incoming} {
				if dir != Both && dir != side {
					continue
				}
				adj := g.Out(from)
				if side == Incoming {
					adj = g.In(from)
				}
				for _, a := range adj {
					examined++
					if budget > 0 && examined > budget {
						return nil, fmt.Errorf("neighbourhood of %s to depth %d: %w after %d edges", g.Node(start).UID, maxDepth, ErrBudget, budget)
					}
					if len(types) > 0 && !slices.Contains(types, a.Type) {
						continue
					}
					if _, ok := seen[a.Node]; ok {
						continue
					}
					if visible != nil && !visible(a.Node) {
						continue
					}
					seen[a.Node] = struct{}{}
					out = append(out, Reached{Node: a.Node, Depth: depth, From: from, Type: a.Type, Weight: a.Weight, Dir: side})
					next = append(next, a.Node)
				}
			}
		}
		frontier = next
	}
	return out, nil
}
