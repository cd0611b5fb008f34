package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpmetrics"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpstdio"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// A server child is this program started again with envChild set: one
// server (ours or a floor) in a process of its own, so that its CPU time
// and allocation are its own and not the clients'. It talks to the bench
// on two extra pipes (fd 3 in, fd 4 out), one JSON line each way: it sends
// ready once it serves, then answers "start" and "stop" (of a measured
// window) with its counters, and exits on "quit".
const (
	envChild     = "BOURDON_BENCH_CHILD"     // the server: ours, sdk or echo
	envTransport = "BOURDON_BENCH_TRANSPORT" // stdio or http
	envLibrary   = "BOURDON_BENCH_LIBRARY"   // ours: the library to serve
	envRegistry  = "BOURDON_BENCH_REGISTRY"  // ours over HTTP: the registry file of the bearer tokens
	envReplies   = "BOURDON_BENCH_REPLIES"   // the floors: the captured exchanges (a JSON file of []exchange)
	envProfile   = "BOURDON_BENCH_PROFILE"   // a directory for the CPU and allocation profiles, or ""
	envName      = "BOURDON_BENCH_NAME"      // the profiles' file name stem: the server's key and the transport
	envHold      = "BOURDON_BENCH_HOLD"      // the go-sdk floor: a library to load and hold, unused, or ""
)

// The servers a child can be.
const (
	serverOurs = "ours" // mcpserver.New, as bourdon serve sets it up
	serverSDK  = "sdk"  // a minimal go-sdk server answering captured payloads
	serverEcho = "echo" // a bare line (stdio) or body (HTTP) echo of captured bytes
)

// exchange is one captured find_entity call of our server: the request
// the client sent and the response our server wrote, byte for byte (a
// stdio line, or an HTTP body), and the payload (the text content).
type exchange struct {
	Name        string `json:"name"`
	Request     []byte `json:"request"`
	Response    []byte `json:"response"`
	ContentType string `json:"content_type,omitempty"`
	Payload     string `json:"payload"`
}

// ready is the child's first message.
type ready struct {
	URL   string   `json:"url,omitempty"`   // HTTP: the endpoint
	Names []string `json:"names,omitempty"` // ours: the library's entity names
	Error string   `json:"error,omitempty"`
}

// counters are a process's cumulative CPU time, heap allocation and
// garbage collections.
type counters struct {
	CPU          time.Duration `json:"cpu_ns"`
	SystemCPU    time.Duration `json:"system_cpu_ns"` // the part of CPU spent in the kernel
	Switches     uint64        `json:"switches"`      // context switches, voluntary or not
	Faults       uint64        `json:"faults"`        // page faults: memory touched for the first time, mostly
	AllocBytes   uint64        `json:"alloc_bytes"`
	AllocObjects uint64        `json:"alloc_objects"`
	GCs          uint64        `json:"gcs"`
}

// readCounters reads the counters of this process: user plus system CPU
// time, context switches and page faults from getrusage, allocation from runtime/metrics (which, unlike
// ReadMemStats, does not stop the world).
func readCounters() counters {
	var c counters
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		c.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		c.SystemCPU = time.Duration(ru.Stime.Nano())
		c.Switches = uint64(ru.Nvcsw + ru.Nivcsw)
		c.Faults = uint64(ru.Minflt + ru.Majflt)
	}
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/allocs:objects"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	c.AllocBytes, c.AllocObjects, c.GCs = s[0].Value.Uint64(), s[1].Value.Uint64(), s[2].Value.Uint64()
	return c
}

// sub returns the counters from b to c.
func (c counters) sub(b counters) counters {
	return counters{CPU: c.CPU - b.CPU, SystemCPU: c.SystemCPU - b.SystemCPU, Switches: c.Switches - b.Switches, Faults: c.Faults - b.Faults,
		AllocBytes: c.AllocBytes - b.AllocBytes, AllocObjects: c.AllocObjects - b.AllocObjects, GCs: c.GCs - b.GCs}
}

// add returns the counters of c and b together.
func (c counters) add(b counters) counters {
	return counters{CPU: c.CPU + b.CPU, SystemCPU: c.SystemCPU + b.SystemCPU, Switches: c.Switches + b.Switches, Faults: c.Faults + b.Faults,
		AllocBytes: c.AllocBytes + b.AllocBytes, AllocObjects: c.AllocObjects + b.AllocObjects, GCs: c.GCs + b.GCs}
}

