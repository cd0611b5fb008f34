package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// These benchmarks measure throughput across replicas: real `bourdon
// serve` processes on loopback, MCP clients (2026-07-28, stateless, each
// with connections of its own) in the benchmark's process, and, for the
// PostgreSQL store, the test server of internal/testkit/pgtest, all on
// one machine. Clients, replicas and PostgreSQL share its cores (with
// whatever else runs there), so besides calls per second they measure,
// from /proc, the CPU time each part spent per call, and the cores the
// machine's other processes kept busy meanwhile.
//
// The cases of a benchmark take turns, in slices of calls, round after
// round (each round starting with the next case), so that each meets the
// same background load; -benchtime Nx sets the calls per case. Each
// benchmark prints a table of its cases (medians over the slices) and
// reports the ratios between them as metrics (ns/op means nothing here).
//
//	go test -run '^$' -bench ReplicaReadThroughput -benchtime 12000x ./cmd/bourdon/
//	go test -run '^$' -bench ReplicaCommitThroughput -benchtime 300x ./cmd/bourdon/

// throughputClients is how many MCP clients call at once in the read
// benchmark (bench/'s HTTP phase uses 16 as well).
const throughputClients = 16

// commitWriters is how many writers commit at once in the commit
// benchmark's concurrent cases.
const commitWriters = 8

// BenchmarkReplicaReadThroughput has 16 clients call find_entity, over the
// benchmark library's names in turn, through 1 replica and through 3
// replicas (clients spread over them) of one PostgreSQL store holding the
// benchmark library (100 agents x 1,000 entities x 500 sessions); the
// baseline is one replica serving the library from its directory.
func BenchmarkReplicaReadThroughput(b *testing.B) {
	cached := libgen.BenchmarkLibrary(b)
	dir := b.TempDir() // serve writes its state beside the manifests: not into the shared cache
	if err := os.CopyFS(dir, os.DirFS(cached)); err != nil {
		b.Fatal(err)
	}
	url := pgtest.Migrated(b)
	if out, err := exec.Command(binary, "store", "copy", dir, url).CombinedOutput(); err != nil {
		b.Fatalf("store copy: %v\n%s", err, out)
	}
	rs := startBenchReplicas(b, dir, url)
	names := make([]string, libgen.Benchmark.Entities*4) // the shared name space (libgen.EntityName)
	for i := range names {
		names[i] = libgen.EntityName(i)
	}
	var cases []*benchCase
	for _, g := range rs.groups() {
		sessions := make([]*mcp.ClientSession, throughputClients)
		for i := range sessions {
			sessions[i] = connectOwn(b, g.replicas[i%len(g.replicas)].url)
			for j := range 5 { // warm up, and check that the tool answers
				if err := findOne(sessions[i], names[(i*7919+j)%len(names)]); err != nil {
					b.Fatal(err)
				}
			}
		}
		cases = append(cases, &benchCase{name: g.name, clients: len(sessions), call: func(c, i int) error {
			return findOne(sessions[c], names[(i*7919)%len(names)])
		}})
	}
	var tables []string
	defer func() { fmt.Print(strings.Join(tables, "")) }()
	b.Run("find_entity", func(b *testing.B) {
		rs.interleave(b, 1000, cases)
		if b.N > 1 {
			tables = append(tables, table(b.Name(), cases))
		}
		dir, pg1, pg3 := cases[0].tally, cases[1].tally, cases[2].tally
		b.ReportMetric(pg3.rate()/pg1.rate(), "3/1-replicas-calls/s")
		b.ReportMetric(pg3.perCPU(ourCPU)/pg1.perCPU(ourCPU), "3/1-replicas-calls/cpu-s")
		b.ReportMetric(pg1.rate()/dir.rate(), "postgres/dir-calls/s")
		b.ReportMetric(pg1.rate(), "1-replica-calls/s")
		b.ReportMetric(pg3.rate(), "3-replicas-calls/s")
	})
}

