package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// BenchmarkReplicaLagOverMCP measures read-after-write lag across real
// replicas: three `bourdon serve --store` processes on one database; each
// iteration commits an entity through one replica (commit_to_federation
// over MCP) and, from the commit's answer, calls find_entity for it
// through the next replica until the answer holds it. It reports the p50
// and p99 of that lag, and, as the baseline of the same run, the p50 and
// p99 of one find_entity that finds the entity at once (on the replica
// that wrote it): the lag is at least one read. misses/op counts the
// reads through the other replica that came too early.
//
//	go test -run '^$' -bench ReplicaLagOverMCP -benchtime 200x ./cmd/bourdon/
func BenchmarkReplicaLagOverMCP(b *testing.B) {
	url := pgtest.Migrated(b)
	var sessions []*mcp.ClientSession
	for range 3 {
		s := startHTTP(b, "--store", url, "--library", b.TempDir(), "--allow-unauthenticated", "--rate-limit", "off", "--quiet")
		sessions = append(sessions, s.connect(b))
	}
	ctx := context.Background()
	find := func(cs *mcp.ClientSession, name string) bool {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "find_entity", Arguments: map[string]any{"name": name}})
		if err != nil {
			b.Fatal(err)
		}
		text, _ := mcptest.SingleText(res)
		return strings.Contains(text, `"`+name+`"`)
	}
	lags := make([]time.Duration, 0, b.N)
	reads := make([]time.Duration, 0, b.N)
	misses := 0 // reads through the other replica that did not find the entity yet
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprintf("lag-probe-%06d", i)
		writer, reader := sessions[i%3], sessions[(i+1)%3]
		res, err := writer.CallTool(ctx, &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
			"agent_id": "lag", "agent_type": "other", "entities": []any{map[string]any{"name": name}},
		}})
		if msg := callFailure(res, err); msg != "" {
			b.Fatal(msg)
		}
		start := time.Now()
		for !find(reader, name) {
			misses++
		}
		lags = append(lags, time.Since(start))
		start = time.Now()
		if !find(writer, name) {
			b.Fatalf("%s is not on the replica that wrote it", name)
		}
		reads = append(reads, time.Since(start))
	}
	b.StopTimer()
	report := func(ds []time.Duration, unit string) {
		slices.Sort(ds)
		b.ReportMetric(float64(ds[len(ds)/2].Microseconds()), unit+"-p50-µs")
		b.ReportMetric(float64(ds[len(ds)*99/100].Microseconds()), unit+"-p99-µs")
	}
	report(lags, "lag")
	report(reads, "read")
	b.ReportMetric(float64(misses)/float64(b.N), "misses/op")
}
