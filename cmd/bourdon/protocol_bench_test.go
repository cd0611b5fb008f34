package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

// These benchmarks time whole round trips to the real binary:
//
//	go test -run '^$' -bench . -benchtime 3000x ./cmd/bourdon/
//
// They report p50 and p99 per tools/call, and the memory a server process
// holds per idle 2025-11-25 session.

func roundTrips(b *testing.B, cs *mcp.ClientSession) {
	timeCalls(b, cs, "find_entity", map[string]any{"name": "Bourdon", "access_level": "team"})
}

// timeCalls calls tool b.N times and reports the p50 and p99 round trip.
func timeCalls(b *testing.B, cs *mcp.ClientSession, tool string, args map[string]any) {
	times := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("call: %v %v", err, res)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds()), "p99-µs")
}

func BenchmarkToolCallStdio(b *testing.B) {
	lib := seedLibrary(b)
	cmd := exec.Command(binary, "serve", "--library", lib, "--quiet")
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	roundTrips(b, cs)
}

func BenchmarkToolCallHTTP(b *testing.B) {
	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		b.Run(version, func(b *testing.B) {
			s := startHTTP(b, "--library", seedLibrary(b), "--quiet", "--allow-unauthenticated")
			client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.url}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			roundTrips(b, cs)
		})
	}
}

// BenchmarkIdleSessionMemory opens b.N idle 2025-11-25 sessions against
// one server process and reports how much its resident memory grew per
// session (2026-07-28 is stateless and holds nothing between requests).
func BenchmarkIdleSessionMemory(b *testing.B) {
	s := startHTTP(b, "--library", seedLibrary(b), "--quiet", "--allow-unauthenticated")
	ctx := context.Background()
	warm := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	if cs, err := warm.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}); err == nil {
		cs.Close()
	}
	before := rssKiB(b, s.cmd.Process.Pid)
	var sessions []*mcp.ClientSession
	for b.Loop() {
		client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			b.Fatal(err)
		}
		sessions = append(sessions, cs)
	}
	time.Sleep(200 * time.Millisecond)
	after := rssKiB(b, s.cmd.Process.Pid)
	b.ReportMetric(float64(after-before)/float64(len(sessions)), "KiB/session")
	for _, cs := range sessions {
		cs.Close()
	}
}

func rssKiB(b *testing.B, pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skip("needs /proc")
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.Fields(rest)[0])
			return n
		}
	}
	b.Fatal("no VmRSS")
	return 0
}

// thirtyWords is a turn-start prompt of 30 words naming two entities of the
// benchmark library.
const thirtyWords = "could you remind me what we decided last week about Atlas Bourdon 30 and how it relates to Cedar Delta 92 before I start " +
	"refactoring the ingestion module and the retry logic today please"

// BenchmarkRecognitionStdioLarge times prepare_recognition_context over
// stdio against the 100-agent x 1,000-entity x 500-session library:
//
//	go test -run '^$' -bench RecognitionStdioLarge -benchtime 2000x ./cmd/bourdon/
func BenchmarkRecognitionStdioLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a 28 MB library")
	}
	dir := b.TempDir()
	spec := libgen.Benchmark
	spec.Today = time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)
	if _, err := libgen.Write(dir, spec); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--library", dir, "--quiet")
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	args := map[string]any{"prompt": thirtyWords}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "prepare_recognition_context", Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("warm-up: %v %v", err, res)
	}
	timeCalls(b, cs, "prepare_recognition_context", args)
}