// runChild serves as the environment says until the bench says quit or
// closes the control pipe.
func runChild(server, transport string) error {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(200) // as bourdon serve does
	}
	ctlIn, ctlOut := os.NewFile(3, "control-in"), os.NewFile(4, "control-out")
	if ctlIn == nil || ctlOut == nil {
		return errors.New("a server child needs the control pipes on fd 3 and 4")
	}
	enc := json.NewEncoder(ctlOut)
	// What the child writes (our server's audit log) goes into a
	// directory of its own, removed when it ends.
	scratch, err := os.MkdirTemp("", "bourdon-bench-child-")
	if err != nil {
		enc.Encode(ready{Error: err.Error()})
		return err
	}
	defer os.RemoveAll(scratch)
	var rd ready
	serve, err := childServer(server, transport, scratch, &rd)
	if err != nil {
		enc.Encode(ready{Error: err.Error()})
		return err
	}
	go func() {
		if err := serve(func() { enc.Encode(rd) }); err != nil {
			fmt.Fprintln(os.Stderr, "bench child:", err)
		}
	}()
	prof := profiler{dir: os.Getenv(envProfile), name: os.Getenv(envName)}
	sc := bufio.NewScanner(ctlIn)
	for sc.Scan() {
		switch sc.Text() {
		case "start":
			prof.start()
			enc.Encode(readCounters())
		case "stop":
			c := readCounters()
			prof.stop()
			enc.Encode(c)
		case "quit":
			return nil
		}
	}
	return nil
}

// profiler writes the profiles of one measured phase into dir, when set:
// NAME.cpu.pprof, and the allocation profiles at its start and end
// (NAME.allocs-base.pprof, NAME.allocs.pprof), for go tool pprof -base.
// A later phase of the same child overwrites them.
type profiler struct {
	dir, name string
	cpu       *os.File
}

func (p *profiler) start() {
	if p.dir == "" {
		return
	}
	runtime.GC() // publishes what was allocated so far to the allocation profile
	p.heap("allocs-base")
	f, err := os.Create(filepath.Join(p.dir, p.name+".cpu.pprof"))
	if err == nil && pprof.StartCPUProfile(f) == nil {
		p.cpu = f
	}
}

func (p *profiler) stop() {
	if p.cpu == nil {
		return
	}
	pprof.StopCPUProfile()
	p.cpu.Close()
	p.cpu = nil
	runtime.GC()
	p.heap("allocs")
}

func (p *profiler) heap(kind string) {
	if f, err := os.Create(filepath.Join(p.dir, p.name+"."+kind+".pprof")); err == nil {
		pprof.Lookup("allocs").WriteTo(f, 0)
		f.Close()
	}
}

