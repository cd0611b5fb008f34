package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// These benchmarks measure throughput across replicas: real `bourdon
// serve` processes on loopback, MCP clients (2026-07-28, stateless, each
// with connections of its own) in the benchmark's process, and, for the
// PostgreSQL store, the test server of internal/testkit/pgtest. Clients,
// replicas and PostgreSQL share the machine's cores, so besides calls per
// second they report the CPU time each part spent per call, read from
// /proc, and calls per CPU-second of the whole (clients included):
//
//	go test -run '^$' -bench 'Replica(Read|Commit)Throughput' -benchtime 20000x ./cmd/bourdon/
//
// (the commit benchmark takes its own -benchtime better, 400x). Each
// sub-benchmark's ns/op is wall time per call with every client busy:
// 1e9/ns-op is the throughput.

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
// baseline of the same run is one replica serving the library from its
// directory.
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
	for _, c := range rs.groups() {
		b.Run(c.name, func(b *testing.B) {
			sessions := make([]*mcp.ClientSession, throughputClients)
			for i := range sessions {
				sessions[i] = connectOwn(b, c.replicas[i%len(c.replicas)].url)
				for j := range 5 { // warm up, and check that the tool answers
					if err := findOne(sessions[i], names[(i*7919+j)%len(names)]); err != nil {
						b.Fatal(err)
					}
				}
			}
			m := startMeter(b, rs.all(), c.pg)
			failures := runCalls(b.N, len(sessions), func(c, i int) error {
				return findOne(sessions[c], names[(i*7919)%len(names)])
			})
			m.report(b, b.N)
			for _, f := range failures {
				b.Error(f)
			}
		})
	}
}

// BenchmarkReplicaCommitThroughput has writers commit through MCP
// (commit_to_federation, one entity whose summary changes, so that the
// manifest keeps its size): one writer to one agent (the baseline of each
// store), 8 writers to one agent (they queue on the agent's lock: the
// advisory lock on PostgreSQL, across replicas) and 8 writers to 8 agents
// (one each), on one replica of a directory library, and on 1 and on 3
// replicas (writers spread over them) of one PostgreSQL store, both
// durable (fsync on).
//
//	go test -run '^$' -bench ReplicaCommitThroughput -benchtime 400x ./cmd/bourdon/
func BenchmarkReplicaCommitThroughput(b *testing.B) {
	dir := b.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "agents"), 0o755); err != nil {
		b.Fatal(err)
	}
	rs := startBenchReplicas(b, dir, pgtest.Migrated(b))
	for _, store := range rs.groups() {
		for _, shape := range []struct {
			name            string
			writers, agents int
		}{
			{"1-writer-1-agent", 1, 1},
			{"8-writers-1-agent", commitWriters, 1},
			{"8-writers-8-agents", commitWriters, commitWriters},
		} {
			b.Run(store.name+"/"+shape.name, func(b *testing.B) {
				sessions := make([]*mcp.ClientSession, shape.writers)
				for w := range sessions {
					sessions[w] = connectOwn(b, store.replicas[w%len(store.replicas)].url)
				}
				var seq atomic.Int64
				m := startMeter(b, rs.all(), store.pg)
				failures := runCalls(b.N, len(sessions), func(w, i int) error {
					agent := fmt.Sprintf("%s-%s-%d", store.name, shape.name, w%shape.agents)
					res, err := sessions[w].CallTool(context.Background(), &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
						"agent_id": agent, "agent_type": "other",
						"entities": []any{map[string]any{"name": fmt.Sprintf("w%d", w), "summary": fmt.Sprintf("commit %d", seq.Add(1))}},
					}})
					if msg := callFailure(res, err); msg != "" {
						return fmt.Errorf("writer %d: %s", w, msg)
					}
					return nil
				})
				m.report(b, b.N)
				for _, f := range failures {
					b.Error(f)
				}
			})
		}
	}
}

// benchReplicas are the processes both benchmarks measure: one replica
// serving a library directory, and three serving one PostgreSQL store.
type benchReplicas struct {
	onDir   *server
	onStore []*server
	pg      int // the PostgreSQL server's postmaster, or 0 (see postmasterPID)
}

func startBenchReplicas(b *testing.B, dir, url string) *benchReplicas {
	flags := []string{"--allow-unauthenticated", "--rate-limit", "off", "--quiet"}
	rs := &benchReplicas{onDir: startHTTP(b, append([]string{"--library", dir}, flags...)...), pg: postmasterPID(b, url)}
	for range 3 {
		rs.onStore = append(rs.onStore, startHTTP(b, append([]string{"--store", url, "--library", b.TempDir()}, flags...)...))
	}
	return rs
}

