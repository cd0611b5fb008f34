package docsearch

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"testing"
	"time"
)

// TestTailProfile profiles the slowest queries of the 50,000-node
// benchmark, where its p99 is made: it times each query of the mix (the
// least of three runs, so that a pause of the machine does not promote a
// query), and writes a CPU profile of the slowest 2% run over and over to
// tail.cpu.pprof in the directory named by DOCSEARCH_TAIL_PROFILE, with
// the queries and their times to tail.txt. It runs only when that is set.
//
//	DOCSEARCH_TAIL_PROFILE=/tmp/tail go test -run TailProfile -v ./internal/recall/docsearch/
func TestTailProfile(t *testing.T) {
	dir := os.Getenv("DOCSEARCH_TAIL_PROFILE")
	if dir == "" {
		t.Skip("DOCSEARCH_TAIL_PROFILE is not set")
	}
	c, err := bench50k()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	run := func(text string) time.Duration {
		start := time.Now()
		if _, err := c.ix.Search(ctx, Query{Text: text}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	type timed struct {
		text string
		d    time.Duration
	}
	ts := make([]timed, len(c.queries))
	for i, text := range c.queries {
		ts[i] = timed{text, run(text)}
	}
	for range 2 {
		for i := range ts {
			ts[i].d = min(ts[i].d, run(ts[i].text))
		}
	}
	slices.SortFunc(ts, func(a, b timed) int { return int(b.d - a.d) })
	tail := ts[:max(1, len(ts)/50)]
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var report []byte
	for _, q := range tail {
		report = append(report, q.d.String()+"\t"+q.text+"\n"...)
	}
	if err := os.WriteFile(filepath.Join(dir, "tail.txt"), report, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "tail.cpu.pprof"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		t.Fatal(err)
	}
	for range 100 {
		for _, q := range tail {
			run(q.text)
		}
	}
	pprof.StopCPUProfile()
	t.Logf("slowest %d of %d queries: %v to %v", len(tail), len(ts), tail[len(tail)-1].d, tail[0].d)
}
