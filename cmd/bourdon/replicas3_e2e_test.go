package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// replicaCommits is how many commits each writer of the three-replica
// tests makes: BOURDON_REPLICA_COMMITS, else 200 (issue 19's figure).
func replicaCommits(t testing.TB) int {
	if v := os.Getenv("BOURDON_REPLICA_COMMITS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("BOURDON_REPLICA_COMMITS=%q: want a positive count", v)
		}
		return n
	}
	return 200
}

// replicaSet is three `bourdon serve --store` sharing one database and its
// registry of trusted members, one bearer token per writer.
type replicaSet struct {
	url      string
	replicas []*server
	tokens   []string
}

func startReplicas(t *testing.T, url string, n, writers int) *replicaSet {
	t.Helper()
	rs := &replicaSet{url: url}
	for w := range writers {
		rs.tokens = append(rs.tokens, addMember(t, url, fmt.Sprintf("writer-%d", w), "--tier", "trusted"))
	}
	for range n {
		rs.replicas = append(rs.replicas, startHTTP(t, "--store", url, "--library", t.TempDir(), "--rate-limit", "off", "--quiet"))
	}
	return rs
}

// session connects writer w to replica r with its token.
func (rs *replicaSet) session(t *testing.T, r, w int) *mcp.ClientSession {
	t.Helper()
	cs, err := connectAs(t, rs.replicas[r].url, rs.tokens[w], "2026-07-28")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// commitEntity commits one entity named name to agent, bounded by a
// minute (a call that outlives it is a hang).
func commitEntity(cs *mcp.ClientSession, agent, name string) (*mcp.CallToolResult, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return cs.CallTool(ctx, &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
		"agent_id": agent, "agent_type": "other",
		"entities": []any{map[string]any{"name": name, "summary": "e2e"}},
	}})
}

// callFailure says how a tool call failed: its error, or its tool
// error's text; "" when it succeeded.
func callFailure(res *mcp.CallToolResult, err error) string {
	if err != nil {
		return err.Error()
	}
	if res.IsError {
		text, _ := mcptest.SingleText(res)
		return "tool error: " + text
	}
	return ""
}

// entityNames reads agent's memory resource through cs.
func entityNames(t *testing.T, cs *mcp.ClientSession, agent string) string {
	t.Helper()
	text, err := readEntityNames(cs, agent)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// readEntityNames is entityNames with its error returned.
func readEntityNames(cs *mcp.ClientSession, agent string) (string, error) {
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "agent-library://agents/" + agent + "/memory"})
	if err != nil {
		return "", err
	}
	return res.Contents[0].Text, nil
}

// unavailable reports whether err is a replica's 503: its registry could
// not be read. Right after a partition heals, a request that lands on a
// pooled connection which went silent during the partition waits out the
// store's bound and is answered 503; the pool then drops the connection.
func unavailable(err error) bool {
	return err != nil && strings.Contains(err.Error(), "Service Unavailable")
}

