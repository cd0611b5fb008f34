package docsearch

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch/synth"
)

// The 50,000-node benchmarks: a generated corpus (package synth), the
// offline embedder trained on it at the default dimension, and a query
// mix of titles, summary phrases, misspelt phrases and body passages.
//
//	go test -run '^$' -bench Search50k -benchtime 2000x ./internal/recall/docsearch/
//
// BenchmarkSearch50k reports the latency percentiles of docs_search
// (fusion, graph rerank, top 10) over the mix, and the cost of the index:
// the embedder's training time, the index's build time, and the heap the
// index and its embedder hold beyond the graph. On 2 cores (AMD EPYC):
// p50 2.0 ms, p99 4.2 ms, training 2.5 s, build 1.8 s, 132 MiB.

const benchNodes = 50000

// bench50k is the corpus, index and build figures, made once.
var bench50k = sync.OnceValues(func() (*benchCorpus, error) {
	g, err := synth.Graph(benchNodes, 1)
	if err != nil {
		return nil, err
	}
	c := &benchCorpus{g: g, queries: synth.Queries(g, 1000, 2)}
	before := heapInUse()
	start := time.Now()
	emb := TrainEmbedder(g, 0)
	c.train = time.Since(start)
	start = time.Now()
	c.ix, err = Build(context.Background(), g, emb, Options{})
	c.build = time.Since(start)
	c.heap = heapInUse() - before
	return c, err
})

type benchCorpus struct {
	g            *graph.Graph
	ix           *Index
	queries      []string
	train, build time.Duration
	heap         uint64 // bytes held by the embedder and index
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func BenchmarkSearch50k(b *testing.B) {
	c, err := bench50k()
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := c.ix.Search(ctx, Query{Text: c.queries[i%len(c.queries)]}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
	b.ReportMetric(c.train.Seconds(), "train-s")
	b.ReportMetric(c.build.Seconds(), "build-s")
	b.ReportMetric(float64(c.heap)/(1<<20), "index-MiB")
}

// BenchmarkSearchLearn is docs_search in process on testdata/learn: the
// labelled queries of both sets in turn, internal docs included, with
// the latency percentiles.
//
//	go test -run '^$' -bench SearchLearn -benchtime 5000x ./internal/recall/docsearch/
func BenchmarkSearchLearn(b *testing.B) {
	ix := learnIndex(b)
	var texts []string
	for _, q := range loadQueries(b) {
		texts = append(texts, q.Text)
	}
	for _, q := range loadProseQueries(b) {
		texts = append(texts, q.Text)
	}
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		if _, err := ix.Search(ctx, Query{Text: texts[i%len(texts)], IncludeInternal: true}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// reportLatency reports the p50 and p99 of the latencies, in ms.
func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	ms := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))]) / 1e6 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

// BenchmarkEmbedderStart is what a start spends on the offline embedder
// of testdata/learn: training it, and reading it back from the cache.
//
//	go test -run '^$' -bench EmbedderStart ./internal/recall/docsearch/
func BenchmarkEmbedderStart(b *testing.B) {
	c, err := docs.Load("../../../testdata/learn")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("train", func(b *testing.B) {
		for b.Loop() {
			TrainEmbedder(c.Graph, 128)
		}
	})
	b.Run("cached", func(b *testing.B) {
		dir := b.TempDir()
		if _, err := CachedEmbedder(c.Graph, 128, dir); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if _, err := CachedEmbedder(c.Graph, 128, dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
