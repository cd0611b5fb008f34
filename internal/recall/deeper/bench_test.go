package deeper

// Benchmarks over the libgen.Benchmark library (100 agents x 1,000
// entities x 500 sessions, 20 workstreams and 50 notes each). They run
// only with -bench and are skipped with -short:
//
//	go test -run '^$' -bench . -benchtime 2s ./internal/recall/deeper/
//
// The library is generated once into os.TempDir() under the same name the
// federation benchmarks use, and shared with them.

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/embedtest"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

// benchLibrary returns the cached benchmark library.
func benchLibrary(b *testing.B) string { return libgen.BenchmarkLibrary(b) }

// benchPrompt is a 30-word prompt over the generated library's
// vocabulary: an entity name, library words, and ordinary English.
func benchPrompt() string {
	p := "what did the team learn about " + libgen.EntityName(1234) +
		" and the kestrel lumen refactor, which quartz notes matter before the willow release, and who reviewed the signal module last week"
	if n := len(strings.Fields(p)); n != 30 {
		panic(fmt.Sprintf("benchmark prompt has %d words", n))
	}
	return p
}

func benchService(b *testing.B) (*federation.Store, *Service) {
	store := openStore(b, benchLibrary(b))
	store.ListAgents(nil)
	return store, New(store, Options{})
}

// BenchmarkIndexBuild indexes the whole library (the first call after
// start-up, or the cost a full rebuild would have).
func BenchmarkIndexBuild(b *testing.B) {
	store, _ := benchService(b)
	agents := store.Manifests(nil)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	keep := newIndex()
	keep.sync(agents)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(keep)
	b.ResetTimer()
	for b.Loop() {
		newIndex().sync(agents)
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB-index")
}

// BenchmarkDeeperContext is get_deeper_context with a 30-word prompt at
// team level on the indexed library.
func BenchmarkDeeperContext(b *testing.B) {
	_, s := benchService(b)
	prompt := benchPrompt()
	req := Request{Prompt: prompt, AccessLevel: "team", Level: visibility.Team}
	if p := s.DeeperContext(context.Background(), req); len(p.Items) == 0 {
		b.Fatal("no items")
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.DeeperContext(context.Background(), req)
	}
}

// BenchmarkDeeperContextMisspelled adds the fuzzy door: three misspelled
// words.
func BenchmarkDeeperContextMisspelled(b *testing.B) {
	_, s := benchService(b)
	req := Request{Prompt: benchPrompt() + " kestral lumon refactered", AccessLevel: "team", Level: visibility.Team}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.DeeperContext(context.Background(), req)
	}
}

// BenchmarkDeeperContextAfterChange measures a call after one manifest
// changed: one segment is rebuilt, the others reused.
func BenchmarkDeeperContextAfterChange(b *testing.B) {
	store, s := benchService(b)
	agents := store.Manifests(nil)
	s.index.sync(agents)
	req := Request{Prompt: benchPrompt(), AccessLevel: "team", Level: visibility.Team}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// Invalidate one agent's segment, as a manifest change would.
		s.index.mu.Lock()
		delete(s.index.segs, agents[i%len(agents)].ID)
		s.index.view = nil
		s.index.mu.Unlock()
		s.DeeperContext(context.Background(), req)
	}
}

// BenchmarkDeeperContextSemantic is BenchmarkDeeperContext with the
// semantic arm, its embedder in process (embedtest.Hashing, 768 dimensions,
// as nomic-embed-text's), once every row is embedded: the cost of the
// cosine scan over the library's rows and of the fusion. It reports the
// rows compared and the vectors' memory.
func BenchmarkDeeperContextSemantic(b *testing.B) {
	store, _ := benchService(b)
	s := New(store, Options{Embedder: embedtest.Hashing{Dims: 768}})
	req := Request{Prompt: benchPrompt(), AccessLevel: "team", Level: visibility.Team}
	start := time.Now()
	rows := waitEmbedded(b, s, req.Prompt, 10*time.Minute).Semantic.Rows
	b.Logf("%d rows embedded in %s", rows, time.Since(start).Round(time.Millisecond))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s.DeeperContext(context.Background(), req)
	}
	b.ReportMetric(float64(rows), "rows")
}
