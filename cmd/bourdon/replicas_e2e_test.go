package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestReplicasShareAPostgresStore runs two `bourdon serve --store` on one
// database: writers spread over both commit concurrently and lose
// nothing, and a write through one replica becomes visible through the
// other (through LISTEN/NOTIFY; the test waits for it, the go test timeout
// bounds the wait).
func TestReplicasShareAPostgresStore(t *testing.T) {
	url := pgtest.Migrated(t)
	var replicas []*server
	for range 2 {
		s := startHTTP(t, "--store", url, "--library", t.TempDir(), "--allow-unauthenticated", "--quiet")
		replicas = append(replicas, s)
	}
	const writers, commits = 4, 15
	var wg sync.WaitGroup
	failures := make(chan string, writers*commits)
	for w := range writers {
		cs := replicas[w%len(replicas)].connect(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range commits {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
					"agent_id": "team", "agent_type": "other",
					"entities": []any{map[string]any{"name": fmt.Sprintf("w%d-c%d", w, i), "summary": "from writer " + fmt.Sprint(w)}},
				}})
				if err != nil || res.IsError {
					text, _ := mcptest.SingleText(res)
					failures <- fmt.Sprintf("writer %d commit %d: %v %s", w, i, err, text)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	for _, r := range replicas {
		cs := r.connect(t)
		for {
			res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "agent-library://agents/team/memory"})
			if err != nil {
				t.Fatal(err)
			}
			if n := strings.Count(res.Contents[0].Text, `"name":"w`); n == writers*commits {
				break
			} else if n > writers*commits {
				t.Fatalf("%d entities, %d written", n, writers*commits)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// A write through replica 0 is read through replica 1, and replica 1's
	// subscriber to the agent's memory is told.
	updated := make(chan string, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	})
	b, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: replicas[1].url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const memory = "agent-library://agents/team/memory"
	if err := b.Subscribe(context.Background(), &mcp.SubscribeParams{URI: memory}); err != nil {
		t.Fatal(err)
	}
	a := replicas[0].connect(t)
	if _, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
		"agent_id": "team", "entities": []any{map[string]any{"name": "Late Entity", "summary": "written through replica 0"}},
	}}); err != nil {
		t.Fatal(err)
	}
	for {
		payload, _ := mcptest.CallJSON(t, b, "find_entity", map[string]any{"name": "late entity"})
		if data, _ := json.Marshal(payload); strings.Contains(string(data), "written through replica 0") {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for uri := range updated {
		if uri == memory {
			break
		}
	}
}

// TestToolsAnswerAlikeOnBothStores serves the seed library from its
// directory and, copied, from PostgreSQL: every tool answers the same on
// both (paths aside), and the whole end-to-end exercise passes on the
// PostgreSQL one.
func TestToolsAnswerAlikeOnBothStores(t *testing.T) {
	dirLib := seedLibrary(t)
	url := pgtest.Migrated(t)
	pg := pgtest.Open(t, url)
	if _, err := commit.Copy(context.Background(), commit.New(seedLibrary(t)).Store(), pg); err != nil {
		t.Fatal(err)
	}
	onDir := startHTTP(t, "--library", dirLib, "--allow-unauthenticated", "--quiet")
	pgLib := t.TempDir()
	onPG := startHTTP(t, "--store", url, "--library", pgLib, "--allow-unauthenticated", "--quiet")
	a, b := onDir.connect(t), onPG.connect(t)
	normal := func(v any) string {
		if m, ok := v.(map[string]any); ok {
			delete(m, "recognition_latency_us") // a measured time
		}
		data, _ := json.Marshal(v)
		s := strings.ReplaceAll(string(data), dirLib+"/agents/", "AGENTS/")
		s = strings.ReplaceAll(s, postgres.Redact(url)+"/agents/", "AGENTS/")
		s = strings.ReplaceAll(s, dirLib, "LIB")
		return strings.ReplaceAll(s, pgLib, "LIB")
	}
	answersAlike(t, a, b, normal, "on PostgreSQL", "directory")
	exercise(t, b)
}

// answersAlike calls every tool of toolCalls but the writes and the
// reload through a and b, and fails t when an answer of b differs from
// a's once normal has rewritten both (what and wantWhat name b's and a's
// side in the messages).
func answersAlike(t *testing.T, a, b *mcp.ClientSession, normal func(any) string, what, wantWhat string) {
	t.Helper()
	for _, c := range toolCalls {
		if c.tool == "commit_to_federation" || c.tool == "request_intake" || c.tool == "reload_library" {
			continue // writes and a reload: their answers carry the time of the call
		}
		var want, got any
		if c.fails != "" { // a tool error: its text
			for cs, v := range map[*mcp.ClientSession]*any{a: &want, b: &got} {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil {
					t.Fatal(err)
				}
				*v, _ = mcptest.SingleText(res)
			}
		} else {
			want, _ = mcptest.CallJSON(t, a, c.tool, c.args)
			got, _ = mcptest.CallJSON(t, b, c.tool, c.args)
		}
		if normal(got) != normal(want) {
			t.Errorf("%s answers differently %s:\n%s\nwant (%s)\n%s", c.tool, what, normal(got), wantWhat, normal(want))
		}
	}
}

// TestReplicaKilledMidCommitsLeavesNoPartialState SIGKILLs a replica
// while writers commit through it: in the database, every agent's
// manifest is the state its last provenance record produced, each write
// but the first archived exactly one version, and every acknowledged
// commit is there.
func TestReplicaKilledMidCommitsLeavesNoPartialState(t *testing.T) {
	url := pgtest.Migrated(t)
	s := startHTTP(t, "--store", url, "--library", t.TempDir(), "--allow-unauthenticated", "--quiet")
	const writers = 3
	acked := make(chan string, 10000)
	var wg sync.WaitGroup
	for w := range writers {
		cs := s.connect(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				name := fmt.Sprintf("w%d-c%d", w, i)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "commit_to_federation", Arguments: map[string]any{
					"agent_id": fmt.Sprintf("agent-%d", w%2), "agent_type": "other", "entities": []any{map[string]any{"name": name}},
				}})
				if err != nil || res.IsError {
					return // the replica is gone
				}
				acked <- name
			}
		}()
	}
	// Kill the replica once every writer has had commits acknowledged (on
	// a busy machine one writer may start late), and at least 30 in all.
	var early []string
	perWriter := map[string]int{}
	timeout := time.After(2 * time.Minute)
	for len(early) < 30 || len(perWriter) < writers {
		select {
		case name := <-acked:
			early = append(early, name)
			perWriter[strings.SplitN(name, "-", 2)[0]]++
		case <-timeout:
			t.Fatalf("acknowledged commits per writer after 2 minutes: %v", perWriter)
		}
	}
	s.cmd.Process.Kill()
	wg.Wait()
	close(acked)

	ctx := context.Background()
	w := commit.OnStore(pgtest.Open(t, url))
	stored := map[string]bool{}
	for _, id := range []string{"agent-0", "agent-1"} {
		changes, err := w.Changes(id)
		if err != nil {
			t.Fatal(err)
		}
		versions, err := w.Versions(id, 0)
		if err != nil {
			t.Fatal(err)
		}
		current, err := w.CurrentDigest(id)
		if err != nil || len(changes) == 0 {
			t.Fatalf("%s: %v, %d records", id, err, len(changes))
		}
		if last := changes[len(changes)-1].Digest; last != current || len(versions) != len(changes)-1 {
			t.Errorf("%s: manifest %s, last record %s; %d versions for %d records", id, current[:8], last[:8], len(versions), len(changes))
		}
		res, err := w.Commit(ctx, commit.Request{AgentID: id}) // a no-op that reports the totals
		if err != nil || !res.NoOp || res.TotalEntities != len(changes) {
			t.Errorf("%s: %d entities for %d records (%+v, %v)", id, res.TotalEntities, len(changes), res, err)
		}
		for _, ch := range changes {
			for _, name := range ch.Changes["known_entities_added"] {
				stored[name] = true
			}
		}
	}
	for name := range acked {
		early = append(early, name)
	}
	for _, name := range early {
		if !stored[name] {
			t.Errorf("acknowledged commit %s is not stored", name)
		}
	}
}
