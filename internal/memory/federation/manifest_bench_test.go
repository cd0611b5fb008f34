package federation

import (
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// BenchmarkLibraryHeap reports the heap the benchmark library keeps once
// it is loaded and indexed (HeapAlloc after two forced collections), and
// how long one forced collection of that heap takes: the marking every
// GC cycle pays for it. Run it with -benchtime 1x.
func BenchmarkLibraryHeap(b *testing.B) {
	dir := benchLibrary(b)
	for b.Loop() {
		s := openBenchStore(b, dir)
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		t0 := time.Now()
		const rounds = 5
		for range rounds {
			runtime.GC()
		}
		b.ReportMetric(time.Since(t0).Seconds()*1e3/rounds, "gc-ms")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "heap-MiB")
		runtime.KeepAlive(s)
	}
}

// BenchmarkAgentManifest reads one benchmark agent's manifest with every
// row visible (the agent-memory resource), alone and encoded as JSON, the
// way the resource sends it; "rotate" reads a different agent each time.
func BenchmarkAgentManifest(b *testing.B) {
	s := openBenchStore(b, benchLibrary(b))
	ids := s.Snapshot().IDs()
	b.Run("same", func(b *testing.B) {
		for b.Loop() {
			if _, ok := s.AgentManifest(ids[0], visibility.Private); !ok {
				b.Fatal("no manifest")
			}
		}
	})
	b.Run("same-json", func(b *testing.B) {
		for b.Loop() {
			m, _ := s.AgentManifest(ids[0], visibility.Private)
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rotate-json", func(b *testing.B) {
		i := 0
		for b.Loop() {
			m, _ := s.AgentManifest(ids[i%len(ids)], visibility.Private)
			i++
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
