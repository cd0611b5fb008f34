package commit

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Run with
//
//	go test -run '^$' -bench Commit -benchtime 200x ./internal/memory/commit/
//
// Every commit is durable: the archived version, the provenance line and
// the manifest are each fsynced (with their directories), so the figures
// depend on the file system as much as on the CPU.

// seedManifest commits a manifest of n entities (and 50 sessions) for
// agent id, in one commit.
func seedManifest(b *testing.B, w *Writer, id string, n int) {
	b.Helper()
	ents := make([]any, n)
	for i := range ents {
		ents[i] = map[string]any{
			"name":       fmt.Sprintf("Entity %04d", i),
			"type":       "concept",
			"summary":    fmt.Sprintf("Entity %d is a seeded row with a summary of realistic length, about eighty characters.", i),
			"tags":       []any{"seed", fmt.Sprintf("group-%d", i%17)},
			"aliases":    []any{fmt.Sprintf("E%d", i)},
			"visibility": []string{"public", "team", "private"}[i%3],
		}
	}
	sess := make([]any, 50)
	for i := range sess {
		sess[i] = map[string]any{"date": fmt.Sprintf("2026-05-%02d", 1+i%28), "cwd": fmt.Sprintf("/repo/%d", i), "key_actions": []any{"seeded"}, "visibility": "team"}
	}
	if _, err := w.Commit(context.Background(), Request{AgentID: id, AgentType: str("code-assistant"), Entities: ents, Sessions: sess}); err != nil {
		b.Fatal(err)
	}
}

// oneEntity is a typical small contribution: one new entity.
func oneEntity(id string, writer, i int) Request {
	return Request{
		AgentID: id,
		Entities: []any{map[string]any{
			"name": fmt.Sprintf("New %d-%d", writer, i), "type": "concept",
			"summary": "A row added by the benchmark.", "tags": []any{"bench"}, "visibility": "team",
		}},
		Provenance: Provenance{Caller: "bench", SessionID: "s"},
	}
}

// BenchmarkCommit1000Entities measures the latency of one commit (one new
// entity) into a manifest of 1,000 entities: read, merge, digest, archive
// the replaced version, provenance, atomic write. "warm" commits through
// one Writer, which reuses the manifest it wrote last instead of parsing
// it again (a server committing on its own); "cold" uses a new Writer for
// every commit, so the manifest is parsed each time (a hook process that
// commits once, or a writer whose file another process just changed).
func BenchmarkCommit1000Entities(b *testing.B) {
	for _, cold := range []bool{false, true} {
		name := "warm"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			root := b.TempDir()
			w := New(root)
			seedManifest(b, w, "agent", 1000)
			ctx := context.Background()
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := range b.N {
				if cold {
					w = New(root)
				}
				t0 := time.Now()
				if _, err := w.Commit(ctx, oneEntity("agent", 0, i)); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			reportLatency(b, lat)
		})
	}
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkCommitThroughput measures sustained commits per second into a
// 1,000-entity manifest by 1 and by 8 writers, each writer a goroutine
// with its own Writer (as separate processes would have; they exclude
// each other through the same file lock, so processes behave alike, see
// TestConcurrentProcessesLoseNothing). "same-agent" writers contend for
// one manifest, whose commits are serialised by its lock; "8-agents"
// writers each commit to their own manifest, in parallel. The file lock is
// taken by polling, so the writer that just released it often takes it
// again at once, and then finds the manifest it wrote (warm).
func BenchmarkCommitThroughput(b *testing.B) {
	for _, c := range []struct {
		name      string
		writers   int
		sameAgent bool
	}{
		{"writers=1", 1, true},
		{"writers=8/same-agent", 8, true},
		{"writers=8/8-agents", 8, false},
	} {
		b.Run(c.name, func(b *testing.B) {
			root := b.TempDir()
			agentOf := func(writer int) string {
				if c.sameAgent {
					return "agent"
				}
				return fmt.Sprintf("agent-%d", writer)
			}
			for wr := range c.writers {
				if wr == 0 || !c.sameAgent {
					seedManifest(b, New(root), agentOf(wr), 1000)
				}
			}
			ctx := context.Background()
			var next atomic.Int64
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for wr := range c.writers {
				w := New(root)
				wg.Go(func() {
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						if _, err := w.Commit(ctx, oneEntity(agentOf(wr), wr, i)); err != nil {
							b.Error(err)
							return
						}
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "commits/s")
		})
	}
}
