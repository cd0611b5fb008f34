// Package graphgen generates deterministic property graphs over the closed
// vocabulary, for benchmarks and tests that need a graph of a given size.
//
// Generate(n, m, seed) always returns the same graph for the same
// arguments. Nodes get the vocabulary's labels in plausible proportions
// (many documents, units and memory entities; few organisations), uids
// of the form cogitave.<label>.<i>, and the properties title, products and
// level. Edges respect the From and To labels the vocabulary documents for
// each type (xref joins any two nodes), and their targets are skewed
// towards a few popular nodes per label, as citations and dependencies are
// in a real corpus.
package graphgen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// labelWeights gives each label's share of the nodes, in thousandths.
var labelWeights = map[graph.Label]int{
	graph.Doc: 180, graph.Unit: 140, graph.Entity: 120, graph.Service: 80,
	graph.Module: 60, graph.Skill: 50, graph.CodeSample: 50, graph.Repo: 40,
	graph.Person: 40, graph.Standard: 30, graph.Article: 30, graph.Request: 30,
	graph.ADR: 20, graph.Decision: 20, graph.Achievement: 20, graph.Pattern: 20,
	graph.InfraResource: 20, graph.LearningPath: 10, graph.Product: 10,
	graph.Team: 10, graph.Role: 5, graph.Agent: 5, graph.Org: 1,
}

// edgeWeights gives each edge type's share of the edges, in hundredths.
var edgeWeights = map[graph.EdgeType]int{
	graph.Xref: 35, graph.PartOf: 15, graph.DependsOn: 15, graph.AppliesTo: 6,
	graph.ForRole: 6, graph.TeachesSkill: 6, graph.DerivedFrom: 5,
	graph.ImplementedBy: 4, graph.SupersededBy: 3, graph.GovernedBy: 3,
	graph.Certifies: 2,
}

var (
	words    = strings.Fields("configure deploy kestrel lumen quartz willow signal ledger harbour beacon query schema graph index module service policy runtime agent memory review release cache token")
	products = []string{"yuva", "namzu", "core", "learn"}
	levels   = []string{"beginner", "intermediate", "advanced"}
)

// Generate returns a graph of n nodes and exactly m distinct edges (no
// self-loops), determined by seed. When n is at least the number of
// labels, every label has a node. It fails when m edges cannot be placed
// among n nodes.
func Generate(n, m int, seed uint64) (*graph.Graph, error) {
	if n < 1 || m < 0 {
		return nil, fmt.Errorf("graphgen: need at least one node and no negative edge count (n=%d, m=%d)", n, m)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := graph.NewBuilder()
	byLabel := map[graph.Label][]graph.NodeID{}
	uids := make([]string, 0, n)
	specs := graph.Labels()
	pickLabel := weighted(specs, func(s graph.LabelSpec) int { return labelWeights[s.Label] })
	for i := range n {
		label := specs[i%len(specs)].Label
		if i >= len(specs) {
			label = pickLabel(rng).Label
		}
		id, err := b.AddNode(node(rng, label, i))
		if err != nil {
			return nil, err
		}
		byLabel[label] = append(byLabel[label], id)
		uids = append(uids, UID(label, i))
	}
	if m > 0 {
		if err := addEdges(b, rng, m, uids, byLabel); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}

// UID returns the uid Generate gives the i-th node, whose label is label.
func UID(label graph.Label, i int) string {
	return "cogitave." + strings.ToLower(string(label)) + "." + strconv.Itoa(i)
}

func node(rng *rand.Rand, label graph.Label, i int) graph.Node {
	title := make([]string, 2+rng.IntN(3))
	for j := range title {
		title[j] = words[rng.IntN(len(words))]
	}
	prods := []any{products[rng.IntN(len(products))]}
	if rng.IntN(4) == 0 {
		prods = append(prods, products[rng.IntN(len(products))])
	}
	return graph.Node{
		UID:   UID(label, i),
		Label: label,
		Props: map[string]any{
			"title":    strings.Join(title, " "),
			"products": prods,
			"level":    levels[rng.IntN(len(levels))],
		},
	}
}

type edgeKey struct {
	from, to graph.NodeID
	typ      graph.EdgeType
}

// addEdges places m distinct edges. Each picks a type by weight, a source
// uniformly among the nodes of the type's From labels and a target,
// skewed towards the first nodes, among those of its To labels; a
// duplicate or a self-loop is drawn again, a bounded number of times.
func addEdges(b *graph.Builder, rng *rand.Rand, m int, uids []string, byLabel map[graph.Label][]graph.NodeID) error {
	type ends struct{ from, to []graph.NodeID }
	var types []graph.EdgeSpec
	pools := map[graph.EdgeType]ends{}
	for _, e := range graph.Edges() {
		p := ends{pool(e.From, byLabel), pool(e.To, byLabel)}
		if len(p.from) > 0 && len(p.to) > 0 {
			types = append(types, e)
			pools[e.Type] = p
		}
	}
	pickType := weighted(types, func(e graph.EdgeSpec) int { return edgeWeights[e.Type] })
	seen := make(map[edgeKey]struct{}, m)
	for tries := 0; len(seen) < m; tries++ {
		if tries > 20*m+1000 {
			return fmt.Errorf("graphgen: could not place %d distinct edges among %d nodes (placed %d)", m, len(uids), len(seen))
		}
		t := pickType(rng).Type
		p := pools[t]
		from := p.from[rng.IntN(len(p.from))]
		r := rng.Float64()
		to := p.to[int(r*r*float64(len(p.to)))]
		k := edgeKey{from, to, t}
		if _, dup := seen[k]; dup || from == to {
			continue
		}
		seen[k] = struct{}{}
		if err := b.AddEdge(uids[from], uids[to], t, 0); err != nil {
			return err
		}
	}
	return nil
}

// pool returns the nodes of the labels, or every node when labels is
// empty, in id order.
func pool(labels []graph.Label, byLabel map[graph.Label][]graph.NodeID) []graph.NodeID {
	if len(labels) == 0 {
		labels = make([]graph.Label, 0, len(byLabel))
		for _, s := range graph.Labels() {
			labels = append(labels, s.Label)
		}
	}
	var ids []graph.NodeID
	for _, l := range labels {
		ids = append(ids, byLabel[l]...)
	}
	slices.Sort(ids)
	return ids
}

// weighted returns a function that picks one of items with a probability
// proportional to its weight. Items must have a positive total weight.
func weighted[T any](items []T, weight func(T) int) func(*rand.Rand) T {
	cum := make([]int, len(items))
	total := 0
	for i, it := range items {
		total += weight(it)
		cum[i] = total
	}
	return func(rng *rand.Rand) T {
		x := rng.IntN(total)
		i, _ := slices.BinarySearch(cum, x+1)
		return items[i]
	}
}
