// Package graph is the labelled property graph that the documentation
// corpus and the memory federation share: nodes with a label and
// properties from a closed vocabulary (vocabulary.go), typed edges between
// them, and the monikers that version content.
//
// A Graph is immutable once built, so any number of readers may walk it
// while a new one is built beside it. Nodes are numbered 0..Len()-1 and
// adjacency is stored compactly per node in both directions, which is what
// traversal, query and ranking code iterate over.
package graph

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// NodeID numbers a node within one Graph. It is not stable across
// rebuilds; the uid is.
type NodeID int32

// Node is one node of the graph.
type Node struct {
	// UID is the node's stable, globally unique identifier.
	UID   string
	Label Label
	// Props are the node's properties: JSON values (string, float64,
	// bool, nil, []any, map[string]any). They include title and the
	// label's other required attributes.
	Props map[string]any
	// Content is the node's body (markdown for documents), if any.
	Content string
	// ContentHash is the SHA-256 (hex) of the node's canonical payload:
	// uid, label, properties and content. Embeddings are never part of it.
	ContentHash string
	// LastModified is when the node's source last changed.
	LastModified time.Time
	// Source is where the node came from (a file path, or an agent id).
	Source string
}

// Title returns the node's title property, or its uid when it has none.
func (n *Node) Title() string {
	if s, ok := n.Props["title"].(string); ok && s != "" {
		return s
	}
	return n.UID
}

// Str returns the string property key, or "".
func (n *Node) Str(key string) string {
	s, _ := n.Props[key].(string)
	return s
}

