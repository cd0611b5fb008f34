package mcpmetrics_test

import (
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpmetrics"
)

type payload struct {
	Error string `json:"error,omitempty"`
}

func scrape(t *testing.T, m *mcpmetrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

func TestToolCallsAreRecordedByTheMiddleware(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, payload, error) {
		return nil, payload{}, nil
	})
	mcp.AddTool(srv, &mcp.Tool{Name: "commit_to_federation"}, func(_ context.Context, _ *mcp.CallToolRequest, in struct {
		Deny bool `json:"deny"`
	}) (*mcp.CallToolResult, payload, error) {
		if in.Deny {
			return nil, payload{Error: "access denied"}, nil
		}
		return nil, payload{}, errors.New("refused")
	})
	m := mcpmetrics.New()
	m.WatchSessions(srv)
	m.WatchLibrary(func() (int, int) { return 3, 42 })
	srv.AddReceivingMiddleware(m.Middleware([]string{"echo", "commit_to_federation"}))
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(name string, args map[string]any) {
		_, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	}
	call("echo", nil)
	call("echo", nil)
	call("commit_to_federation", map[string]any{"deny": true})
	call("commit_to_federation", nil)
	call("Secret Entity Name", nil)
	m.AuthFailed("missing_token")
	m.RateLimited("tools/call")
	m.PeerCall(20*time.Millisecond, nil)
	m.PeerCall(time.Second, context.DeadlineExceeded)
	m.Reloaded(time.Millisecond)

	out := scrape(t, m)
	for _, want := range []string{
		`bdn_tool_calls_total{outcome="ok",tool="echo"} 2`,
		`bdn_tool_calls_total{outcome="denied",tool="commit_to_federation"} 1`,
		`bdn_tool_calls_total{outcome="tool_error",tool="commit_to_federation"} 1`,
		`bdn_tool_calls_total{outcome="error",tool="-"} 1`,
		`bdn_tool_call_duration_seconds_count{tool="echo"} 2`,
		`bdn_commits_total{outcome="denied"} 1`,
		`bdn_commits_total{outcome="tool_error"} 1`,
		`bdn_auth_failures_total{reason="missing_token"} 1`,
		`bdn_rate_limited_total{method="tools/call"} 1`,
		`bdn_peer_call_duration_seconds_count{outcome="ok"} 1`,
		`bdn_peer_call_duration_seconds_count{outcome="timeout"} 1`,
		`bdn_library_reload_duration_seconds_count 1`,
		`bdn_library_agents 3`,
		`bdn_library_rows 42`,
		`bdn_sessions_active 1`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, "Secret") {
		t.Error("a caller's string became a label")
	}

	// A session ExcludeSessions says is in process is left out.
	m.ExcludeSessions(func(s *mcp.ServerSession) bool { return s == ss })
	if out := scrape(t, m); !strings.Contains(out, "bdn_sessions_active 0\n") {
		t.Error("an in-process session is counted in bdn_sessions_active")
	}
}

func TestANilMetricsRecordsNothing(t *testing.T) {
	var m *mcpmetrics.Metrics
	m.AuthFailed("x")
	m.RateLimited("x")
	m.PeerCall(0, nil)
	m.Reloaded(0)
	m.ExcludeSessions(nil)
}