// BenchmarkReplicaCommitThroughput has writers commit through MCP
// (commit_to_federation, one entity whose summary changes, so that the
// manifest keeps its size): one writer to one agent (the baseline of each
// store), 8 writers to one agent (they queue on the agent's lock: the
// advisory lock on PostgreSQL, across replicas) and 8 writers to 8 agents
// (one each), on one replica of a directory library, and on 1 and on 3
// replicas (writers spread over them) of one PostgreSQL store, both
// durable (fsync on).
func BenchmarkReplicaCommitThroughput(b *testing.B) {
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "agents"), 0o755); err != nil {
		b.Fatal(err)
	}
	rs := startBenchReplicas(b, dir, pgtest.Migrated(b))
	var (
		cases []*benchCase
		seq   atomic.Int64
	)
	for _, g := range rs.groups() {
		for _, shape := range []struct {
			name            string
			writers, agents int
		}{
			{"1-writer-1-agent", 1, 1},
			{"8-writers-1-agent", commitWriters, 1},
			{"8-writers-8-agents", commitWriters, commitWriters},
		} {
			name := g.name + "/" + shape.name
			agent := g.name + "-" + shape.name // and a number
			sessions := make([]*mcp.ClientSession, shape.writers)
			for w := range sessions {
				sessions[w] = connectOwn(b, g.replicas[w%len(g.replicas)].url)
			}
			cases = append(cases, &benchCase{name: name, clients: len(sessions), call: func(w, _ int) error {
				res, err := sessions[w].CallTool(context.Background(), &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
					"agent_id": fmt.Sprintf("%s-%d", agent, w%shape.agents), "agent_type": "other",
					"entities": []any{map[string]any{"name": fmt.Sprintf("w%d", w), "summary": fmt.Sprintf("commit %d", seq.Add(1))}},
				}})
				if msg := callFailure(res, err); msg != "" {
					return fmt.Errorf("%s writer %d: %s", name, w, msg)
				}
				return nil
			}})
		}
	}
	var tables []string
	defer func() { fmt.Print(strings.Join(tables, "")) }()
	b.Run("commit_to_federation", func(b *testing.B) {
		rs.interleave(b, 50, cases)
		if b.N > 1 {
			tables = append(tables, table(b.Name(), cases))
		}
		for g := range 3 { // per store: its concurrent cases over its one writer
			one, queued, spread := cases[3*g].tally, cases[3*g+1].tally, cases[3*g+2].tally
			store := rs.groups()[g].name
			b.ReportMetric(queued.rate()/one.rate(), store+"-8w1a/1w")
			b.ReportMetric(spread.rate()/one.rate(), store+"-8w8a/1w")
		}
		b.ReportMetric(cases[8].tally.rate()/cases[2].tally.rate(), "postgres-3/dir-8w8a")
	})
}

// benchCase is one configuration a benchmark measures: clients calling
// call (with the client's index and the call's number) at once, and what
// each slice of their calls took.
type benchCase struct {
	name    string
	clients int
	call    func(c, i int) error
	tally   tally
}

// tally holds the slices of calls of one case. Its figures are medians
// over the slices: a burst of the machine's other work spoils a slice or
// two, not the figure.
type tally []slice

// slice is what one slice of calls took.
type slice struct {
	calls int
	wall  time.Duration
	cpu   cpuParts
}