// Strings returns the string-list property key ([]any of strings or a
// []string); a single string becomes a one-element list.
func (n *Node) Strings(key string) []string {
	switch v := n.Props[key].(type) {
	case string:
		return []string{v}
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// ContentHash computes the hash of a node's canonical payload: the JSON of
// uid, label, properties (keys sorted, as encoding/json writes maps) and
// content.
func ContentHash(n *Node) string {
	b, err := json.Marshal(struct {
		UID     string         `json:"uid"`
		Label   Label          `json:"label"`
		Props   map[string]any `json:"props"`
		Content string         `json:"content"`
	}{n.UID, n.Label, n.Props, n.Content})
	if err != nil {
		// Props hold only JSON values; anything else is a programming error.
		panic(fmt.Sprintf("graph: node %s: %v", n.UID, err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Moniker is a version label of a product.
type Moniker struct {
	Name    string `json:"name"`
	Product string `json:"product"`
	Order   int    `json:"order"`
	// Status is stable or deprecated; a moniker is retired, never deleted.
	Status  string `json:"status"`
	Default bool   `json:"default,omitempty"`
}

// Adj is one edge seen from one of its ends: the node at the other end,
// the edge type and its weight.
type Adj struct {
	Node   NodeID
	Type   EdgeType
	Weight float32
}

// Graph is an immutable labelled property graph.
type Graph struct {
	nodes    []Node
	byUID    map[string]NodeID
	byLabel  map[Label][]NodeID
	out, in  adjacency
	monikers []Moniker
	edges    int
}

// adjacency is compressed sparse rows: the edges of node i are
// adj[start[i]:start[i+1]].
type adjacency struct {
	start []int32
	adj   []Adj
}

func (a *adjacency) of(id NodeID) []Adj { return a.adj[a.start[id]:a.start[id+1]] }

// Len returns the number of nodes.
func (g *Graph) Len() int { return len(g.nodes) }

// EdgeCount returns the number of edges.
func (g *Graph) EdgeCount() int { return g.edges }

// Node returns node id. The Node must not be modified.
func (g *Graph) Node(id NodeID) *Node { return &g.nodes[id] }

// Lookup returns the node with the uid.
func (g *Graph) Lookup(uid string) (NodeID, bool) {
	id, ok := g.byUID[uid]
	return id, ok
}

// ByLabel returns the nodes with the label, in uid order. The slice must
// not be modified.
func (g *Graph) ByLabel(l Label) []NodeID { return g.byLabel[l] }

// Out returns the edges leaving id. The slice must not be modified.
func (g *Graph) Out(id NodeID) []Adj { return g.out.of(id) }

// In returns the edges arriving at id, each with the node it leaves. The
// slice must not be modified.
func (g *Graph) In(id NodeID) []Adj { return g.in.of(id) }

// Monikers returns the moniker registry.
func (g *Graph) Monikers() []Moniker { return slices.Clone(g.monikers) }

// Builder collects nodes and edges and builds a Graph.
type Builder struct {
	nodes    []Node
	byUID    map[string]NodeID
	edges    []edge
	monikers []Moniker
}

type edge struct {
	from, to NodeID
	typ      EdgeType
	weight   float32
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{byUID: map[string]NodeID{}} }

// AddNode adds a node. Its label must be in the vocabulary and its uid
// new; its ContentHash is computed when empty.
func (b *Builder) AddNode(n Node) (NodeID, error) {
	if n.UID == "" {
		return 0, fmt.Errorf("node without a uid (label %s)", n.Label)
	}
	if _, ok := LookupLabel(string(n.Label)); !ok || n.Label == "" {
		return 0, fmt.Errorf("node %s: label %q is not in the vocabulary", n.UID, n.Label)
	}
	if _, dup := b.byUID[n.UID]; dup {
		return 0, fmt.Errorf("node %s: uid already used", n.UID)
	}
	if n.Props == nil {
		n.Props = map[string]any{}
	}
	if n.ContentHash == "" {
		n.ContentHash = ContentHash(&n)
	}
	id := NodeID(len(b.nodes))
	b.nodes = append(b.nodes, n)
	b.byUID[n.UID] = id
	return id, nil
}

// Has reports whether a node with the uid was added.
func (b *Builder) Has(uid string) bool {
	_, ok := b.byUID[uid]
	return ok
}

// AddEdge adds a typed edge between two added nodes. A weight of zero
// means 1. Adding the same edge twice keeps one.
func (b *Builder) AddEdge(from, to string, t EdgeType, weight float32) error {
	if edgeIndex(t) < 0 {
		return fmt.Errorf("edge %s -> %s: type %q is not in the vocabulary", from, to, t)
	}
	f, ok := b.byUID[from]
	if !ok {
		return fmt.Errorf("edge %s -[%s]-> %s: no node %s", from, t, to, from)
	}
	d, ok := b.byUID[to]
	if !ok {
		return fmt.Errorf("edge %s -[%s]-> %s: no node %s", from, t, to, to)
	}
	if weight == 0 {
		weight = 1
	}
	b.edges = append(b.edges, edge{f, d, t, weight})
	return nil
}

// SetMonikers sets the moniker registry.
func (b *Builder) SetMonikers(m []Moniker) { b.monikers = slices.Clone(m) }

// Build returns the graph. The builder must not be used afterwards.
func (b *Builder) Build() *Graph {
	slices.SortFunc(b.edges, func(x, y edge) int {
		if c := int(x.from) - int(y.from); c != 0 {
			return c
		}
		if c := int(x.to) - int(y.to); c != 0 {
			return c
		}
		return edgeIndex(x.typ) - edgeIndex(y.typ)
	})
	b.edges = slices.CompactFunc(b.edges, func(x, y edge) bool { return x.from == y.from && x.to == y.to && x.typ == y.typ })
	g := &Graph{nodes: b.nodes, byUID: b.byUID, byLabel: map[Label][]NodeID{}, monikers: b.monikers, edges: len(b.edges)}
	for i := range g.nodes {
		l := g.nodes[i].Label
		g.byLabel[l] = append(g.byLabel[l], NodeID(i))
	}
	for _, ids := range g.byLabel {
		slices.SortFunc(ids, func(x, y NodeID) int { return compareStrings(g.nodes[x].UID, g.nodes[y].UID) })
	}
	g.out = compress(len(g.nodes), b.edges, func(e edge) (NodeID, Adj) { return e.from, Adj{e.to, e.typ, e.weight} })
	g.in = compress(len(g.nodes), b.edges, func(e edge) (NodeID, Adj) { return e.to, Adj{e.from, e.typ, e.weight} })
	return g
}

func compress(n int, edges []edge, end func(edge) (NodeID, Adj)) adjacency {
	a := adjacency{start: make([]int32, n+1), adj: make([]Adj, len(edges))}
	for _, e := range edges {
		id, _ := end(e)
		a.start[id+1]++
	}
	for i := 1; i <= n; i++ {
		a.start[i] += a.start[i-1]
	}
	next := slices.Clone(a.start[:n])
	for _, e := range edges {
		id, adj := end(e)
		a.adj[next[id]] = adj
		next[id]++
	}
	return a
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
