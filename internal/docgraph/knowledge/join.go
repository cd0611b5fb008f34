package knowledge

import (
	"log/slog"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/requests"
)

// join builds the graph of the corpus docs and the memory of agents, with
// the access table of its nodes. The corpus's nodes keep their NodeIDs
// (they are added first, in order); byKey finds the corpus nodes an
// entity's keys name. A memory node whose uid the corpus already has is
// left out, with a warning.
func join(docs *graph.Graph, byKey map[string][]graph.NodeID, agents []*agentMemory, reqs []*requests.Request, log *slog.Logger) (*graph.Graph, access, error) {
	size := docs.Len()
	for _, am := range agents {
		size += 1 + len(am.entities)
	}
	acc := access{level: make([]visibility.Level, 0, size), agent: make([]int32, 0, size), agents: make([]string, 0, len(agents))}
	b := graph.NewBuilder()
	b.SetMonikers(docs.Monikers())
	for id := range graph.NodeID(docs.Len()) {
		n := docs.Node(id)
		if _, err := b.AddNode(*n); err != nil {
			return nil, access{}, err
		}
		level := visibility.Public
		if n.Str("visibility") == "internal" {
			level = visibility.Team
		}
		acc.level = append(acc.level, level)
		acc.agent = append(acc.agent, -1)
	}
	for id := range graph.NodeID(docs.Len()) {
		from := docs.Node(id).UID
		for _, a := range docs.Out(id) {
			if err := b.AddEdge(from, docs.Node(a.Node).UID, a.Type, a.Weight); err != nil {
				return nil, access{}, err
			}
		}
	}
	// add adds a memory node of agent number ai.
	add := func(n *graph.Node, ai int32) bool {
		if b.Has(n.UID) {
			log.Warn("memory node left out: the corpus has its uid", "uid", n.UID)
			return false
		}
		if _, err := b.AddNode(*n); err != nil {
			log.Warn("memory node left out", "uid", n.UID, "err", err)
			return false
		}
		level, ok := visibility.Parse(n.Str("visibility"))
		if !ok {
			level = visibility.Private
		}
		acc.level = append(acc.level, level)
		acc.agent = append(acc.agent, ai)
		return true
	}
	for _, am := range agents {
		ai := int32(len(acc.agents))
		acc.agents = append(acc.agents, am.id)
		if !add(&am.agent, ai) {
			continue
		}
		for i := range am.entities {
			e := &am.entities[i]
			if !add(e, ai) {
				continue
			}
			if err := b.AddEdge(e.UID, am.agent.UID, graph.DerivedFrom, 0); err != nil {
				return nil, access{}, err
			}
			for _, k := range am.keys[i] {
				for _, d := range byKey[k] {
					if err := b.AddEdge(e.UID, docs.Node(d).UID, graph.Xref, 0); err != nil {
						return nil, access{}, err
					}
				}
			}
		}
	}
	areas := map[string]int32{}
	for _, r := range reqs {
		n := requestNode(r)
		ai, ok := areas[r.Area]
		if !ok {
			ai = int32(len(acc.agents))
			areas[r.Area] = ai
			acc.agents = append(acc.agents, r.Area)
		}
		if !add(&n, ai) {
			continue
		}
		for _, uid := range requestTargets(r) {
			if b.Has(uid) && uid != n.UID {
				if err := b.AddEdge(n.UID, uid, graph.Xref, 0); err != nil {
					return nil, access{}, err
				}
			}
		}
	}
	return b.Build(), acc, nil
}
