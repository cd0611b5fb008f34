package knowledge

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/getbourdon/bourdon-go/internal/docgraph/cypher"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Bounds of Related.
const (
	// MaxRelatedDepth is the farthest RelatedQuery.Depth.
	MaxRelatedDepth = 4
	// MaxRelatedLimit is the largest RelatedQuery.Limit.
	MaxRelatedLimit = 500
	// relatedEdgeBudget bounds the edges one Related walk examines.
	relatedEdgeBudget = 200_000
)

// ArgumentError is a query argument outside what the query accepts.
type ArgumentError struct {
	// Arg names the argument; Value is it as sent (quoted when a
	// string); Want says what it may be.
	Arg, Value, Want string
}

func (e *ArgumentError) Error() string { return e.Arg + " " + e.Value + ": use " + e.Want }

// TooLargeError is a neighbourhood that a walk to Depth would take more
// work than Related allows; it wraps graph.ErrBudget.
type TooLargeError struct {
	UID   string
	Depth int
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the neighbourhood of %s is too large to walk to depth %d", e.UID, e.Depth)
}

func (e *TooLargeError) Unwrap() error { return graph.ErrBudget }

// RelatedQuery asks for the typed-edge neighbourhood of a node.
type RelatedQuery struct {
	// EdgeTypes are the edge types to follow, by name; every type when
	// empty.
	EdgeTypes []string
	// Direction is out, in or both.
	Direction string
	// Depth is how many edges away to go, 1 to MaxRelatedDepth.
	Depth int
	// Limit is the most nodes returned, 1 to MaxRelatedLimit.
	Limit int
}

// Related is the neighbourhood of a node.
type Related struct {
	Node *graph.Node
	// Nodes are the visible nodes reached, nearest first (in the order
	// of graph.Neighbourhood).
	Nodes []RelatedNode
	// Truncated says that more nodes were reached than the limit.
	Truncated bool
}

// RelatedNode is a node reached and how it was first reached: by an edge
// of Type between From and it, followed in Dir, Depth edges from the
// start.
type RelatedNode struct {
	Node  *graph.Node
	Type  graph.EdgeType
	Dir   graph.Direction
	From  *graph.Node
	Depth int
}

// Related walks the visible neighbourhood of a node. It fails with an
// *UnknownUIDError, graph.ErrUnknownEdgeType, an *ArgumentError, or a
// *TooLargeError when the walk would examine too many edges.
func (v View) Related(uid string, q RelatedQuery) (*Related, error) {
	id, n, err := v.Find(uid)
	if err != nil {
		return nil, err
	}
	types, err := graph.ParseEdgeTypes(q.EdgeTypes)
	if err != nil {
		return nil, err
	}
	dir, err := graph.ParseDirection(q.Direction)
	if err != nil {
		return nil, &ArgumentError{Arg: "direction", Value: strconv.Quote(q.Direction), Want: "out, in or both"}
	}
	if err := checkRange("depth", q.Depth, MaxRelatedDepth); err != nil {
		return nil, err
	}
	if err := checkRange("limit", q.Limit, MaxRelatedLimit); err != nil {
		return nil, err
	}
	g := v.snap.Graph
	reached, err := graph.NeighbourhoodFunc(g, id, types, dir, q.Depth, relatedEdgeBudget, v.visible)
	if errors.Is(err, graph.ErrBudget) {
		return nil, &TooLargeError{UID: n.UID, Depth: q.Depth}
	}
	if err != nil {
		return nil, err
	}
	out := &Related{Node: n}
	if len(reached) > q.Limit {
		reached, out.Truncated = reached[:q.Limit], true
	}
	for _, r := range reached {
		out.Nodes = append(out.Nodes, RelatedNode{Node: g.Node(r.Node), Type: r.Type, Dir: r.Dir, From: g.Node(r.From), Depth: r.Depth})
	}
	return out, nil
}

// checkRange checks that an argument is 1 to most.
func checkRange(arg string, value, most int) error {
	if value < 1 || value > most {
		return &ArgumentError{Arg: arg, Value: strconv.Itoa(value), Want: "1 to " + strconv.Itoa(most)}
	}
	return nil
}

// Query runs a read-only openCypher query (package cypher) over the
// visible graph, returning at most limit rows (1 to cypher.MaxLimit, an
// *ArgumentError otherwise).
func (v View) Query(ctx context.Context, pattern string, params map[string]any, limit int) (*cypher.Result, error) {
	if err := checkRange("limit", limit, cypher.MaxLimit); err != nil {
		return nil, err
	}
	return cypher.Run(ctx, v.snap.Graph, pattern, params, cypher.Options{Limit: limit, Visible: v.visible})
}
