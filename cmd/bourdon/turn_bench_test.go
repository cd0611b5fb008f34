package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

// BenchmarkPrepareTurnProcess times "bourdon prepare-turn" as a prompt
// hook runs it, a new process per turn, on a 20-agent library, against
// two baselines timed in the same loop: "bourdon --help" (the binary's own
// start-up) and /bin/true (starting any process). It reports the
// milliseconds of each and the ratios:
//
//	go test -run '^$' -bench PrepareTurnProcess -benchtime 100x ./cmd/bourdon/
//
// "usual" is 20 agents x 300 entities x 100 sessions (1.5 MB of YAML),
// "large" 20 x 1,000 x 500 (5.7 MB). The turn cache is warm, as it is on
// every turn but the first after a manifest changes; "one-changed"
// changes one manifest's stamp before each run (the turn after an
// export), "cold" removes the cache, so every manifest is parsed.
func BenchmarkPrepareTurnProcess(b *testing.B) {
	if testing.Short() {
		b.Skip("generates libraries and starts processes")
	}
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) to time as a baseline")
	}
	usual := libgen.Spec{Agents: 20, Entities: 300, Sessions: 100, Workstreams: 5, Notes: 10, Seed: 1}
	for _, c := range []struct {
		name       string
		spec       libgen.Spec
		oneChanged bool
		cold       bool
	}{
		{"usual", usual, false, false},
		{"large", libgen.Spec{Agents: 20, Entities: 1000, Sessions: 500, Workstreams: 20, Notes: 50, Seed: 1}, false, false},
		{"usual-one-changed", usual, true, false},
		{"usual-cold", usual, false, true},
	} {
		b.Run(c.name, func(b *testing.B) {
			dir := b.TempDir()
			c.spec.Today = time.Now()
			if _, err := libgen.Write(dir, c.spec); err != nil {
				b.Fatal(err)
			}
			// Manifests written a while ago, so the cache takes them.
			old := time.Now().Add(-time.Hour)
			files, _ := filepath.Glob(filepath.Join(dir, "agents", "*.l5.yaml"))
			for _, f := range files {
				if err := os.Chtimes(f, old, old); err != nil {
					b.Fatal(err)
				}
			}
			prompt := "what about " + libgen.EntityName(12) + " and the " + strings.ToLower(libgen.EntityName(40)) + " rollout?"
			turn := []string{"prepare-turn", prompt, "--library", dir}
			run := func(name string, args ...string) time.Duration {
				start := time.Now()
				out, err := exec.Command(name, args...).Output()
				d := time.Since(start)
				if err != nil {
					b.Fatalf("%s %v: %v", name, args, err)
				}
				if name == binary && args[0] == "prepare-turn" && !strings.Contains(string(out), "matched_entities:\n- name: ") {
					b.Fatalf("prepare-turn recognised nothing:\n%s", out)
				}
				return d
			}
			run(binary, turn...) // fills the cache
			cache := filepath.Join(dir, ".bourdon", "turn-cache.bin")
			if _, err := os.Stat(cache); err != nil {
				b.Fatalf("no turn cache after the first turn: %v", err)
			}
			var tTurn, tHelp, tTrue time.Duration
			b.ResetTimer()
			for b.Loop() {
				switch {
				case c.cold:
					b.StopTimer()
					os.Remove(cache)
					b.StartTimer()
				case c.oneChanged:
					b.StopTimer()
					old = old.Add(time.Second)
					if err := os.Chtimes(files[0], old, old); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				tTurn += run(binary, turn...)
				tHelp += run(binary, "--help")
				tTrue += run(truePath)
			}
			n := float64(b.N)
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
			b.ReportMetric(ms(tTurn), "ms/turn")
			b.ReportMetric(ms(tHelp), "ms/help")
			b.ReportMetric(ms(tTrue), "ms/true")
			b.ReportMetric(float64(tTurn)/float64(tHelp), "turn/help")
			b.ReportMetric(float64(tTurn)/float64(tTrue), "turn/true")
			b.ReportMetric(0, "ns/op")
		})
	}
}
