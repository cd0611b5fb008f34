package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// What one call costs: find_entity of our server against floors measured
// in the same run, each server in a child process of its own (child.go)
// so that its CPU time and allocation are counted apart from the
// clients'. Over HTTP every server but the echo is measured once a round,
// for -cost-rounds rounds, and the CPU goal is judged on the median of the
// rounds' ratios.

// The servers, by the key that names them in the tables and in the
// profiles' file names.
const (
	keyOurs      = "ours"
	keyFloor     = "floor"
	keyHeap      = "floor+heap"
	keyPublished = "published"
	keyEcho      = "echo"
)

// legend says what each server is, in the order of the tables.
var legend = []struct{ key, what string }{
	{keyOurs, "bourdon: mcpserver.New as bourdon serve runs it (audit log; over HTTP the bearer check and the metrics middleware)"},
	{keyFloor, "go-sdk floor: a minimal go-sdk server answering our payloads, built on the go-sdk this build uses (third_party/go-sdk, patched)"},
	{keyHeap, "the go-sdk floor holding the benchmark library, unused: our live heap for the collector to mark"},
	{keyPublished, "the go-sdk floor built on the go-sdk as published (" + sdkModule + " " + sdkVersion() + ", no replace)"},
	{keyEcho, "echo floor: writes back the bytes our server answered, unparsed"},
}

// sdkModule is the go-sdk's module path, which go.mod replaces.
const sdkModule = "github.com/modelcontextprotocol/go-sdk"

// sdkVersion is the go-sdk version go.mod requires, as this build records it.
func sdkVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == sdkModule {
				return m.Version
			}
		}
	}
	return "(version unknown)"
}

// costPhase is one server measured under one load, or the rounds of one
// server taken together (pooled).
type costPhase struct {
	server    string // the server's key
	calls     int
	errors    int
	wall      time.Duration
	latencies []time.Duration
	srv, cli  counters // the server child's and the clients' (this process's) counters during the phase
	bytes     int      // mean response bytes per call
}

func (p *costPhase) perCall(v float64) float64 { return v / float64(max(p.calls, 1)) }

// serverCPUPerCall and the others are the phase's figures per call.
func (p *costPhase) serverCPUPerCall() time.Duration {
	return time.Duration(p.perCall(float64(p.srv.CPU)))
}
func (p *costPhase) callsPerServerCPUSecond() float64 {
	return float64(p.calls) / max(p.srv.CPU.Seconds(), 1e-9)
}
func (p *costPhase) rate() float64             { return float64(p.calls) / p.wall.Seconds() }
func (p *costPhase) serverKiBPerCall() float64 { return p.perCall(float64(p.srv.AllocBytes)) / 1024 }

// pooled returns phases of one server as one phase: their calls, errors,
// wall time, latencies and counters added up.
func pooled(phases []*costPhase) *costPhase {
	p := &costPhase{server: phases[0].server}
	nb := 0
	for _, q := range phases {
		p.calls += q.calls
		p.errors += q.errors
		p.wall += q.wall
		p.latencies = append(p.latencies, q.latencies...)
		p.srv, p.cli = p.srv.add(q.srv), p.cli.add(q.cli)
		nb += q.bytes * q.calls
	}
	p.bytes = nb / max(p.calls, 1)
	return p
}

// find returns the phase of the server key, or nil.
func find(phases []*costPhase, key string) *costPhase {
	for _, p := range phases {
		if p.server == key {
			return p
		}
	}
	return nil
}

// httpCost is what the HTTP load measured: the echo floor once, and
// every other server once a round.
type httpCost struct {
	echo    *costPhase
	servers []*costServer
}

// costServer is a server child of the HTTP rounds and its phase of each
// round.
type costServer struct {
	ch     *child
	rounds []*costPhase
}

// pooled returns the echo's phase and every server's rounds taken
// together, in the order of the legend.
func (h *httpCost) pooled() []*costPhase {
	var phases []*costPhase
	for _, s := range h.servers {
		phases = append(phases, pooled(s.rounds))
	}
	return append(phases, h.echo)
}

