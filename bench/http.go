package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// httpResult is the outcome of the HTTP phase.
type httpResult struct {
	latencies []time.Duration // of the successful calls
	errors    int
	rate      float64 // successful calls per second
	cores     float64 // CPU time of the process (server and clients) per second; 0 if unknown
	alloc     uint64  // bytes allocated per call by the process (server and clients)
}

// httpLoad serves store over streamable HTTP on a loopback port, set up
// as `bourdon serve --transport http` does, connects the given number of
// MCP clients, each with its own connections, and has every client call
// find_entity in a loop, over the names in turn, for d.
func httpLoad(store *federation.Store, names []string, clients int, d time.Duration, protocol string) (*httpResult, error) {
	// As bourdon serve runs it: every call is audited to a log file.
	auditDir, err := os.MkdirTemp("", "bourdon-bench-audit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(auditDir)
	srv := mcpserver.New(store, mcpserver.Options{Version: "bench", Logger: quiet, Audit: trust.OpenAudit(filepath.Join(auditDir, "audit.jsonl"))})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcphttp.Handler(srv.Server, mcphttp.Options{Logger: quiet}))
	serveCtx, stop := context.WithCancel(context.Background())
	defer stop()
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 10 * time.Second,
		MaxHeaderBytes:    64 << 10,
		BaseContext:       func(net.Listener) context.Context { return serveCtx },
	}
	go pprof.Do(context.Background(), pprof.Labels("phase", "http-server"), func(context.Context) { hs.Serve(ln) })
	defer hs.Close()
	url := "http://" + ln.Addr().String() + "/mcp"

	ctx := context.Background()
	sessions := make([]*mcp.ClientSession, clients)
	for i := range sessions {
		client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-bench", Version: "1"}, nil)
		transport := &mcp.StreamableClientTransport{
			Endpoint:   url,
			HTTPClient: &http.Client{Transport: &http.Transport{}}, // a client of its own, as a separate process would be
		}
		cs, err := client.Connect(ctx, transport, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
		if err != nil {
			return nil, fmt.Errorf("client %d: %w", i, err)
		}
		defer cs.Close()
		sessions[i] = cs
		// Warm up, and check that the tool answers.
		for j := range 10 {
			if err := findEntity(ctx, cs, names[(i*7919+j)%len(names)]); err != nil {
				return nil, fmt.Errorf("client %d: %w", i, err)
			}
		}
	}

	type clientResult struct {
		latencies []time.Duration
		errors    int
	}
	results := make([]clientResult, clients)
	var wg sync.WaitGroup
	var ms0 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := cpuTime()
	start := time.Now()
	deadline := start.Add(d)
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := &results[i]
			r.latencies = make([]time.Duration, 0, 1<<14)
			for j := i * 7919; ; j++ { // clients start at different names
				t0 := time.Now()
				err := findEntity(ctx, cs, names[j%len(names)])
				t1 := time.Now()
				if err != nil {
					r.errors++
				} else {
					r.latencies = append(r.latencies, t1.Sub(t0))
				}
				if t1.After(deadline) {
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1 := cpuTime()
	var ms1 runtime.MemStats
	runtime.ReadMemStats(&ms1)

	out := &httpResult{}
	for _, r := range results {
		out.latencies = append(out.latencies, r.latencies...)
		out.errors += r.errors
	}
	calls := len(out.latencies) + out.errors
	out.rate = float64(len(out.latencies)) / elapsed.Seconds()
	if cpu0 > 0 && cpu1 > 0 {
		out.cores = (cpu1 - cpu0).Seconds() / elapsed.Seconds()
	}
	if calls > 0 {
		out.alloc = (ms1.TotalAlloc - ms0.TotalAlloc) / uint64(calls)
	}
	return out, nil
}

// findEntity calls the find_entity tool at team level.
func findEntity(ctx context.Context, cs *mcp.ClientSession, name string) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "find_entity",
		Arguments: map[string]any{"name": name, "access_level": level.String()},
	})
	if err != nil {
		return err
	}
	if res.IsError {
		return errors.New("find_entity returned a tool error")
	}
	return nil
}
