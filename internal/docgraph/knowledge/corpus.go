package knowledge

import (
	"context"
	"log/slog"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
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

// loadCorpus loads the roots of opts (none gives an empty graph), indexes
// them with its embedder (nil: the offline embedder trained on them, or
// read from its cache) and records the fingerprint stamp they were read
// at.
func loadCorpus(ctx context.Context, opts Options, stamp uint64, log *slog.Logger) (*corpus, error) {
	c := &corpus{graph: graph.NewBuilder().Build(), stamp: stamp, byKey: map[string][]graph.NodeID{}}
	if len(opts.Dirs) > 0 {
		loaded, err := docs.Load(opts.Dirs...)
		if err != nil {
			return nil, err
		}
		c.graph, c.problems = loaded.Graph, loaded.Problems
	}
	ixOpts := docsearch.Options{Dictionary: opts.Dictionary}
	emb := opts.Embedder
	if emb == nil {
		m := docsearch.TrainEmbedder
		if opts.EmbedderCache != "" {
			m = func(g *graph.Graph, dim int) *embed.Model {
				model, err := docsearch.CachedEmbedder(g, dim, opts.EmbedderCache)
				if err != nil {
					log.Warn("the offline embedder is not cached", "err", err)
				}
				return model
			}
		}
		model := m(c.graph, embedDim)
		if ixOpts.Dictionary != nil {
			model = model.WithDictionary(ixOpts.Dictionary)
		}
		emb = model
	}
	ix, err := docsearch.Build(ctx, c.graph, emb, ixOpts)
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
