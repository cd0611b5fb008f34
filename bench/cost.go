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
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// What one call costs: find_entity of our server against two floors
// measured in the same run, each server in a child process of its own
// (child.go) so that its CPU time and allocation are counted apart from
// the clients':
//
//   - the go-sdk floor, a minimal go-sdk server whose one tool answers
//     the payloads our server answered, byte for byte;
//   - the echo floor, which answers the request bytes our server was sent
//     with the response bytes it wrote, without parsing anything, over the
//     same pipes (stdio) or the same net/http server (HTTP).

// costPhase is one server measured under one load.
type costPhase struct {
	server    string
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
func (p *costPhase) rate() float64 { return float64(p.calls) / p.wall.Seconds() }

// costRun measures the stdio and the HTTP costs and prints their table.
// It returns whether both goals over HTTP were met.
func costRun(cfg config, out, log io.Writer) (bool, error) {
	fmt.Fprintf(log, "what one call costs: every server in a child process%s\n", loadAvg())
	if cfg.costProfile != "" {
		if err := os.MkdirAll(cfg.costProfile, 0o755); err != nil {
			return false, err
		}
		os.Setenv(envProfile, cfg.costProfile) // the children inherit it
	}
	stdio, err := costStdio(cfg, log)
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
	web, err := costHTTP(cfg, dir, log)
	if err != nil {
		return false, fmt.Errorf("http: %w", err)
	}
	fmt.Fprintf(log, "done%s\n", loadAvg())
	return printCost(out, cfg, stdio, web), nil
}

// costStdio measures one client calling find_entity in a loop over stdio
// on the seed library, against each server in turn.
func costStdio(cfg config, log io.Writer) ([]*costPhase, error) {
	args := map[string]any{"name": "Bourdon", "access_level": level.String()}
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
	ours, err := startChild(serverOurs, "stdio", envLibrary+"="+seed)
	if err != nil {
		return nil, err
	}
	rec := &recorder{}
	cs, err := ours.stdioSession(rec)
	if err != nil {
		ours.stop()
		return nil, err
	}
	rec.start()
	payload, err := callText(cs, args)
	req, resp := rec.stop()
	if err != nil {
		ours.stop()
		return nil, err
	}
	x := exchange{Name: "Bourdon", Request: firstLine(req), Response: append(firstLine(resp), '\n'), Payload: payload}
	fmt.Fprintf(log, "  our payload: %d bytes (response line %d bytes)\n", len(payload), len(x.Response))
	sdkCall := func(cs *mcp.ClientSession) func(int, int) (int, error) {
		return func(_, _ int) (int, error) {
			_, err := callText(cs, args)
			return len(x.Response), err
		}
	}
	oursPhase, err := ours.measure(cfg, 1, sdkCall(cs))
	cs.Close()
	ours.stop()
	if err != nil {
		return nil, err
	}

	replies, err := writeReplies([]exchange{x})
	if err != nil {
		return nil, err
	}
	defer os.Remove(replies)
	sdk, err := startChild(serverSDK, "stdio", envReplies+"="+replies)
	if err != nil {
		return nil, err
	}
	rec = &recorder{}
	cs, err = sdk.stdioSession(rec)
	if err != nil {
		sdk.stop()
		return nil, err
	}
	rec.start()
	_, err = callText(cs, args)
	_, floorResp := rec.stop()
	if err == nil {
		sameBytes(log, "go-sdk floor", x.Response, append(firstLine(floorResp), '\n'))
	}
	sdkPhase, err := sdk.measure(cfg, 1, sdkCall(cs))
	cs.Close()
	sdk.stop()
	if err != nil {
		return nil, err
	}

	echo, err := startChild(serverEcho, "stdio", envReplies+"="+replies)
	if err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(echo.stdout, 1<<20)
	line := append(slices.Clip(x.Request), '\n')
	echoPhase, err := echo.measure(cfg, 1, func(_, _ int) (int, error) {
		if _, err := echo.stdin.Write(line); err != nil {
			return 0, err
		}
		got, err := r.ReadSlice('\n')
		return len(got), err
	})
	echo.stop()
	if err != nil {
		return nil, err
	}
	oursPhase.server, sdkPhase.server, echoPhase.server = "bourdon", "go-sdk floor", "echo floor"
	return []*costPhase{echoPhase, sdkPhase, oursPhase}, nil
}

// costHTTP measures cfg.clients clients calling find_entity in a loop
// over streamable HTTP (2026-07-28) on the benchmark library, against
// each server in turn. Our server authenticates every call with a
// registry member's bearer token, as bourdon serve --transport http does.
func costHTTP(cfg config, dir string, log io.Writer) ([]*costPhase, error) {
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
	fmt.Fprintf(log, "HTTP, %s, %d clients, %s per server; our server loads the library ...\n", dir, cfg.clients, cfg.duration)
	ours, err := startChild(serverOurs, "http", envLibrary+"="+dir, envRegistry+"="+regPath)
	if err != nil {
		return nil, err
	}
	names := ours.ready.Names
	if len(names) == 0 {
		ours.stop()
		return nil, errors.New("the library has no entity names to look up")
	}
	// Capture our answer to every name: the floors answer with it.
	fmt.Fprintf(log, "  capturing our answers to %d names ...\n", len(names))
	rec := &recorder{}
	cs, err := httpSession(ours.ready.URL, token, rec)
	if err != nil {
		ours.stop()
		return nil, err
	}
	xs := make([]exchange, 0, len(names))
	total := 0
	for _, name := range names {
		rec.start()
		payload, err := callText(cs, map[string]any{"name": name, "access_level": level.String()})
		req, resp := rec.stop()
		if err != nil {
			cs.Close()
			ours.stop()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		xs = append(xs, exchange{Name: name, Request: req, Response: resp, ContentType: rec.contentType, Payload: payload})
		total += len(payload)
	}
	cs.Close()
	byName := map[string]exchange{}
	for _, x := range xs {
		byName[x.Name] = x
	}
	fmt.Fprintf(log, "  our payloads: %d bytes on average\n", total/len(xs))
	sdkLoad := func(url string) (func(int, int) (int, error), func(), error) {
		sessions := make([]*mcp.ClientSession, cfg.clients)
		closeAll := func() {
			for _, cs := range sessions {
				if cs != nil {
					cs.Close()
				}
			}
		}
		for i := range sessions {
			if sessions[i], err = httpSession(url, token, nil); err != nil {
				closeAll()
				return nil, nil, err
			}
		}
		return func(client, i int) (int, error) {
			name := names[(client*7919+i)%len(names)]
			_, err := callText(sessions[client], map[string]any{"name": name, "access_level": level.String()})
			return len(byName[name].Response), err
		}, closeAll, nil
	}
	phaseOf := func(ch *child) (*costPhase, error) {
		call, closeAll, err := sdkLoad(ch.ready.URL)
		if err != nil {
			return nil, err
		}
		defer closeAll()
		return ch.measure(cfg, cfg.clients, call)
	}
	oursPhase, err := phaseOf(ours)
	ours.stop()
	if err != nil {
		return nil, err
	}

	replies, err := writeReplies(xs)
	if err != nil {
		return nil, err
	}
	defer os.Remove(replies)
	var floors []*costPhase
	for _, hold := range []string{"", dir} {
		sdk, err := startChild(serverSDK, "http", envReplies+"="+replies, envHold+"="+hold)
		if err != nil {
			return nil, err
		}
		if hold == "" {
			rec = &recorder{}
			if cs, err = httpSession(sdk.ready.URL, token, rec); err == nil {
				rec.start()
				_, err = callText(cs, map[string]any{"name": xs[0].Name, "access_level": level.String()})
				_, floorResp := rec.stop()
				cs.Close()
				if err == nil {
					sameBytes(log, "go-sdk floor", xs[0].Response, floorResp)
				}
			}
			if err != nil {
				sdk.stop()
				return nil, err
			}
		}
		p, err := phaseOf(sdk)
		sdk.stop()
		if err != nil {
			return nil, err
		}
		floors = append(floors, p)
	}

	echo, err := startChild(serverEcho, "http", envReplies+"="+replies)
	if err != nil {
		return nil, err
	}
	hcs := make([]*http.Client, cfg.clients)
	for i := range hcs {
		hcs[i] = &http.Client{Transport: &http.Transport{}}
	}
	echoPhase, err := echo.measure(cfg, cfg.clients, func(client, i int) (int, error) {
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
	echo.stop()
	if err != nil {
		return nil, err
	}
	oursPhase.server, floors[0].server, floors[1].server, echoPhase.server = "bourdon", "go-sdk floor", "go-sdk floor + library heap", "echo floor"
	return []*costPhase{echoPhase, floors[0], oursPhase, floors[1]}, nil
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
		fmt.Fprintf(log, "  the %s answers the same %d bytes as our server\n", floor, len(ours))
		return
	}
	fmt.Fprintf(log, "  WARNING: the %s answers %d bytes, our server %d:\n    ours:   %.300q\n    theirs: %.300q\n", floor, len(theirs), len(ours), a, b)
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
	cmd    *exec.Cmd
	ctl    io.WriteCloser
	answer *json.Decoder
	ready  ready
	stdin  io.WriteCloser // the stdio transport
	stdout io.ReadCloser
}

// startChild starts this program as the given server with the given
// environment and waits until it serves.
func startChild(server, transport string, env ...string) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), append([]string{envChild + "=" + server, envTransport + "=" + transport}, env...)...)
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
	c := &child{cmd: cmd, ctl: ctlW, answer: json.NewDecoder(ansR)}
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
		return nil, fmt.Errorf("%s server: %w", server, err)
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
	p := &costPhase{}
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

// printCost writes the table of both transports and the ratios, and
// returns whether the HTTP goals were met.
func printCost(w io.Writer, cfg config, stdio, web []*costPhase) bool {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "transport\tserver\tcalls (errors)\tcalls/s\tp50\tresponse\tserver CPU/call\tcalls per server CPU-s\tserver alloc/call\tserver objects/call\tclient alloc/call")
	fmt.Fprintln(tw, "---------\t------\t--------------\t-------\t---\t--------\t---------------\t----------------------\t-----------------\t-------------------\t-----------------")
	for _, g := range []struct {
		name   string
		phases []*costPhase
	}{{"stdio, seed library, 1 client", stdio}, {fmt.Sprintf("HTTP, benchmark library, %d clients", cfg.clients), web}} {
		for _, p := range g.phases {
			fmt.Fprintf(tw, "%s\t%s\t%d (%d)\t%.0f\t%s\t%d B\t%s\t%.0f\t%.1f KiB\t%.0f\t%.1f KiB\n",
				g.name, p.server, p.calls, p.errors, p.rate(), fmtDur(pct(p.latencies, 50)), p.bytes,
				fmtDur(p.serverCPUPerCall()), p.callsPerServerCPUSecond(),
				p.perCall(float64(p.srv.AllocBytes))/1024, p.perCall(float64(p.srv.AllocObjects)), p.perCall(float64(p.cli.AllocBytes))/1024)
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "same-run ratio\ttime per call\tserver CPU per call\tserver alloc per call")
	fmt.Fprintln(tw, "--------------\t-------------\t-------------------\t---------------------")
	ratio := func(label string, a, b *costPhase) {
		alloc := "n/a (the floor allocates nothing)"
		if bb := b.perCall(float64(b.srv.AllocBytes)); bb >= 64 {
			alloc = fmt.Sprintf("%.2fx", a.perCall(float64(a.srv.AllocBytes))/bb)
		}
		fmt.Fprintf(tw, "%s\t%.2fx\t%.2fx\t%s\n", label, b.rate()/a.rate(),
			float64(a.serverCPUPerCall())/float64(b.serverCPUPerCall()), alloc)
	}
	for _, g := range []struct {
		name   string
		phases []*costPhase
	}{{"stdio", stdio}, {"HTTP", web}} {
		echo, sdk, ours := g.phases[0], g.phases[1], g.phases[2]
		ratio(g.name+": bourdon / go-sdk floor", ours, sdk)
		ratio(g.name+": bourdon / echo floor", ours, echo)
		ratio(g.name+": go-sdk floor / echo floor", sdk, echo)
		if len(g.phases) > 3 {
			ratio(g.name+": bourdon / go-sdk floor + library heap", ours, g.phases[3])
		}
	}
	tw.Flush()
	fmt.Fprintln(w)
	ours, sdk := web[2], web[1]
	alloc := ours.perCall(float64(ours.srv.AllocBytes))
	cpu := ours.callsPerServerCPUSecond() / sdk.callsPerServerCPUSecond()
	allocOK, cpuOK := alloc <= 32<<10 && ours.errors == 0, cpu >= 0.8
	fmt.Fprintf(w, "goal: server-side allocation per find_entity over HTTP <= 32 KiB: %.1f KiB  %s\n", alloc/1024, check(allocOK))
	fmt.Fprintf(w, "goal: HTTP calls per server CPU-second >= 0.8x the go-sdk floor's: %.2fx (%.0f vs %.0f)  %s\n", cpu, ours.callsPerServerCPUSecond(), sdk.callsPerServerCPUSecond(), check(cpuOK))
	return allocOK && cpuOK
}

// seedLibrary is the library of the conformance fixtures, relative to the
// module root (where go run ./bench runs).
var seedLibrary = filepath.Join("testdata", "conformance", "fed_seed_library")