// ratios returns, round by round, ours' calls per server CPU-second over
// those of the server key (nil when it was not measured).
func (h *httpCost) ratios(key string) []float64 {
	ours, other := h.server(keyOurs), h.server(key)
	if ours == nil || other == nil {
		return nil
	}
	rs := make([]float64, len(ours.rounds))
	for i := range rs {
		rs[i] = ours.rounds[i].callsPerServerCPUSecond() / other.rounds[i].callsPerServerCPUSecond()
	}
	return rs
}

// pooledRatio is ours' calls per server CPU-second over the server of
// key's, every round taken together; 0 when either was not measured.
func (h *httpCost) pooledRatio(key string) float64 {
	ours, other := h.server(keyOurs), h.server(key)
	if ours == nil || other == nil {
		return 0
	}
	return pooled(ours.rounds).callsPerServerCPUSecond() / pooled(other.rounds).callsPerServerCPUSecond()
}

// server returns the server child of key, or nil.
func (h *httpCost) server(key string) *costServer {
	for _, s := range h.servers {
		if s.ch.key == key {
			return s
		}
	}
	return nil
}

// costRun measures the stdio and the HTTP costs and prints their tables.
// It returns whether both goals over HTTP were met.
func costRun(cfg config, out, log io.Writer) (bool, error) {
	fmt.Fprintf(log, "what one call costs: every server in a child process%s\n", loadAvg())
	if cfg.costProfile != "" {
		if err := os.MkdirAll(cfg.costProfile, 0o755); err != nil {
			return false, err
		}
		os.Setenv(envProfile, cfg.costProfile) // the children inherit it
	}
	published := ""
	if cfg.costPublished {
		exe, cleanup, err := buildPublished(log)
		if err != nil {
			fmt.Fprintf(log, "no go-sdk floor as published, going on without it: %v\n", err)
		} else {
			defer cleanup()
			published = exe
		}
	}
	stdio, err := costStdio(cfg, published, log)
	if err != nil {
		return false, fmt.Errorf("stdio: %w", err)
	}
	dir, cleanup, err := benchLibrary(cfg, log)
	if err != nil {
		return false, err
	}
	defer cleanup()
	if cfg.dir != "" {
		// -dir is only read: the store writes its drift watermarks into
		// the library it serves, so it serves a copy.
		scratch, err := os.MkdirTemp("", "bourdon-bench-copy-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(scratch)
		if err := copyManifests(filepath.Join(dir, "agents"), filepath.Join(scratch, "agents")); err != nil {
			return false, err
		}
		dir = scratch
	}
	web, err := costHTTP(cfg, dir, published, log)
	if err != nil {
		return false, fmt.Errorf("http: %w", err)
	}
	fmt.Fprintf(log, "done%s\n", loadAvg())
	return printCost(out, cfg, stdio, web), nil
}

// buildPublished builds this program again on the go-sdk as published:
// go.mod and go.sum are copied to a temporary directory, go.mod's replace
// of the go-sdk is dropped there, and go build runs from the module root
// with that go.mod (-modfile), so the module's own files are left as they
// are. The published module comes from the module cache or the proxy.
// cleanup removes the binary.
func buildPublished(log io.Writer) (exe string, cleanup func(), err error) {
	gomod, err := goOutput("", "env", "GOMOD")
	if err != nil {
		return "", nil, err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", nil, errors.New("not run inside the module (go env GOMOD is empty)")
	}
	root := filepath.Dir(gomod)
	tmp, err := os.MkdirTemp("", "bourdon-bench-published-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	modfile := filepath.Join(tmp, "go.mod")
	exe = filepath.Join(tmp, "bench-published")
	fmt.Fprintf(log, "building the go-sdk floor on %s %s as published (into %s) ... ", sdkModule, sdkVersion(), tmp)
	start := time.Now()
	err = copyFiles(root, tmp, "go.mod", "go.sum")
	if err == nil {
		_, err = goOutput(root, "mod", "edit", "-dropreplace="+sdkModule, "-modfile="+modfile)
	}
	if err == nil {
		_, err = goOutput(root, "build", "-mod=mod", "-modfile="+modfile, "-o", exe, "./bench")
	}
	if err != nil {
		fmt.Fprintln(log, "failed")
		cleanup()
		return "", nil, err
	}
	fmt.Fprintf(log, "%s\n", fmtDur(time.Since(start)))
	return exe, cleanup, nil
}

// goOutput runs the go command in dir ("" for this one) and returns its
// output, trimmed; an error carries what it printed.
func goOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return strings.TrimSpace(string(out)), nil
}

// copyFiles copies the named files from one directory to another.
func copyFiles(from, to string, names ...string) error {
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(from, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// findArgs are the arguments of find_entity for name.
func findArgs(name string) map[string]any {
	return map[string]any{"name": name, "access_level": level.String()}
}

// floorSpecs are the children of the go-sdk floors answering with the
// exchanges in the file replies: the floor, the floor holding the library
// in heapDir (when not ""), and the floor as published (when published
// names its program).
func floorSpecs(transport, replies, heapDir, published string) []childSpec {
	env := envReplies + "=" + replies
	specs := []childSpec{{key: keyFloor, kind: serverSDK, transport: transport, env: []string{env}}}
	if heapDir != "" {
		specs = append(specs, childSpec{key: keyHeap, kind: serverSDK, transport: transport, env: []string{env, envHold + "=" + heapDir}})
	}
	if published != "" {
		specs = append(specs, childSpec{key: keyPublished, exe: published, kind: serverSDK, transport: transport, env: []string{env}})
	}
	return specs
}

// costStdio measures one client calling find_entity in a loop over stdio
// on the seed library, against each server in turn.
func costStdio(cfg config, published string, log io.Writer) ([]*costPhase, error) {
	args := findArgs("Bourdon")
	fmt.Fprintf(log, "stdio, seed library %s, find_entity %v, %s per server ...\n", cfg.seed, args, cfg.duration)
	// Served from a copy: a store writes its drift watermarks into the
	// library (.bourdon/watermarks.json), and the seed is a fixture.
	seed, err := os.MkdirTemp("", "bourdon-bench-seed-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(seed)
	if err := copyManifests(filepath.Join(cfg.seed, "agents"), filepath.Join(seed, "agents")); err != nil {
		return nil, err
	}
	var x exchange
	oursPhase, err := mcpStdio(cfg, childSpec{key: keyOurs, kind: serverOurs, transport: "stdio", env: []string{envLibrary + "=" + seed}}, args, func(payload string, req, resp []byte) {
		x = exchange{Name: "Bourdon", Request: firstLine(req), Response: append(firstLine(resp), '\n'), Payload: payload}
		fmt.Fprintf(log, "  our payload: %d bytes (response line %d bytes)\n", len(payload), len(x.Response))
	})
	if err != nil {
		return nil, err
	}
	phases := []*costPhase{oursPhase}

	replies, err := writeReplies([]exchange{x})
	if err != nil {
		return nil, err
	}
	defer os.Remove(replies)
	for _, spec := range floorSpecs("stdio", replies, "", published) {
		p, err := mcpStdio(cfg, spec, args, func(_ string, _, resp []byte) {
			sameBytes(log, spec.key, x.Response, append(firstLine(resp), '\n'))
		})
		if err != nil {
			return nil, err
		}
		phases = append(phases, p)
	}

	echo, err := startChild(childSpec{key: keyEcho, kind: serverEcho, transport: "stdio", env: []string{envReplies + "=" + replies}})
	if err != nil {
		return nil, err
	}
	defer echo.stop()
	r := bufio.NewReaderSize(echo.stdout, 1<<20)
	line := append(slices.Clip(x.Request), '\n')
	echoPhase, err := echo.measure(cfg, 1, func(_, _ int) (int, error) {
		if _, err := echo.stdin.Write(line); err != nil {
			return 0, err
		}
		got, err := r.ReadSlice('\n')
		return len(got), err
	})
	if err != nil {
		return nil, err
	}
	return append(phases, echoPhase), nil
}

// mcpStdio starts the child of spec, an MCP server over stdio, calls
// find_entity with args once and hands the payload and the bytes of that
// exchange to first, then measures one client calling it in a loop.
func mcpStdio(cfg config, spec childSpec, args map[string]any, first func(payload string, req, resp []byte)) (*costPhase, error) {
	ch, err := startChild(spec)
	if err != nil {
		return nil, err
	}
	defer ch.stop()
	rec := &recorder{}
	cs, err := ch.stdioSession(rec)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	rec.start()
	payload, err := callText(cs, args)
	req, resp := rec.stop()
	if err != nil {
		return nil, err
	}
	first(payload, req, resp)
	n := len(append(firstLine(resp), '\n'))
	return ch.measure(cfg, 1, func(_, _ int) (int, error) {
		_, err := callText(cs, args)
		return n, err
	})
}

// costHTTP measures cfg.clients clients calling find_entity in a loop
// over streamable HTTP (2026-07-28) on the benchmark library: our server
// and the go-sdk floors once a round for cfg.costRounds rounds, each
// child started once, then the echo floor once. Our server authenticates
// every call with a registry member's bearer token, as bourdon serve
// --transport http does.
func costHTTP(cfg config, dir, published string, log io.Writer) (*httpCost, error) {
	regDir, err := os.MkdirTemp("", "bourdon-bench-registry-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(regDir)
	regPath := filepath.Join(regDir, "registry.yaml")
	token, err := trust.OpenRegistry(regPath).Add("bench-client", trust.TierTrusted, nil)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(log, "HTTP, %s, %d clients, %s per server and round, %d round(s); our server loads the library ...\n", dir, cfg.clients, cfg.duration, cfg.costRounds)
	ours, err := startChild(childSpec{key: keyOurs, kind: serverOurs, transport: "http", env: []string{envLibrary + "=" + dir, envRegistry + "=" + regPath}})
	if err != nil {
		return nil, err
	}
	h := &httpCost{servers: []*costServer{{ch: ours}}}
	defer func() {
		for _, s := range h.servers {
			s.ch.stop()
		}
	}()
	xs, err := captureHTTP(ours, token, log)
	if err != nil {
		return nil, err
	}
	replies, err := writeReplies(xs)
	if err != nil {
		return nil, err
	}
	defer os.Remove(replies)
	for _, spec := range floorSpecs("http", replies, dir, published) {
		ch, err := startChild(spec)
		if err != nil {
			return nil, err
		}
		h.servers = append(h.servers, &costServer{ch: ch})
		if err := sameHTTPBytes(ch, token, xs[0], log); err != nil {
			return nil, err
		}
	}
	if err := h.warmHeaps(cfg, token, xs, log); err != nil {
		return nil, err
	}
	if err := h.runRounds(cfg, token, xs, log); err != nil {
		return nil, err
	}
	if h.echo, err = echoHTTP(cfg, replies, xs); err != nil {
		return nil, err
	}
	return h, nil
}

// captureHTTP records our server's answer to every entity name of its
// library: the floors answer with them.
func captureHTTP(ours *child, token string, log io.Writer) ([]exchange, error) {
	names := ours.ready.Names
	if len(names) == 0 {
		return nil, errors.New("the library has no entity names to look up")
	}
	fmt.Fprintf(log, "  capturing our answers to %d names ...\n", len(names))
	rec := &recorder{}
	cs, err := httpSession(ours.ready.URL, token, rec)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	xs := make([]exchange, 0, len(names))
	total := 0
	for _, name := range names {
		rec.start()
		payload, err := callText(cs, findArgs(name))
		req, resp := rec.stop()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		xs = append(xs, exchange{Name: name, Request: req, Response: resp, ContentType: rec.contentType, Payload: payload})
		total += len(payload)
	}
	fmt.Fprintf(log, "  our payloads: %d bytes on average\n", total/len(xs))
	return xs, nil
}

// sameHTTPBytes calls find_entity for x's name once and logs whether the
// child answered the bytes our server answered.
func sameHTTPBytes(ch *child, token string, x exchange, log io.Writer) error {
	rec := &recorder{}
	cs, err := httpSession(ch.ready.URL, token, rec)
	if err != nil {
		return err
	}
	defer cs.Close()
	rec.start()
	_, err = callText(cs, findArgs(x.Name))
	_, resp := rec.stop()
	if err == nil {
		sameBytes(log, ch.key, x.Response, resp)
	}
	return err
}

// warmLimit bounds each server's warm-up in warmHeaps.
const warmLimit = 45 * time.Second

// warmHeaps loads every server, a second at a time, until it has been
// through a garbage collection under this load (or for warmLimit). Until
// its first collection, a server that holds the library grows its heap
// into memory it touches for the first time, a page fault for every
// 4 KiB (2 to 6 a call here), which a server that has been up for a while
// no longer pays: the rounds measure the servers in that steady state,
// not in the start-up their place in the collector's cycle puts them in.
func (h *httpCost) warmHeaps(cfg config, token string, xs []exchange, log io.Writer) error {
	second := cfg
	second.duration = time.Second
	for _, s := range h.servers {
		var warm counters
		calls := 0
		start := time.Now()
		for warm.GCs == 0 && time.Since(start) < warmLimit {
			p, err := httpPhase(second, s.ch, token, xs)
			if err != nil {
				return fmt.Errorf("%s: warm-up: %w", s.ch.key, err)
			}
			warm, calls = warm.add(p.srv), calls+p.calls
		}
		fmt.Fprintf(log, "  %s warmed up in %.0f s: %d calls, %d collection(s), %.1f page faults per call\n",
			s.ch.key, time.Since(start).Seconds(), calls, warm.GCs, float64(warm.Faults)/float64(max(calls, 1)))
	}
	return nil
}

// runRounds measures every server once a round for cfg.costRounds rounds;
// round r starts at server r mod the number of servers and goes on in
// order, so that a drift in the machine's load favours none of them.
func (h *httpCost) runRounds(cfg config, token string, xs []exchange, log io.Writer) error {
	k := len(h.servers)
	for r := range cfg.costRounds {
		fmt.Fprintf(log, "  round %d of %d, %s first%s ...\n", r+1, cfg.costRounds, h.servers[r%k].ch.key, loadAvg())
		for j := range k {
			s := h.servers[(r+j)%k]
			p, err := httpPhase(cfg, s.ch, token, xs)
			if err != nil {
				return fmt.Errorf("%s: %w", s.ch.key, err)
			}
			s.rounds = append(s.rounds, p)
		}
	}
	return nil
}

// httpPhase measures cfg.clients go-sdk clients, each with connections
// of its own, calling find_entity on the child over the names of xs.
func httpPhase(cfg config, ch *child, token string, xs []exchange) (*costPhase, error) {
	sessions := make([]*mcp.ClientSession, cfg.clients)
	defer func() {
		for _, cs := range sessions {
			if cs != nil {
				cs.Close()
			}
		}
	}()
	for i := range sessions {
		var err error
		if sessions[i], err = httpSession(ch.ready.URL, token, nil); err != nil {
			return nil, err
		}
	}
	return ch.measure(cfg, cfg.clients, func(client, i int) (int, error) {
		x := xs[(client*7919+i)%len(xs)]
		_, err := callText(sessions[client], findArgs(x.Name))
		return len(x.Response), err
	})
}

// echoHTTP measures cfg.clients plain HTTP clients posting the request
// bodies of xs to the echo floor.
func echoHTTP(cfg config, replies string, xs []exchange) (*costPhase, error) {
	echo, err := startChild(childSpec{key: keyEcho, kind: serverEcho, transport: "http", env: []string{envReplies + "=" + replies}})
	if err != nil {
		return nil, err
	}
	defer echo.stop()
	hcs := make([]*http.Client, cfg.clients)
	for i := range hcs {
		hcs[i] = &http.Client{Transport: &http.Transport{}}
	}
	return echo.measure(cfg, cfg.clients, func(client, i int) (int, error) {
		x := xs[(client*7919+i)%len(xs)]
		req, err := http.NewRequest(http.MethodPost, echo.ready.URL, bytes.NewReader(x.Request))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := hcs[client].Do(req)
		if err != nil {
			return 0, err
		}
		n, err := io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusOK {
			err = fmt.Errorf("echo: %s", resp.Status)
		}
		return int(n), err
	})
}

// callText calls find_entity and returns the text of its result.
func callText(cs *mcp.ClientSession, args map[string]any) (string, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "find_entity", Arguments: args})
	if err != nil {
		return "", err
	}
	if res.IsError || len(res.Content) != 1 {
		return "", errors.New("find_entity returned a tool error")
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return "", errors.New("find_entity returned no text")
	}
	return t.Text, nil
}

// ids are the JSON-RPC ids in a response, which differ between sessions.
var ids = regexp.MustCompile(`"id":[0-9]+`)

// sameBytes logs whether a floor answered the bytes our server answered,
// the JSON-RPC id aside.
func sameBytes(log io.Writer, floor string, ours, theirs []byte) {
	a, b := ids.ReplaceAll(ours, []byte(`"id":0`)), ids.ReplaceAll(theirs, []byte(`"id":0`))
	if bytes.Equal(a, b) {
		fmt.Fprintf(log, "  %s answers the same %d bytes as our server\n", floor, len(ours))
		return
	}
	fmt.Fprintf(log, "  WARNING: %s answers %d bytes, our server %d:\n    ours:   %.300q\n    theirs: %.300q\n", floor, len(theirs), len(ours), a, b)
}

func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

func writeReplies(xs []exchange) (string, error) {
	f, err := os.CreateTemp("", "bourdon-bench-replies-*.json")
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(xs); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// child is a running server child.
type child struct {
	key    string // the server's key
	cmd    *exec.Cmd
	ctl    io.WriteCloser
	answer *json.Decoder
	ready  ready
	stdin  io.WriteCloser // the stdio transport
	stdout io.ReadCloser
}

// childSpec says which server child to start.
type childSpec struct {
	key       string   // the server's key, which also names its profiles
	kind      string   // serverOurs, serverSDK or serverEcho
	transport string   // stdio or http
	exe       string   // the program: "" for this one
	env       []string // more of the child's environment
}

// startChild starts the child of spec and waits until it serves.
func startChild(spec childSpec) (*child, error) {
	exe := spec.exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return nil, err
		}
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envChild+"="+spec.kind, envTransport+"="+spec.transport, envName+"="+spec.key+"-"+spec.transport)
	cmd.Env = append(cmd.Env, spec.env...)
	cmd.Stderr = os.Stderr
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ansR, ansW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{ctlR, ansW}
	c := &child{key: spec.key, cmd: cmd, ctl: ctlW, answer: json.NewDecoder(ansR)}
	if c.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	if c.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, err
	}
	err = cmd.Start()
	ctlR.Close()
	ansW.Close()
	if err != nil {
		return nil, err
	}
	if err := c.answer.Decode(&c.ready); err != nil || c.ready.Error != "" {
		c.stop()
		if err == nil {
			err = errors.New(c.ready.Error)
		}
		return nil, fmt.Errorf("%s server: %w", spec.key, err)
	}
	return c, nil
}

// counters sends the child a command (start or stop of a measured
// phase) and returns its counters.
func (c *child) counters(cmd string) (counters, error) {
	var n counters
	if _, err := io.WriteString(c.ctl, cmd+"\n"); err != nil {
		return n, err
	}
	return n, c.answer.Decode(&n)
}

// stop ends the child (it writes its profiles first) and waits for it.
func (c *child) stop() {
	io.WriteString(c.ctl, "quit\n")
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
}

// stdioSession connects an MCP client to the child's stdio, through rec.
func (c *child) stdioSession(rec *recorder) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-bench", Version: "1"}, nil)
	return client.Connect(context.Background(), &mcp.IOTransport{Reader: rec.reader(c.stdout), Writer: rec.writer(c.stdin)}, nil)
}

