package recognition

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

// benchSpec is the size of the performance targets: 100 agents x 1,000
// entities (entities only; sessions play no part in recognition).
var benchSpec = libgen.Spec{Agents: 100, Entities: 1000, Seed: 1}

var benchData = sync.OnceValue(func() map[string][]Entity {
	today := time.Date(2026, 6, 29, 0, 0, 0, 0, time.UTC)
	out := make(map[string][]Entity, benchSpec.Agents+1)
	for a := range benchSpec.Agents + 1 { // one spare agent for the update benchmark
		id := fmt.Sprintf("agent-%03d", a)
		out[id] = entitiesFromYAML(libgen.Manifest(id, a, benchSpec, today))
	}
	return out
})

func benchIndex(b *testing.B) (*Index, map[string][]Entity) {
	b.Helper()
	data := benchData()
	x := NewIndex()
	for a := range benchSpec.Agents {
		id := fmt.Sprintf("agent-%03d", a)
		x.Update(id, data[id])
	}
	return x, data
}

// benchPrompt is a 30-word prompt naming two entities of the library,
// padded with words that start many entity names.
func benchPrompt(data map[string][]Entity) string {
	ents := data["agent-000"]
	p := "hey can you remind me where we landed on " + ents[0].Name +
		" and whether the " + ents[500].Name +
		" rollout is still blocked on the atlas review from signal team please"
	if n := len(strings.Fields(p)); n != 30 {
		panic(fmt.Sprintf("bench prompt has %d words", n))
	}
	return p
}

// reportPercentiles records the per-operation latencies' p50 and p99.
func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	us := func(q float64) float64 { return float64(d[int(q*float64(len(d)-1))].Nanoseconds()) / 1e3 }
	b.ReportMetric(us(0.50), "p50-µs")
	b.ReportMetric(us(0.99), "p99-µs")
}

// BenchmarkPrepare is the per-call cost of prepare_recognition_context's
// recognition work: detection plus payload (recognition string, matched
// entities, confidence, redacted fragment). Target: p50 under 50 µs.
func BenchmarkPrepare(b *testing.B) {
	x, data := benchIndex(b)
	prompt := benchPrompt(data)
	if res := x.Prepare(prompt, visibility.Team); len(res.MatchedEntities) != 2 {
		b.Fatalf("bench prompt matched %d entities: %s", len(res.MatchedEntities), res.Recognition)
	}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		x.Prepare(prompt, visibility.Team)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkPrepareNoMatch is a 30-word prompt that names nothing.
func BenchmarkPrepareNoMatch(b *testing.B) {
	x, _ := benchIndex(b)
	prompt := strings.TrimSpace(strings.Repeat("what is the weather like today in the city ", 3)) + " please"
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		x.Prepare(prompt, visibility.Team)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkUpdateAgent replaces one agent's 1,000 entities with a
// different 1,000 in a full index. Target: under 20 ms.
func BenchmarkUpdateAgent(b *testing.B) {
	x, data := benchIndex(b)
	versions := [][]Entity{data[fmt.Sprintf("agent-%03d", benchSpec.Agents)], data["agent-042"]}
	lat := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		x.Update("agent-042", versions[i%2])
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	reportPercentiles(b, lat)
}

// BenchmarkBuild indexes the whole library from scratch (100,000
// entities).
func BenchmarkBuild(b *testing.B) {
	data := benchData()
	ids := make([]string, 0, benchSpec.Agents)
	for a := range benchSpec.Agents {
		ids = append(ids, fmt.Sprintf("agent-%03d", a))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		x := NewIndex()
		for _, id := range ids {
			x.Update(id, data[id])
		}
	}
}
