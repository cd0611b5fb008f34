package mcpserver_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// TestSubscriptionsAreAuthorisedLikeReads: a quarantined member may not
// follow the memory of an agent it has no grant for.
func TestSubscriptionsAreAuthorisedLikeReads(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{Audit: trust.OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))})
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("openclaw", trust.TierQuarantined, []string{"claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	cs := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "2025-11-25")
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "agent-library://agents/codex/memory"}); err == nil || !strings.Contains(err.Error(), "access denied") {
		t.Errorf("subscribing to an ungranted agent's memory: %v", err)
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "agent-library://agents/claude-code/memory"}); err != nil {
		t.Errorf("subscribing to the granted agent's memory: %v", err)
	}
}

// TestSubscriptionsAreCappedAndEndWithTheirSession: one session holds at
// most MaxSubscriptionsPerSession, and a closed session leaves nothing
// behind for later changes to fan out to.
func TestSubscriptionsAreCappedAndEndWithTheirSession(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	ctx := context.Background()
	cs := mcptest.Connect(t, srv.Server, "http/2025-11-25")
	for i := range mcpserver.MaxSubscriptionsPerSession {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: fmt.Sprintf("agent-library://entities/e%d", i)}); err != nil {
			t.Fatalf("subscription %d: %v", i, err)
		}
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "agent-library://entities/one-too-many"}); err == nil || !strings.Contains(err.Error(), "already has") {
		t.Errorf("a subscription over the cap: %v", err)
	}
	// Subscribing again to one already held is not a new one.
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "agent-library://entities/e0"}); err != nil {
		t.Errorf("a repeated subscription: %v", err)
	}
	if n, _ := mcpserver.Subscriptions(srv); n != mcpserver.MaxSubscriptionsPerSession {
		t.Errorf("%d subscribed resources, want %d", n, mcpserver.MaxSubscriptionsPerSession)
	}
	cs.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		resources, sessions := mcpserver.Subscriptions(srv)
		if resources == 0 && sessions == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the session closed: %d subscribed resources and %d sessions remain", resources, sessions)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSessionsPerCallerAreCapped: the session over the cap is closed.
func TestSessionsPerCallerAreCapped(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	for range mcpserver.MaxSessionsPerCaller {
		cs := mcptest.Connect(t, srv.Server, "http/2025-11-25")
		if _, err := cs.ListTools(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	// The next one is closed as soon as it has initialized: connecting
	// fails, or its first call does.
	hs := httptest.NewServer(mcphttp.Handler(srv.Server, mcphttp.Options{}))
	defer hs.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "over", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	over, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		return
	}
	defer over.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		_, err := over.ListTools(ctx, nil)
		cancel()
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session over the per-caller cap still answers")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