// waitForAll waits until agent's memory, read through every replica,
// holds every name in want (the go test timeout bounds the wait; a 503
// is waited out, see unavailable); exact, it also fails on more entities
// than want names.
func (rs *replicaSet) waitForAll(t *testing.T, agent string, want []string, exact bool) {
	t.Helper()
	for r := range rs.replicas {
		var cs *mcp.ClientSession
		for cs == nil {
			var err error
			if cs, err = connectAs(t, rs.replicas[r].url, rs.tokens[0], "2026-07-28"); unavailable(err) {
				time.Sleep(20 * time.Millisecond)
			} else if err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() { cs.Close() })
		for {
			text, err := readEntityNames(cs, agent)
			if unavailable(err) {
				time.Sleep(20 * time.Millisecond)
				continue
			} else if err != nil {
				t.Fatal(err)
			}
			missing := 0
			for _, name := range want {
				if !strings.Contains(text, `"name":"`+name+`"`) {
					missing++
				}
			}
			n := strings.Count(text, `"name":"w`)
			if exact && n > len(want) {
				t.Fatalf("replica %d: %s holds %d entities, %d written", r, agent, n, len(want))
			}
			if missing == 0 && (!exact || n == len(want)) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// rowCounts returns agent's manifest version and its provenance and
// archived-version row counts, read from the database.
func rowCounts(t *testing.T, url, agent string) (version, records, archived int64) {
	t.Helper()
	ctx := context.Background()
	err := dbConn(t, url).QueryRow(ctx, `SELECT (SELECT version FROM bourdon_manifests WHERE agent_id = $1),
		(SELECT count(*) FROM bourdon_provenance WHERE agent_id = $1),
		(SELECT count(*) FROM bourdon_versions WHERE agent_id = $1)`, agent).Scan(&version, &records, &archived)
	if err != nil {
		t.Fatal(err)
	}
	return version, records, archived
}

// TestThreeReplicasEightWriters runs three `bourdon serve --store` on one
// database; 8 writers with their own bearer tokens, spread over the
// replicas, each commit replicaCommits entities, two writers on different
// replicas per agent. Every commit is acknowledged, every replica ends up
// serving every entity, and in the database each agent's version,
// provenance records and archived versions count one per commit.
func TestThreeReplicasEightWriters(t *testing.T) {
	const writers, agents = 8, 4
	commits := replicaCommits(t)
	rs := startReplicas(t, pgtest.Migrated(t), 3, writers)
	var wg sync.WaitGroup
	failures := make(chan string, writers*commits)
	for w := range writers {
		cs := rs.session(t, w%3, w)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range commits {
				res, err := commitEntity(cs, fmt.Sprintf("team-%d", w%agents), fmt.Sprintf("w%d-c%d", w, i))
				if msg := callFailure(res, err); msg != "" {
					failures <- fmt.Sprintf("writer %d commit %d: %s", w, i, msg)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	for a := range agents {
		agent := fmt.Sprintf("team-%d", a)
		var want []string
		for w := a; w < writers; w += agents {
			for i := range commits {
				want = append(want, fmt.Sprintf("w%d-c%d", w, i))
			}
		}
		rs.waitForAll(t, agent, want, true)
		n := int64(len(want))
		if version, records, archived := rowCounts(t, rs.url, agent); version != n || records != n || archived != n-1 {
			t.Errorf("%s: version %d, %d provenance records, %d archived versions for %d commits", agent, version, records, archived, n)
		}
	}
}

// commitLoop commits entity w<w>-c<i> to agent through cs for i = 0, 1,
// ... until done closes or handle, given each call's outcome, returns
// false.
func commitLoop(cs *mcp.ClientSession, w int, agent string, done <-chan struct{}, handle func(name string, res *mcp.CallToolResult, err error) bool) {
	for i := 0; ; i++ {
		select {
		case <-done:
			return
		default:
		}
		name := fmt.Sprintf("w%d-c%d", w, i)
		if res, err := commitEntity(cs, agent, name); !handle(name, res, err) {
			return
		}
	}
}

// checkAcknowledged waits until every replica serves every acknowledged
// name (by agent), and checks that each agent's rows are whole: one
// provenance record per manifest version, one archived version per write
// but the first, and at least as many writes as acknowledgements (a write
// whose answer was lost may be there too).
func (rs *replicaSet) checkAcknowledged(t *testing.T, acked map[string][]string) {
	t.Helper()
	for agent, names := range acked {
		rs.waitForAll(t, agent, names, false)
		version, records, archived := rowCounts(t, rs.url, agent)
		if records != version || archived != version-1 || version < int64(len(names)) {
			t.Errorf("%s: version %d, %d provenance records, %d archived versions, %d acknowledged commits", agent, version, records, archived, len(names))
		}
	}
}

// TestThreeReplicasSurviveADatabaseRestart stops PostgreSQL (a fast
// shutdown) under three replicas while writers commit through all of
// them, and starts it again: meanwhile every call ends, as a tool error
// saying the store failed or as a 503 because the registry (in the
// database too) cannot be read (never another transport error or a hang:
// each call is bounded by a minute); afterwards the replicas write again, every
// replica serves every acknowledged commit, and the database holds each
// write whole (one provenance record per version, one archived version per
// write but the first).
func TestThreeReplicasSurviveADatabaseRestart(t *testing.T) {
	const writers, agents = 3, 2
	db := pgtest.NewServer(t)
	rs := startReplicas(t, db.Migrated(t), 3, writers)
	run := rs.startWriters(t, writers, agents)
	run.waitAcks(30)
	db.Stop(t)
	for range 3 * writers {
		text := <-run.refusals
		if !strings.Contains(text, "the store "+postgres.Redact(rs.url)+" failed: ") && !strings.Contains(text, "Service Unavailable") {
			t.Errorf("a commit while the database is down: %q does not say the store failed", text)
		}
	}
	run.drainAcks() // commits acknowledged before the stop
	db.Start(t)
	run.waitAcks(30) // the replicas write again
	run.stop(t)
	t.Logf("%d more commits refused while the database was down or starting", len(run.refusals))
	rs.checkAcknowledged(t, run.acked)
}

// writerRun is writers committing through the replicas until stopped,
// for the tests that break the database under them: what was
// acknowledged, the tool errors (refusals), and the transport errors,
// which must never happen.
type writerRun struct {
	mu        sync.Mutex
	acked     map[string][]string // agent -> acknowledged names
	transport []string
	refusals  chan string   // each tool error's text
	acks      chan struct{} // one per acknowledged commit
	done      chan struct{}
	wg        sync.WaitGroup
}

// startWriters starts writer w committing to team-<w%agents> through
// replica w%3, each with its own token, until stop.
func (rs *replicaSet) startWriters(t *testing.T, writers, agents int) *writerRun {
	run := &writerRun{acked: map[string][]string{}, refusals: make(chan string, 100000), acks: make(chan struct{}, 100000), done: make(chan struct{})}
	for w := range writers {
		cs := rs.session(t, w%3, w)
		agent := fmt.Sprintf("team-%d", w%agents)
		run.wg.Add(1)
		go func() {
			defer run.wg.Done()
			commitLoop(cs, w, agent, run.done, func(name string, res *mcp.CallToolResult, err error) bool {
				switch {
				case unavailable(err):
					// The registry is in the database too: while it
					// cannot be read, nobody is authenticated (503).
					run.refusals <- err.Error()
				case err != nil:
					run.mu.Lock()
					run.transport = append(run.transport, fmt.Sprintf("writer %d: %v", w, err))
					run.mu.Unlock()
					return false
				case res.IsError:
					text, _ := mcptest.SingleText(res)
					run.refusals <- text
				default:
					run.mu.Lock()
					run.acked[agent] = append(run.acked[agent], name)
					run.mu.Unlock()
					run.acks <- struct{}{}
				}
				return true
			})
		}()
	}
	return run
}

// waitAcks waits for n more acknowledged commits.
func (run *writerRun) waitAcks(n int) {
	for range n {
		<-run.acks
	}
}

// drainAcks forgets the acknowledgements not waited for yet.
func (run *writerRun) drainAcks() {
	for len(run.acks) > 0 {
		<-run.acks
	}
}

// stop stops the writers, waits for them, and fails t for every
// transport error.
func (run *writerRun) stop(t *testing.T) {
	t.Helper()
	close(run.done)
	run.wg.Wait()
	for _, e := range run.transport {
		t.Errorf("not a tool error: %s", e)
	}
}

// TestOneOfThreeReplicasKilledWhileTheOthersGoOn SIGKILLs one of three
// replicas while 6 writers (two through each) commit to agents shared
// across replicas: the writers of the other two replicas never fail and
// go on committing, both survivors serve every acknowledged commit, and
// every agent's rows are whole (the killed replica's write in flight is
// all there or not at all).
func TestOneOfThreeReplicasKilledWhileTheOthersGoOn(t *testing.T) {
	const writers, agents = 6, 2
	rs := startReplicas(t, pgtest.Migrated(t), 3, writers)
	var (
		mu       sync.Mutex
		acked    = map[string][]string{}
		failures []string
		wg       sync.WaitGroup
	)
	survivorAcks := make(chan struct{}, 100000)
	done := make(chan struct{})
	for w := range writers {
		r := w % 3
		cs := rs.session(t, r, w)
		agent := fmt.Sprintf("team-%d", w%agents)
		wg.Add(1)
		go func() {
			defer wg.Done()
			commitLoop(cs, w, agent, done, func(name string, res *mcp.CallToolResult, err error) bool {
				if msg := callFailure(res, err); msg != "" {
					if r != 0 {
						mu.Lock()
						failures = append(failures, fmt.Sprintf("writer %d on replica %d: %s", w, r, msg))
						mu.Unlock()
					}
					return false // replica 0 is gone
				}
				mu.Lock()
				acked[agent] = append(acked[agent], name)
				mu.Unlock()
				if r != 0 {
					survivorAcks <- struct{}{}
				}
				return true
			})
		}()
	}
	for range 20 {
		<-survivorAcks
	}
	rs.replicas[0].cmd.Process.Kill()
	for len(survivorAcks) > 0 {
		<-survivorAcks
	}
	for range 40 { // the others go on
		<-survivorAcks
	}
	close(done)
	wg.Wait()
	for _, f := range failures {
		t.Error(f)
	}
	rs.replicas = rs.replicas[1:]
	rs.checkAcknowledged(t, acked)
}
