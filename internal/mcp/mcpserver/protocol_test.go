package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// eventTimeout bounds every wait for a notification. It is generous:
// the tests wait for events, not for time to pass, so it only decides how
// long a broken server takes to fail on a busy machine.
const eventTimeout = 30 * time.Second

// events collects the notifications a client receives.
type events struct {
	mu          sync.Mutex
	updated     []string
	listChanged int
	progress    []float64
	kick        chan struct{} // holds a value after a notification; see kicked
}

// kicked returns the channel that gets a value after every notification;
// e.mu must be held.
func (e *events) kicked() chan struct{} {
	if e.kick == nil {
		e.kick = make(chan struct{}, 1)
	}
	return e.kick
}

// record applies f under the lock and wakes a waiter.
func (e *events) record(f func(e *events)) {
	e.mu.Lock()
	f(e)
	kick := e.kicked()
	e.mu.Unlock()
	select {
	case kick <- struct{}{}:
	default:
	}
}

func (e *events) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			e.record(func(e *events) { e.updated = append(e.updated, r.Params.URI) })
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			e.record(func(e *events) { e.listChanged++ })
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			e.record(func(e *events) { e.progress = append(e.progress, r.Params.Progress) })
		},
	}
}

// wait returns once cond holds, checking it after every notification; it
// fails the test if that takes longer than eventTimeout.
func (e *events) wait(t *testing.T, what string, cond func(e *events) bool) {
	t.Helper()
	timeout := time.NewTimer(eventTimeout)
	defer timeout.Stop()
	for {
		e.mu.Lock()
		ok := cond(e)
		kick := e.kicked()
		e.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-kick:
		case <-timeout.C:
			e.mu.Lock()
			defer e.mu.Unlock()
			t.Fatalf("no %s within %v (updated %v, list changed %d)", what, eventTimeout, e.updated, e.listChanged)
		}
	}
}

// counts returns how many updates of each uri arrived so far.
func (e *events) counts(uris ...string) []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := make([]int, len(uris))
	for i, uri := range uris {
		n[i] = e.count(uri)
	}
	return n
}

func (e *events) count(uri string) int {
	n := 0
	for _, u := range e.updated {
		if u == uri {
			n++
		}
	}
	return n
}

func writeAgent(t *testing.T, lib, id, entity string) {
	t.Helper()
	content := "spec_version: '0.1'\nagent: {id: " + id + ", type: code-assistant}\nlast_updated: '2026-06-30T00:00:00+00:00'\nknown_entities:\n- {name: " + entity + "}\n"
	tmp := filepath.Join(lib, "agents", "."+id+".tmp")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(lib, "agents", id+".l5.yaml")); err != nil {
		t.Fatal(err)
	}
}

// The resources TestSubscriptionsFollowTheLibrary subscribes to.
const (
	codexURI  = "agent-library://agents/codex/memory"
	claudeURI = "agent-library://agents/claude-code/memory"
	agentsURI = "agent-library://agents"
	freshURI  = "agent-library://entities/Fresh"
)

// The writes of a burst are burstPace apart, so that the watcher (which
// looks every 50 ms) sees several of them; they count as one burst when
// none is burstGap or more after the one before: well under the quiet time
// (150 ms) after which the server announces a change, even if the watcher
// took one of its ticks late.
const (
	burstPace = 20 * time.Millisecond
	burstGap  = 60 * time.Millisecond
)