// replicaGroup is the replicas the clients of a sub-benchmark are spread
// over, and the postmaster whose CPU counts (0 for none).
type replicaGroup struct {
	name     string
	replicas []*server
	pg       int
}

// groups are the directory replica (the baseline), one PostgreSQL replica
// and all three.
func (rs *benchReplicas) groups() []replicaGroup {
	return []replicaGroup{
		{"dir-1-replica", []*server{rs.onDir}, 0},
		{"postgres-1-replica", rs.onStore[:1], rs.pg},
		{"postgres-3-replicas", rs.onStore, rs.pg},
	}
}

// all lists every replica process: the idle ones' CPU counts too.
func (rs *benchReplicas) all() []*server { return append([]*server{rs.onDir}, rs.onStore...) }

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

// meter reads the CPU time that the replicas, PostgreSQL and this process
// (the clients) have used since it started, and the wall time.
type meter struct {
	replicas []int // process ids
	pg       int   // the postmaster's process id, or 0
	start    time.Time
	cpu0     cpuParts
}

// cpuParts is CPU time (user and system) used so far; machine is that of
// every process on the machine.
type cpuParts struct{ replicas, postgres, clients, machine time.Duration }

func startMeter(b *testing.B, replicas []*server, pg int) *meter {
	m := &meter{pg: pg}
	for _, r := range replicas {
		m.replicas = append(m.replicas, r.cmd.Process.Pid)
	}
	b.ResetTimer()
	m.start, m.cpu0 = time.Now(), m.sample()
	return m
}

func (m *meter) sample() cpuParts {
	var p cpuParts
	for _, pid := range m.replicas {
		p.replicas += processCPU(pid, false)
	}
	if m.pg != 0 {
		p.postgres = processTreeCPU(m.pg)
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		p.clients = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	p.machine = machineCPU()
	return p
}

// report stops the timer and reports, for n calls: calls/s, the CPU time
// per call of the replicas, PostgreSQL and the clients, the cores they kept
// busy on average and those the machine's other processes did, and calls
// per CPU-second, of the whole and of the replicas alone.
func (m *meter) report(b *testing.B, n int) {
	wall := time.Since(m.start)
	cpu1 := m.sample()
	b.StopTimer()
	replicas, postgres, clients := cpu1.replicas-m.cpu0.replicas, cpu1.postgres-m.cpu0.postgres, cpu1.clients-m.cpu0.clients
	total := replicas + postgres + clients
	perCall := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(n) }
	b.ReportMetric(float64(n)/wall.Seconds(), "calls/s")
	b.ReportMetric(perCall(replicas), "replica-cpu-µs/call")
	b.ReportMetric(perCall(postgres), "pg-cpu-µs/call")
	b.ReportMetric(perCall(clients), "client-cpu-µs/call")
	b.ReportMetric(total.Seconds()/wall.Seconds(), "cores-busy")
	if machine := cpu1.machine - m.cpu0.machine; machine > 0 {
		b.ReportMetric(max(machine-total, 0).Seconds()/wall.Seconds(), "others-cores-busy")
	}
	if total > 0 {
		b.ReportMetric(float64(n)/total.Seconds(), "calls/cpu-s")
	}
	if replicas > 0 {
		b.ReportMetric(float64(n)/replicas.Seconds(), "calls/replica-cpu-s")
	}
}

// clockTick is the unit of /proc/<pid>/stat's CPU times (USER_HZ, 100 on
// every Linux this runs on).
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

// processCPU is a process's user and system time, with withChildren that
// of its children waited for too; 0 when it cannot be read.
func processCPU(pid int, withChildren bool) time.Duration {
	f := procStat(pid)
	if len(f) < 15 {
		return 0
	}
	last := 12 // utime, stime are fields 14 and 15; cutime, cstime 16 and 17
	if withChildren {
		last = 14
	}
	var ticks int64
	for _, v := range f[11 : last+1] {
		n, _ := strconv.ParseInt(v, 10, 64)
		ticks += n
	}
	return time.Duration(ticks) * clockTick
}

// processTreeCPU is the CPU time of a PostgreSQL server: the postmaster's
// with its ended children's, and that of its live children (backends and
// background processes).
func processTreeCPU(postmaster int) time.Duration {
	total := processCPU(postmaster, true)
	entries, _ := os.ReadDir("/proc")
	parent := strconv.Itoa(postmaster)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if f := procStat(pid); len(f) > 1 && f[1] == parent {
			total += processCPU(pid, false)
		}
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
