package cypher

// BenchmarkDepth4 runs depth-4 queries from varying start nodes over a
// generated graph of 100,000 nodes and 500,000 edges, and reports the
// latency percentiles of one run:
//
//	go test -run '^$' -bench Depth4 -benchtime 2000x ./internal/docgraph/cypher/
//
// The target is a p99 under 25 ms.

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph/graphgen"
)

func BenchmarkDepth4(b *testing.B) {
	g, err := graphgen.Generate(100_000, 500_000, 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(2, 3))
	starts := make([]map[string]any, 4096)
	for i := range starts {
		starts[i] = map[string]any{"start": g.Node(graph.NodeID(rng.IntN(g.Len()))).UID}
	}
	for _, bc := range []struct{ name, src string }{
		{"out", "MATCH (n {uid: $start})-[:dependsOn|xref*1..4]->(m) RETURN DISTINCT m.uid LIMIT 100"},
		{"both", "MATCH (n {uid: $start})-[:dependsOn|xref*1..4]-(m) RETURN DISTINCT m.uid LIMIT 100"},
	} {
		q, err := Parse(bc.src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bc.name, func(b *testing.B) { runDepth4(b, g, q, starts) })
	}
}

func runDepth4(b *testing.B, g *graph.Graph, q *Query, starts []map[string]any) {
	times := make([]time.Duration, 0, b.N)
	rows, expanded := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		res, err := q.Run(b.Context(), g, starts[len(times)%len(starts)], Options{})
		times = append(times, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		rows += len(res.Rows)
		expanded += res.Stats.Expanded
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(rows)/float64(len(times)), "rows/op")
	b.ReportMetric(float64(expanded)/float64(len(times)), "expanded/op")
}