// httpSession connects a 2026-07-28 MCP client with its own connections
// and the bearer token, through rec when it is not nil.
func httpSession(url, token string, rec *recorder) (*mcp.ClientSession, error) {
	var rt http.RoundTripper = &bearer{token: token, next: &http.Transport{}}
	if rec != nil {
		rt = rec.roundTripper(rt)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-bench", Version: "1"}, nil)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: rt}}, nil)
}

type bearer struct {
	token string
	next  http.RoundTripper
}

func (b *bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// measure runs clients loops of call for cfg.duration after a warm-up and
// returns the phase with the child's and this process's counters. call
// returns the bytes of the response.
func (c *child) measure(cfg config, clients int, call func(client, i int) (int, error)) (*costPhase, error) {
	for client := range clients {
		for i := range 20 {
			if _, err := call(client, i); err != nil {
				return nil, fmt.Errorf("warm-up: %w", err)
			}
		}
	}
	p := &costPhase{server: c.key}
	type result struct {
		latencies  []time.Duration
		errors, nb int
	}
	results := make([]result, clients)
	srv0, err := c.counters("start")
	if err != nil {
		return nil, err
	}
	cli0 := readCounters()
	start := time.Now()
	deadline := start.Add(cfg.duration)
	var wg sync.WaitGroup
	for client := range clients {
		wg.Go(func() {
			r := &results[client]
			r.latencies = make([]time.Duration, 0, 1<<14)
			for i := 20; ; i++ {
				t0 := time.Now()
				n, err := call(client, i)
				t1 := time.Now()
				if err != nil {
					r.errors++
				} else {
					r.latencies = append(r.latencies, t1.Sub(t0))
					r.nb += n
				}
				if t1.After(deadline) {
					return
				}
			}
		})
	}
	wg.Wait()
	p.wall = time.Since(start)
	p.cli = readCounters().sub(cli0)
	srv1, err := c.counters("stop")
	if err != nil {
		return nil, err
	}
	p.srv = srv1.sub(srv0)
	nb := 0
	for _, r := range results {
		p.latencies = append(p.latencies, r.latencies...)
		p.errors += r.errors
		nb += r.nb
	}
	p.calls = len(p.latencies)
	p.bytes = nb / max(p.calls, 1)
	return p, nil
}

// recorder keeps the bytes that pass while it is started: on a stdio
// session what was written and read, on HTTP the last request and
// response bodies.
type recorder struct {
	mu          sync.Mutex
	on          bool
	req, resp   bytes.Buffer
	contentType string
}

func (r *recorder) start() {
	r.mu.Lock()
	r.on = true
	r.req.Reset()
	r.resp.Reset()
	r.mu.Unlock()
}

// stop returns what was recorded.
func (r *recorder) stop() (req, resp []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on = false
	return bytes.Clone(r.req.Bytes()), bytes.Clone(r.resp.Bytes())
}

func (r *recorder) keep(buf *bytes.Buffer, p []byte) {
	r.mu.Lock()
	if r.on {
		buf.Write(p)
	}
	r.mu.Unlock()
}

func (r *recorder) reader(rc io.ReadCloser) io.ReadCloser { return &recReader{rc, r} }
func (r *recorder) writer(wc io.WriteCloser) io.WriteCloser {
	return &recWriter{wc, r}
}

type recReader struct {
	io.ReadCloser
	r *recorder
}

func (x *recReader) Read(p []byte) (int, error) {
	n, err := x.ReadCloser.Read(p)
	x.r.keep(&x.r.resp, p[:n])
	return n, err
}

type recWriter struct {
	io.WriteCloser
	r *recorder
}

func (x *recWriter) Write(p []byte) (int, error) {
	x.r.keep(&x.r.req, p)
	return x.WriteCloser.Write(p)
}

func (r *recorder) roundTripper(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			var err error
			if body, err = io.ReadAll(req.Body); err != nil {
				return nil, err
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		resp, err := next.RoundTrip(req)
		if err != nil || !bytes.Contains(body, []byte(`"tools/call"`)) {
			return resp, err
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(data))
		r.mu.Lock()
		if r.on {
			r.req.Reset()
			r.req.Write(body)
			r.resp.Reset()
			r.resp.Write(data)
			r.contentType = resp.Header.Get("Content-Type")
		}
		r.mu.Unlock()
		return resp, nil
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
