package knowledge_test

// Benchmarks over the libgen.Benchmark library (100 agents x 1,000
// entities) joined with testdata/learn and its overlay. They only run
// with -bench and are skipped with -short:
//
//	go test -run '^$' -bench . -benchtime 5x ./internal/docgraph/knowledge/
//
// The library is the cached one of libgen.BenchmarkLibrary; the
// benchmark that writes works on a private copy.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// benchStore opens the library at dir and loads it before any timer.
func benchStore(b *testing.B, dir string) *federation.Store {
	b.Helper()
	lib, err := library.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { lib.Close() })
	s := federation.New(lib)
	s.Snapshot()
	return s
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkOpenLargeLibrary measures Open: loading and indexing the
// corpus and joining 100,000 entities. heap-MB is what one Base holds
// beyond the store.
func BenchmarkOpenLargeLibrary(b *testing.B) {
	store := benchStore(b, libgen.BenchmarkLibrary(b))
	opts := knowledge.Options{Dirs: corpusDirs, Store: store}
	before := heapInUse()
	var kb *knowledge.Base
	for b.Loop() {
		kb = nil
		var err error
		if kb, err = knowledge.Open(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(heapInUse()-before)/(1<<20), "heap-MB")
	g := kb.Current().Graph
	b.ReportMetric(float64(g.Len()), "nodes")
	b.ReportMetric(float64(g.EdgeCount()), "edges")
}

// BenchmarkRebuildOneManifest measures what Watch does when one manifest
// of the benchmark library changes: the library reads it again, Reload
// joins the memory again (the corpus and the other agents' nodes are
// reused) and Diff finds the entity that changed.
func BenchmarkRebuildOneManifest(b *testing.B) {
	dir := mcptest.CopyDir(b, libgen.BenchmarkLibrary(b))
	store := benchStore(b, dir)
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: corpusDirs, Store: store})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "agents", "agent-050"+library.ManifestSuffix)
	template, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	const summary = "What agent 50 knows about"
	if !bytes.Contains(template, []byte(summary)) {
		b.Fatalf("%s has no %q", path, summary)
	}
	rev := 0
	for b.Loop() {
		b.StopTimer()
		rev++
		data := bytes.Replace(template, []byte(summary), fmt.Appendf(nil, "Revision %d of what agent 50 knows about", rev), 1)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		old := kb.Current()
		b.StartTimer()
		next, err := kb.Reload(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		changed, added, removed := docs.Diff(old.Graph, next.Graph)
		if len(changed) != 1 || len(added)+len(removed) != 0 {
			b.Fatalf("revision %d: changed %d, added %d, removed %d; want one change", rev, len(changed), len(added), len(removed))
		}
	}
}

// BenchmarkFindOnLargeGraph measures View.Find on the joined graph of the
// benchmark library: a uid that exists, and a misspelt one, whose error
// names the three closest visible uids (a scan of every node). Compare
// the two in one run: the ratio is what a misspelling costs.
func BenchmarkFindOnLargeGraph(b *testing.B) {
	store := benchStore(b, libgen.BenchmarkLibrary(b))
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: corpusDirs, Store: store})
	if err != nil {
		b.Fatal(err)
	}
	v := kb.Current().View(knowledge.Viewer{Level: visibility.Private})
	for name, uid := range map[string]string{"known": pinDoc, "misspelt": "cogitave.learn.docs.pin-a-namzu-relase"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				_, _, err := v.Find(uid)
				if (err != nil) != (name == "misspelt") {
					b.Fatal(err)
				}
			}
		})
	}
}
