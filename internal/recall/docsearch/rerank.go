package docsearch

import (
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// The graph rerank: Personalized PageRank (a random walk with restart)
// over the typed edges around the fused candidates, on a local subgraph
// (the candidates, the anchors and their neighbours), restarting at the
// nodes the caller is on (Query.Anchors): a candidate near them gathers
// mass. The mass, divided by its largest value among the candidates,
// scales the fused score: final = fused · (1 + anchorWeight·pa) · boosts.
//
// There is no walk from the results themselves: restarting at the
// candidates in proportion to their scores (and at the query's product)
// changed no top 10 of the prose set's dev split (nDCG@10 0.876 with and
// without it) and cost a walk per query, so it was dropped.
const (
	// restart is the walk's probability of jumping back to the seeds.
	restart = 0.5
	// pprIters power iterations leave an error under (1-restart)^pprIters.
	pprIters = 12
	// hubDegree: the edges of a node with more are not walked from it (a
	// product or role node that thousands of documents point to), only
	// from their other end.
	hubDegree = 256
	// maxLocal bounds the nodes of the local subgraph.
	maxLocal = 4096
	// anchorWeight lets the caller's context decide between otherwise
	// similar candidates: the "Summary" of the module the caller is on
	// before the twenty-nine others. The anchors themselves get no
	// anchor prior (the caller is on them already).
	anchorWeight = 2
)

// edgeWeight gives the propagation weight of an edge type, from its
// source to its target and back. Containment and citation carry most:
// a unit is evidence for its module and a module for its units (less
// so); a cited document is vouched for by the citing one. Shared
// audiences (forRole) are too common to say much; supersededBy passes
// everything forward to the replacement and nothing back.
var edgeWeight = map[graph.EdgeType][2]float64{
	graph.PartOf:        {0.8, 0.5},
	graph.Xref:          {0.5, 0.3},
	graph.DependsOn:     {0.4, 0.2},
	graph.AppliesTo:     {0.3, 0.3},
	graph.TeachesSkill:  {0.4, 0.4},
	graph.ForRole:       {0.05, 0.05},
	graph.SupersededBy:  {1, 0},
	graph.ImplementedBy: {0.3, 0.3},
	graph.DerivedFrom:   {0.2, 0.2},
	graph.GovernedBy:    {0.4, 0.3},
	graph.Certifies:     {0.2, 0.2},
}

// subgraph is the local graph of a rerank: nodes numbered from 0, the
// candidates first, and the walk's moves out of each, normalized.
type subgraph struct {
	local map[graph.NodeID]int32
	moves [][]move
}

// move is one step of the walk.
type move struct {
	to int32
	w  float64
}

// subgraph collects the candidates, the anchors and the neighbours of
// the candidates, and the typed edges between them.
func (ix *Index) subgraph(cs []candidate, anchors []graph.NodeID) *subgraph {
	sg := &subgraph{local: map[graph.NodeID]int32{}}
	var nodes []graph.NodeID
	add := func(id graph.NodeID) {
		if _, ok := sg.local[id]; !ok && len(nodes) < maxLocal {
			sg.local[id] = int32(len(nodes))
			nodes = append(nodes, id)
		}
	}
	for _, c := range cs {
		add(ix.docs.nodes[c.doc])
	}
	for _, a := range anchors {
		add(a)
	}
	for _, c := range cs {
		id := ix.docs.nodes[c.doc]
		if ix.degree(id) > hubDegree {
			continue
		}
		for _, e := range ix.g.Out(id) {
			add(e.Node)
		}
		for _, e := range ix.g.In(id) {
			add(e.Node)
		}
	}
	sg.moves = make([][]move, len(nodes))
	link := func(from, to int32, t graph.EdgeType, w float32) {
		ew := edgeWeight[t]
		if ew[0] > 0 {
			sg.moves[from] = append(sg.moves[from], move{to, ew[0] * float64(w)})
		}
		if ew[1] > 0 {
			sg.moves[to] = append(sg.moves[to], move{from, ew[1] * float64(w)})
		}
	}
	// Every edge is walked from an end that is not a hub: out-edges from
	// the node, in-edges only when they come from a hub.
	for u, id := range nodes {
		if ix.degree(id) > hubDegree {
			continue
		}
		for _, e := range ix.g.Out(id) {
			if v, ok := sg.local[e.Node]; ok {
				link(int32(u), v, e.Type, e.Weight)
			}
		}
		for _, e := range ix.g.In(id) {
			if v, ok := sg.local[e.Node]; ok && ix.degree(e.Node) > hubDegree {
				link(v, int32(u), e.Type, e.Weight)
			}
		}
	}
	for _, ms := range sg.moves {
		var sum float64
		for _, m := range ms {
			sum += m.w
		}
		for i := range ms {
			ms[i].w /= sum
		}
	}
	return sg
}

// pageRank returns the stationary mass of the walk on sg that restarts at
// seed (which sums to 1); the mass of a node without moves goes back to
// the seeds.
func (sg *subgraph) pageRank(seed []float64) []float64 {
	r := append([]float64(nil), seed...)
	next := make([]float64, len(seed))
	for range pprIters {
		var dangling float64
		clear(next)
		for u, ms := range sg.moves {
			if len(ms) == 0 {
				dangling += r[u]
				continue
			}
			for _, m := range ms {
				next[m.to] += r[u] * m.w
			}
		}
		for i := range next {
			next[i] = restart*seed[i] + (1-restart)*(next[i]+dangling*seed[i])
		}
		r, next = next, r
	}
	return r
}

// anchorPriors returns, for each candidate, its PPR mass from the
// anchors' restart divided by its largest value among the candidates
// (nil without anchors).
func (ix *Index) anchorPriors(cs []candidate, anchors []graph.NodeID) []float64 {
	if len(anchors) == 0 {
		return nil
	}
	sg := ix.subgraph(cs, anchors)
	seed := make([]float64, len(sg.moves))
	for _, a := range anchors {
		seed[sg.local[a]] += 1 / float64(len(anchors))
	}
	r := sg.pageRank(seed)
	for _, a := range anchors {
		r[sg.local[a]] = 0
	}
	return candidateShare(r, len(cs))
}

// candidateShare returns the mass of the first n nodes, each divided by
// the largest of them.
func candidateShare(r []float64, n int) []float64 {
	out := r[:n]
	var top float64
	for _, x := range out {
		top = max(top, x)
	}
	if top > 0 {
		for i := range out {
			out[i] /= top
		}
	}
	return out
}

func (ix *Index) degree(id graph.NodeID) int { return len(ix.g.Out(id)) + len(ix.g.In(id)) }