func TestSubscriptionsFollowTheLibrary(t *testing.T) {
	for _, transport := range mcptest.Transports {
		t.Run(transport, func(t *testing.T) {
			lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
			srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			var watching sync.WaitGroup
			watching.Go(func() { srv.Watch(ctx) })
			defer watching.Wait() // it may still write the drift watermarks into lib
			defer cancel()
			var ev events
			cs := mcptest.ConnectWith(t, srv.Server, transport, ev.options())
			for _, uri := range []string{codexURI, claudeURI, agentsURI, freshURI} {
				if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
					t.Fatalf("subscribe %s: %v", uri, err)
				}
			}
			if strings.HasSuffix(transport, "2025-11-25") {
				// (2026-07-28 clients learn of a refusal on the listen
				// stream, after Subscribe has returned.)
				if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "file:///etc/passwd"}); err == nil {
					t.Error("subscribing to a resource this server does not have must fail")
				}
			}

			// A burst of rewrites of one manifest gives one notification for
			// the agent's memory and one for the subscribed entity, none for
			// the agent list. A rewrite of another agent afterwards is the
			// marker: the server announces it after whatever the burst
			// caused, so once its notifications are in (the other agent's
			// memory, and the entity once more), so are the burst's.
			for attempt := 1; ; attempt++ {
				before := ev.counts(codexURI, claudeURI, freshURI)
				var gap time.Duration // the longest time between two writes
				last := time.Now()
				for i := range 5 {
					if i > 0 {
						// Not a wait: this spreads the burst over several
						// of the watcher's ticks, so it sees the writes
						// one by one.
						time.Sleep(burstPace)
					}
					writeAgent(t, lib, "codex", "Fresh"+strings.Repeat("x", i))
					now := time.Now()
					gap, last = max(gap, now.Sub(last)), now
				}
				ev.wait(t, "update for codex", func(e *events) bool { return e.count(codexURI) > before[0] })
				writeAgent(t, lib, "claude-code", fmt.Sprint("Marker", attempt))
				ev.wait(t, "update for the marker (claude-code's memory, and Fresh again)", func(e *events) bool {
					return e.count(claudeURI) > before[1] && e.count(freshURI) >= before[2]+2
				})
				if gap >= burstGap {
					// Two writes were too far apart to be one burst (the
					// machine is busy): the server may rightly have
					// announced them in two rounds. Try again.
					if attempt == 10 {
						t.Fatalf("in 10 bursts of 5 writes, two writes were %v or more apart each time; cannot test coalescing on a machine this busy", burstGap)
					}
					t.Logf("burst %d had writes %v apart, not under %v: trying again", attempt, gap, burstGap)
					continue
				}
				after := ev.counts(codexURI, claudeURI, freshURI)
				if n := after[0] - before[0]; n != 1 {
					t.Errorf("a burst of 5 writes gave %d notifications, want 1", n)
				}
				if n := after[2] - before[2]; n != 2 {
					t.Errorf("subscribed entity notified %d times for the burst and the marker, want 2", n)
				}
				break
			}
			ev.mu.Lock()
			if ev.count(agentsURI) != 0 || ev.listChanged != 0 {
				t.Errorf("no agent came or went, yet: %v, list changed %d", ev.updated, ev.listChanged)
			}
			ev.mu.Unlock()

			// A new agent: its memory resource is listed, the agent list updates.
			writeAgent(t, lib, "cursor", "Other")
			ev.wait(t, "list change", func(e *events) bool {
				return e.listChanged > 0 && e.count(agentsURI) > 0
			})
			res, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			var uris []string
			for _, r := range res.Resources {
				uris = append(uris, r.URI)
			}
			if !slices.Contains(uris, "agent-library://agents/cursor/memory") {
				t.Errorf("resources/list after adding cursor: %v", uris)
			}
			// Removing it lists it no more.
			if err := os.Remove(filepath.Join(lib, "agents", "cursor.l5.yaml")); err != nil {
				t.Fatal(err)
			}
			ev.wait(t, "second list change", func(e *events) bool { return e.listChanged > 1 })
			res, err = cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Resources {
				if r.URI == "agent-library://agents/cursor/memory" {
					t.Errorf("resources/list still has cursor after its manifest was removed")
				}
			}
		})
	}
}

func TestCompletionOffersAgentsAndEntities(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	ctx := context.Background()
	ask := func(template, arg, value string) []string {
		t.Helper()
		res, err := cs.Complete(ctx, &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: template},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value},
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.Completion.Values
	}
	if got := ask("agent-library://agents/{agent_id}/memory", "agent_id", "C"); !slices.Equal(got, []string{"claude-code", "codex"}) {
		t.Errorf("agent ids: %v", got)
	}
	if got := ask("agent-library://entities/{name}", "name", "bou"); !slices.Equal(got, []string{"Bourdon"}) {
		t.Errorf("entity names: %v", got)
	}
	if got := ask("agent-library://entities/{name}", "name", "neuro"); !slices.Equal(got, []string{"Bourdon"}) {
		t.Errorf("aliases complete to their entity: %v", got)
	}
	if got := ask("agent-library://entities/{name}", "name", "quarterly"); len(got) != 0 {
		t.Errorf("a private entity must not be offered: %v", got)
	}
}

func TestReloadReportsProgressAndCanBeCancelled(t *testing.T) {
	var ev events
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.ConnectWith(t, srv.Server, "in-memory", ev.options())
	params := &mcp.CallToolParams{Name: "reload_library", Arguments: map[string]any{}}
	params.SetProgressToken("reload-1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("reload: %v %v", err, res)
	}
	ev.wait(t, "progress", func(e *events) bool { return len(e.progress) == 2 })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cs.CallTool(ctx, params); err == nil {
		t.Error("a cancelled call must not succeed")
	}
}

func TestListMethodsPaginate(t *testing.T) {
	lib := t.TempDir()
	if err := os.MkdirAll(filepath.Join(lib, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a1", "a2", "a3", "a4", "a5"} {
		writeAgent(t, lib, id, "E")
	}
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{PageSize: 2})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	ctx := context.Background()
	var resources, tools, templates int
	for _, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		resources++
	}
	for _, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools++
	}
	for _, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates++
	}
	first, err := cs.ListResources(ctx, nil)
	if err != nil || len(first.Resources) != 2 || first.NextCursor == "" {
		t.Errorf("first page of resources: %+v %v", first, err)
	}
	// A server without docs and requests serves the memory tools only.
	if resources != 6 || tools != memoryTools || templates != 2 {
		t.Errorf("walked %d resources, %d tools, %d templates; want 6, %d, 2", resources, tools, templates, memoryTools)
	}
}