// median returns the median of f over the slices.
func (t tally) median(f func(slice) float64) float64 {
	v := make([]float64, len(t))
	for i, s := range t {
		v[i] = f(s)
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// calls is the number of calls of all slices.
func (t tally) calls() int {
	n := 0
	for _, s := range t {
		n += s.calls
	}
	return n
}

// rate is calls per second with every client busy.
func (t tally) rate() float64 {
	return t.median(func(s slice) float64 { return float64(s.calls) / s.wall.Seconds() })
}

// perCall is the CPU time of one part (see cpuParts) per call, in µs.
func (t tally) perCall(part func(cpuParts) time.Duration) float64 {
	return t.median(func(s slice) float64 { return float64(part(s.cpu).Microseconds()) / float64(s.calls) })
}

// perCPU is calls per CPU-second of the part.
func (t tally) perCPU(part func(cpuParts) time.Duration) float64 {
	return t.median(func(s slice) float64 { return float64(s.calls) / part(s.cpu).Seconds() })
}

// cores is the cores the part kept busy on average.
func (t tally) cores(part func(cpuParts) time.Duration) float64 {
	return t.median(func(s slice) float64 { return part(s.cpu).Seconds() / s.wall.Seconds() })
}

// The parts of cpuParts, for tally's figures.
var (
	replicaCPU = func(p cpuParts) time.Duration { return p.replicas }
	pgCPU      = func(p cpuParts) time.Duration { return p.postgres }
	clientCPU  = func(p cpuParts) time.Duration { return p.clients }
	ourCPU     = cpuParts.ours
	othersCPU  = func(p cpuParts) time.Duration { return max(p.machine-p.ours(), 0) }
)

// interleave makes b.N calls in every case, in slices of at most size
// calls, the cases taking turns; a failed call fails b.
func (rs *benchReplicas) interleave(b *testing.B, size int, cases []*benchCase) {
	for _, c := range cases {
		c.tally = nil
	}
	var failures []string
	b.ResetTimer()
	for round, done := 0, 0; done < b.N; round, done = round+1, done+size {
		n := min(size, b.N-done)
		for j := range cases {
			c := cases[(round+j)%len(cases)]
			procs := rs.processes()
			before, start := procs.sample(false), time.Now()
			failures = append(failures, runCalls(n, c.clients, func(cl, i int) error { return c.call(cl, done+i) })...)
			wall := time.Since(start)
			c.tally = append(c.tally, slice{calls: n, wall: wall, cpu: procs.sample(true).minus(before)})
		}
	}
	b.StopTimer()
	for _, f := range failures[:min(len(failures), 10)] {
		b.Error(f)
	}
}

// table is the figures of the cases (medians over their slices), for
// printing after the benchmark's result line (a benchmark's log keeps 9
// lines only).
func table(name string, cases []*benchCase) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d calls per case, medians over slices of %d:\n", name, cases[0].tally.calls(), cases[0].tally[0].calls)
	fmt.Fprintf(&b, "  %-38s %8s | %-35s | %-17s | %-11s\n", "", "", "CPU µs per call", "calls per CPU-s", "cores busy")
	fmt.Fprintf(&b, "  %-38s %8s | %8s %8s %8s %8s | %8s %8s | %5s %5s\n", "case", "calls/s", "replicas", "postgres", "clients", "all", "all", "replicas", "ours", "other")
	for _, c := range cases {
		t := c.tally
		fmt.Fprintf(&b, "  %-38s %8.1f | %8.0f %8.0f %8.0f %8.0f | %8.0f %8.0f | %5.2f %5.2f\n", c.name, t.rate(),
			t.perCall(replicaCPU), t.perCall(pgCPU), t.perCall(clientCPU), t.perCall(ourCPU),
			t.perCPU(ourCPU), t.perCPU(replicaCPU), t.cores(ourCPU), t.cores(othersCPU))
	}
	return b.String()
}

// benchReplicas are the processes both benchmarks measure: one replica
// serving a library directory, and three serving one PostgreSQL store.
type benchReplicas struct {
	onDir   *server
	onStore []*server
	pg      int // the PostgreSQL server's postmaster, or 0 (see postmasterPID)
}

// startBenchReplicas starts the replicas, each given two minutes to load
// its library (the benchmark library takes seconds, more on a busy
// machine).
func startBenchReplicas(b *testing.B, dir, url string) *benchReplicas {
	start := func(args ...string) *server {
		return startHTTPWithin(b, 2*time.Minute, nil, append([]string{"--port", "0", "--allow-unauthenticated", "--rate-limit", "off", "--quiet"}, args...)...)
	}
	rs := &benchReplicas{onDir: start("--library", dir), pg: postmasterPID(b, url)}
	for range 3 {
		rs.onStore = append(rs.onStore, start("--store", url, "--library", b.TempDir()))
	}
	return rs
}

// replicaGroup is the replicas the clients of a case are spread over.
type replicaGroup struct {
	name     string
	replicas []*server
}

// groups are the directory replica (the baseline), one PostgreSQL replica
// and all three.
func (rs *benchReplicas) groups() []replicaGroup {
	return []replicaGroup{
		{"dir-1-replica", []*server{rs.onDir}},
		{"postgres-1-replica", rs.onStore[:1]},
		{"postgres-3-replicas", rs.onStore},
	}
}

// cpuParts is CPU time (user and system): of every replica (the idle
// ones' too), of PostgreSQL, of this process (the clients), and of every
// process on the machine.
type cpuParts struct{ replicas, postgres, clients, machine time.Duration }

// ours is the CPU time of the replicas, PostgreSQL and the clients.
func (p cpuParts) ours() time.Duration { return p.replicas + p.postgres + p.clients }

func (p cpuParts) minus(q cpuParts) cpuParts {
	return cpuParts{p.replicas - q.replicas, p.postgres - q.postgres, p.clients - q.clients, p.machine - q.machine}
}

func (p cpuParts) plus(q cpuParts) cpuParts {
	return cpuParts{p.replicas + q.replicas, p.postgres + q.postgres, p.clients + q.clients, p.machine + q.machine}
}

// processes are the process ids whose CPU time a slice counts.
type processes struct{ replicas, postgres []int }

// processes lists every replica (the idle ones too) and the PostgreSQL
// server's processes: the postmaster and its children (backends and
// background processes) as they are now.
func (rs *benchReplicas) processes() processes {
	var p processes
	for _, r := range append([]*server{rs.onDir}, rs.onStore...) {
		p.replicas = append(p.replicas, r.cmd.Process.Pid)
	}
	if rs.pg == 0 {
		return p
	}
	p.postgres = []int{rs.pg}
	entries, _ := os.ReadDir("/proc")
	parent := strconv.Itoa(rs.pg)
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil {
			if f := procStat(pid); len(f) > 1 && f[1] == parent {
				p.postgres = append(p.postgres, pid)
			}
		}
	}
	return p
}

