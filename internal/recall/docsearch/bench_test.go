package docsearch

import (
	"context"
	"fmt"
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
// index and its embedder hold beyond the graph. The figures, measured
// against main's, are in docs/retrieval.md (Docs search, Speed).

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
	var lat latencies
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		lat.start()
		if _, err := c.ix.Search(ctx, Query{Text: c.queries[i%len(c.queries)]}); err != nil {
			b.Fatal(err)
		}
		lat.stop()
	}
	b.StopTimer()
	lat.report(b)
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
	var lat latencies
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		lat.start()
		if _, err := ix.Search(ctx, Query{Text: texts[i%len(texts)], IncludeInternal: true}); err != nil {
			b.Fatal(err)
		}
		lat.stop()
	}
	b.StopTimer()
	lat.report(b)
}

// latencies records the wall and CPU time of each query.
type latencies struct {
	wall, cpu []time.Duration
	t0        time.Time
	cpu0      time.Duration
}

func (l *latencies) start() {
	l.t0, l.cpu0 = time.Now(), cpuTime()
}

func (l *latencies) stop() {
	l.wall = append(l.wall, time.Since(l.t0))
	l.cpu = append(l.cpu, cpuTime()-l.cpu0)
}

// report reports the p50 and p99 of the wall times (p50-ms, p99-ms) and
// of the process CPU times (p50-cpu-ms, p99-cpu-ms), in ms. On a machine
// shared with other work the CPU times are the steadier figures: time
// spent waiting for a core does not count.
func (l *latencies) report(b *testing.B) {
	for _, s := range []struct {
		name string
		ts   []time.Duration
	}{{"", l.wall}, {"-cpu", l.cpu}} {
		slices.Sort(s.ts)
		ms := func(p float64) float64 { return float64(s.ts[int(p*float64(len(s.ts)-1))]) / 1e6 }
		b.ReportMetric(ms(0.50), "p50"+s.name+"-ms")
		b.ReportMetric(ms(0.99), "p99"+s.name+"-ms")
	}
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

// BenchmarkQuantizer50k measures the coarse quantiser against the exact
// scan on the 50,000-node benchmark, for several numbers of lists probed:
// the share of the exact vector top 100 it finds (overlap100), of the
// part of it that enters the fusion (overlap-fused: cosine at least
// vecMinShare of the best), of the top 10 of docs_search (top10), and
// the time of the vector arm's search alone (vec-ms, mean) beside that
// of the exact scan (exact-ms, mean, same run); and the time to train
// the quantiser (sub-benchmark build, ns/op).
//
//	go test -run '^$' -bench Quantizer50k -benchtime 1x ./internal/recall/docsearch/
func BenchmarkQuantizer50k(b *testing.B) {
	c, err := bench50k()
	if err != nil {
		b.Fatal(err)
	}
	v := c.ix.docs.vec
	if v.ivf == nil {
		b.Fatal("the benchmark's index has no quantiser")
	}
	exact := *c.ix
	ev := *v
	ev.ivf = nil
	exact.docs.vec = &ev
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			buildIVF(v)
		}
	})
	ctx := context.Background()
	queries := c.queries[:300]
	for _, probe := range []int{8, 16, 24, 32, 48} {
		b.Run(fmt.Sprint("probe", probe), func(b *testing.B) {
			defer func(p int) { v.ivf.probe = p }(v.ivf.probe)
			v.ivf.probe = probe
			var o100, oFused, o10, nFused, n10 float64
			var vecTime, exactTime time.Duration
			for b.Loop() {
				o100, oFused, o10, nFused, n10, vecTime, exactTime = 0, 0, 0, 0, 0, 0, 0
				for _, text := range queries {
					q, err := queryVector(ctx, c.ix.emb, nil, text)
					if err != nil {
						b.Fatal(err)
					}
					start := time.Now()
					want := v.exact(q, c.ix.all, armDepth)
					exactTime += time.Since(start)
					start = time.Now()
					got := v.search(q, c.ix.all, armDepth)
					vecTime += time.Since(start)
					o100 += float64(overlap(want, got)) / float64(max(1, len(want)))
					wf := trim(want, vecMinShare)
					oFused += float64(overlap(wf, got))
					nFused += float64(len(wf))
					r1, err := exact.Search(ctx, Query{Text: text})
					if err != nil {
						b.Fatal(err)
					}
					r2, err := c.ix.Search(ctx, Query{Text: text})
					if err != nil {
						b.Fatal(err)
					}
					o10 += float64(sameUIDs(r1, r2))
					n10 += float64(len(r1.Results))
				}
			}
			b.ReportMetric(o100/float64(len(queries)), "overlap100")
			b.ReportMetric(oFused/nFused, "overlap-fused")
			b.ReportMetric(o10/n10, "top10")
			b.ReportMetric(float64(vecTime)/1e6/float64(len(queries)), "vec-ms")
			b.ReportMetric(float64(exactTime)/1e6/float64(len(queries)), "exact-ms")
		})
	}
}

// overlap counts the documents of want that got has.
func overlap(want, got []hit) int {
	in := map[int32]bool{}
	for _, h := range got {
		in[h.doc] = true
	}
	n := 0
	for _, h := range want {
		if in[h.doc] {
			n++
		}
	}
	return n
}

// sameUIDs counts the results of a that b has too.
func sameUIDs(a, b *Results) int {
	in := map[string]bool{}
	for _, r := range b.Results {
		in[r.UID] = true
	}
	n := 0
	for _, r := range a.Results {
		if in[r.UID] {
			n++
		}
	}
	return n
}

// BenchmarkLexical50k is the lexical arm alone on the 50,000-node
// benchmark's queries, top armDepth: as docs_search runs it (lexical,
// which picks one of the two ways per query), always by MaxScore
// (maxscore.go), and always by scoring every posting (exhaustive, the arm
// before MaxScore), with the latency percentiles of each.
//
//	go test -run '^$' -bench Lexical50k -benchtime 2000x ./internal/recall/docsearch/
func BenchmarkLexical50k(b *testing.B) {
	c, err := bench50k()
	if err != nil {
		b.Fatal(err)
	}
	a := &c.ix.docs
	lqs := make([]lexQuery, len(c.queries))
	for i, text := range c.queries {
		lqs[i] = a.resolve(queryTerms(text), c.ix.realTerms(text))
	}
	for _, run := range []struct {
		name string
		top  func(lexQuery, bitset, int) []hit
	}{{"lexical", a.lexical}, {"maxscore", a.maxScoreTop}, {"exhaustive", a.exhaustive}} {
		b.Run(run.name, func(b *testing.B) {
			var lat latencies
			for i := 0; b.Loop(); i++ {
				lat.start()
				run.top(lqs[i%len(lqs)], c.ix.public, armDepth)
				lat.stop()
			}
			b.StopTimer()
			lat.report(b)
		})
	}
}