// childServer builds the server and returns the function that serves it,
// calling announce once it listens. It fills in rd. Our server's audit
// log is written into the directory scratch.
func childServer(server, transport, scratch string, rd *ready) (func(announce func()) error, error) {
	var srv *mcp.Server
	var echo map[string]exchange
	var fallback exchange
	switch server {
	case serverOurs:
		lib, err := library.Open(os.Getenv(envLibrary), quiet)
		if err != nil {
			return nil, err
		}
		store := federation.New(lib)
		rd.Names = entityNames(store)
		// As bourdon serve runs it: every call is audited to a log file.
		s := mcpserver.New(store, mcpserver.Options{Version: "bench", Logger: quiet, Audit: trust.OpenAudit(filepath.Join(scratch, "audit.jsonl"))})
		if transport == "http" {
			// bourdon serve --transport http counts every call.
			s.Server.AddReceivingMiddleware(mcpmetrics.New().Middleware(trust.Ops()))
		}
		srv = s.Server
	case serverSDK, serverEcho:
		replies, err := readReplies(os.Getenv(envReplies))
		if err != nil {
			return nil, err
		}
		if server == serverSDK {
			if dir := os.Getenv(envHold); dir != "" {
				// The same live heap as ours, so that each garbage
				// collection has as much to mark.
				lib, err := library.Open(dir, quiet)
				if err != nil {
					return nil, err
				}
				held = federation.New(lib)
				held.ListAgents(nil) // builds the indexes
			}
			srv = floorServer(replies)
			break
		}
		echo = map[string]exchange{}
		for _, x := range replies {
			echo[string(x.Request)] = x
		}
		fallback = replies[0]
	default:
		return nil, fmt.Errorf("unknown server %q", server)
	}

	switch transport {
	case "stdio":
		return func(announce func()) error {
			announce()
			if srv == nil {
				return echoLines(os.Stdin, os.Stdout, echo, fallback)
			}
			var t mcp.Transport = &mcp.StdioTransport{}
			if server == serverOurs {
				t = mcpstdio.Transport(os.Stdin, os.Stdout, mcpstdio.Options{}) // as bourdon serve does
			}
			err := srv.Run(context.Background(), t)
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}, nil
	case "http":
		var h http.Handler
		switch {
		case srv == nil:
			h = echoBodies(echo, fallback)
		case server == serverOurs:
			h = mcphttp.Handler(srv, mcphttp.Options{Logger: quiet, Auth: &mcphttp.Auth{Registry: trust.OpenRegistry(os.Getenv(envRegistry))}})
		default:
			h = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{Stateless: true})
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		rd.URL = "http://" + ln.Addr().String() + "/mcp"
		mux := http.NewServeMux()
		mux.Handle("/mcp", h)
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
		return func(announce func()) error {
			announce()
			return hs.Serve(ln)
		}, nil
	}
	return nil, fmt.Errorf("unknown transport %q", transport)
}

// held is the library the go-sdk floor holds with envHold.
var held *federation.Store

func readReplies(path string) ([]exchange, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var replies []exchange
	if err := json.Unmarshal(data, &replies); err != nil {
		return nil, err
	}
	if len(replies) == 0 {
		return nil, errors.New("no captured exchanges")
	}
	return replies, nil
}

// floorServer is the minimal go-sdk server: one find_entity tool, added
// with the raw handler (so the SDK neither validates the arguments nor
// infers schemas), answering each name with the payload our server
// answered, prepared once.
func floorServer(replies []exchange) *mcp.Server {
	results := map[string]*mcp.CallToolResult{}
	for _, x := range replies {
		results[x.Name] = &mcp.CallToolResult{
			StructuredContent: json.RawMessage(x.Payload),
			Content:           []mcp.Content{&mcp.TextContent{Text: x.Payload}},
		}
	}
	fallback := results[replies[0].Name]
	// Named as ours, so that the responses are the same bytes.
	srv := mcp.NewServer(&mcp.Implementation{Name: mcpserver.ServerName, Title: mcpserver.ServerTitle, Version: "bench"}, nil)
	srv.AddTool(&mcp.Tool{
		Name: "find_entity",
		InputSchema: map[string]any{
			"type":       "object",
			"properties": map[string]any{"name": map[string]any{"type": "string"}, "access_level": map[string]any{"type": "string"}},
			"required":   []string{"name"},
		},
	}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, err
		}
		if r, ok := results[args.Name]; ok {
			return r, nil
		}
		return fallback, nil
	})
	return srv
}

// echoLines answers every line read from in with the captured response
// line of the same request (the first one for an unknown request), one
// write per line, as the SDK's stdio transport writes.
func echoLines(in io.Reader, out io.Writer, replies map[string]exchange, fallback exchange) error {
	r := bufio.NewReaderSize(in, 1<<20)
	for {
		line, err := r.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		x, ok := replies[string(bytes.TrimSuffix(line, []byte("\n")))]
		if !ok {
			x = fallback
		}
		if _, err := out.Write(x.Response); err != nil {
			return err
		}
	}
}

// echoBodies answers every POST with the captured response body of the
// same request body (the first one for an unknown body).
func echoBodies(replies map[string]exchange, fallback exchange) http.Handler {
	bufs := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		buf := bufs.Get().(*bytes.Buffer)
		defer bufs.Put(buf)
		buf.Reset()
		if _, err := buf.ReadFrom(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		x, ok := replies[string(buf.Bytes())]
		if !ok {
			x = fallback
		}
		w.Header().Set("Content-Type", x.ContentType)
		w.Write(x.Response)
	})
}