// sample reads the CPU time used so far. This process's (the clients')
// and the machine's are read last before a slice and first after it
// (after), so that the sampling itself counts as little as possible.
func (p processes) sample(after bool) cpuParts {
	var c cpuParts
	if after {
		c.clients, c.machine = processCPU(os.Getpid()), machineCPU()
	}
	for _, pid := range p.replicas {
		c.replicas += processCPU(pid)
	}
	for _, pid := range p.postgres {
		c.postgres += processCPU(pid)
	}
	if !after {
		c.machine, c.clients = machineCPU(), processCPU(os.Getpid())
	}
	return c
}

// connectOwn connects a 2026-07-28 client to url with an HTTP client of
// its own, as a separate process would have.
func connectOwn(b *testing.B, url string) *mcp.ClientSession {
	b.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: &http.Transport{}},
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2026-07-28"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// findOne calls find_entity at team level and checks it is no tool error.
func findOne(cs *mcp.ClientSession, name string) error {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "find_entity", Arguments: map[string]any{"name": name, "access_level": "team"}})
	if msg := callFailure(res, err); msg != "" {
		return fmt.Errorf("find_entity %q: %s", name, msg)
	}
	return nil
}

// runCalls makes n calls in all from the given number of clients, each
// calling in a loop of its own (call gets the client's index and the
// call's number, from 1) until the n are taken, and returns the failures
// (at most 10).
func runCalls(n, clients int, call func(c, i int) error) []string {
	var (
		next     atomic.Int64
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
	)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)); i <= n; i = int(next.Add(1)) {
				if err := call(c, i); err != nil {
					mu.Lock()
					if len(failures) < 10 {
						failures = append(failures, err.Error())
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return failures
}

// clockTick is the unit of /proc/stat's CPU times (USER_HZ, 100 on every
// Linux this runs on).
const clockTick = 10 * time.Millisecond

// procStat returns the fields of /proc/<pid>/stat after the command name
// (the first is the state, field 3 of proc(5)), or nil.
func procStat(pid int) []string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return nil
	}
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		return strings.Fields(s[i+1:])
	}
	return nil
}

// processCPU is the time a process's threads have spent on a CPU, in
// nanoseconds from their /proc/<pid>/task/*/schedstat (exact, where the
// tick-based times of /proc/<pid>/stat stall and jump over short
// intervals); 0 when it cannot be read (a process that ended). Threads
// that ended are not counted: Go keeps its threads, and PostgreSQL's
// processes have one.
func processCPU(pid int) time.Duration {
	tasks, _ := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	var total time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/schedstat", pid, t.Name()))
		if err != nil {
			continue
		}
		ns, _ := strconv.ParseInt(strings.Fields(string(data) + " 0")[0], 10, 64)
		total += time.Duration(ns)
	}
	return total
}

// machineCPU is the CPU time every core has spent busy (neither idle
// nor waiting for I/O), from /proc/stat; 0 when it cannot be read.
func machineCPU() time.Duration {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line) // cpu user nice system idle iowait irq softirq steal ...
	if len(f) < 9 || f[0] != "cpu" {
		return 0
	}
	var ticks int64
	for i, v := range f[1:9] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * clockTick
}

// postmasterPID returns the process id of the PostgreSQL server holding
// url, when it runs on this machine (the parent of our backend), else 0:
// PostgreSQL's CPU is then not reported.
func postmasterPID(b *testing.B, url string) int {
	var backend int
	if err := dbConn(b, url).QueryRow(context.Background(), "SELECT pg_backend_pid()").Scan(&backend); err != nil {
		b.Fatal(err)
	}
	f := procStat(backend)
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}
