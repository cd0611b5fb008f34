package mcpserver_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcptest"
)

// events collects the notifications a client receives.
type events struct {
	mu          sync.Mutex
	updated     []string
	listChanged int
	progress    []float64
}

func (e *events) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, r *mcp.ResourceUpdatedNotificationRequest) {
			e.mu.Lock()
			e.updated = append(e.updated, r.Params.URI)
			e.mu.Unlock()
		},
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) {
			e.mu.Lock()
			e.listChanged++
			e.mu.Unlock()
		},
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			e.mu.Lock()
			e.progress = append(e.progress, r.Params.Progress)
			e.mu.Unlock()
		},
	}
}

// wait polls until cond holds or the deadline passes.
func (e *events) wait(t *testing.T, within time.Duration, what string, cond func(e *events) bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		ok := cond(e)
		e.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t.Fatalf("no %s within %v (updated %v, list changed %d)", what, within, e.updated, e.listChanged)
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

func TestSubscriptionsFollowTheLibrary(t *testing.T) {
	for _, transport := range mcptest.Transports {
		t.Run(transport, func(t *testing.T) {
			lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
			srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go srv.Watch(ctx)
			var ev events
			cs := mcptest.ConnectWith(t, srv.Server, transport, ev.options())
			for _, uri := range []string{"agent-library://agents/codex/memory", "agent-library://agents", "agent-library://entities/Fresh"} {
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

			// A burst of rewrites of one manifest: one notification, within 1 s.
			start := time.Now()
			for i := range 5 {
				writeAgent(t, lib, "codex", "Fresh"+strings.Repeat("x", i))
			}
			ev.wait(t, time.Second+time.Since(start), "update for codex", func(e *events) bool {
				return e.count("agent-library://agents/codex/memory") > 0
			})
			time.Sleep(3 * 150 * time.Millisecond)
			ev.mu.Lock()
			if n := ev.count("agent-library://agents/codex/memory"); n != 1 {
				t.Errorf("a burst of 5 writes gave %d notifications, want 1", n)
			}
			if n := ev.count("agent-library://entities/Fresh"); n != 1 {
				t.Errorf("subscribed entity notified %d times, want 1", n)
			}
			if ev.count("agent-library://agents") != 0 || ev.listChanged != 0 {
				t.Errorf("no agent came or went, yet: %v, list changed %d", ev.updated, ev.listChanged)
			}
			ev.mu.Unlock()

			// A new agent: its memory resource is listed, the agent list updates.
			writeAgent(t, lib, "cursor", "Other")
			ev.wait(t, time.Second, "list change", func(e *events) bool {
				return e.listChanged > 0 && e.count("agent-library://agents") > 0
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
			ev.wait(t, time.Second, "second list change", func(e *events) bool { return e.listChanged > 1 })
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
	ev.wait(t, time.Second, "progress", func(e *events) bool { return len(e.progress) == 2 })
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
	if resources != 6 || tools != len(wantTools) || templates != 2 {
		t.Errorf("walked %d resources, %d tools, %d templates; want 6, %d, 2", resources, tools, templates, len(wantTools))
	}
}
