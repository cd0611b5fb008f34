package knowledge

import (
	"context"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

// embedDim is the dimension of the offline embedder.
const embedDim = 128

// corpus is the documentation half of the base, kept until a file under
// its roots changes.
type corpus struct {
	graph    *graph.Graph
	index    *docsearch.Index
	problems []docs.Problem
	// stamp is the fingerprint of the roots taken before they were read.
	stamp uint64
	// byKey finds the nodes whose uid or title has a federation.Key, for
	// the xref edges of entities.
	byKey map[string][]graph.NodeID
}

// loadCorpus loads the roots (none gives an empty graph), indexes them
// with emb (nil: the offline embedder trained on them) and records the
// fingerprint stamp they were read at.
func loadCorpus(ctx context.Context, dirs []string, emb embed.Embedder, stamp uint64) (*corpus, error) {
	c := &corpus{graph: graph.NewBuilder().Build(), stamp: stamp, byKey: map[string][]graph.NodeID{}}
	if len(dirs) > 0 {
		loaded, err := docs.Load(dirs...)
		if err != nil {
			return nil, err
		}
		c.graph, c.problems = loaded.Graph, loaded.Problems
	}
	var opts docsearch.Options
	if d := wordnet.Default(); d != nil {
		opts.Dictionary = d
	}
	if emb == nil {
		m := docsearch.TrainEmbedder(c.graph, embedDim)
		if opts.Dictionary != nil {
			m = m.WithDictionary(opts.Dictionary)
		}
		emb = m
	}
	ix, err := docsearch.Build(ctx, c.graph, emb, opts)
	if err != nil {
		return nil, err
	}
	c.index = ix
	for id := range graph.NodeID(c.graph.Len()) {
		n := c.graph.Node(id)
		for _, k := range []string{federation.Key(n.UID), federation.Key(n.Title())} {
			if ids := c.byKey[k]; k != "" && (len(ids) == 0 || ids[len(ids)-1] != id) {
				c.byKey[k] = append(ids, id)
			}
		}
	}
	return c, nil
}
