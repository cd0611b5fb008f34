package peer

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStatusesKeepEachPeersLastCall(t *testing.T) {
	ok := startPeer(t, map[string]answer{"list_agents": text(map[string]any{"agents": []string{"a"}})})
	leaky := startPeer(t, map[string]answer{"list_agents": func(context.Context, map[string]any) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "boom with token bdn_" + strings.Repeat("0123456789abcdef", 3) + " " + strings.Repeat("x", 1000)}}}
	}})
	s := setOf(t, Options{}, map[string]string{"ok": ok.URL, "leaky": leaky.URL, "dead": deadURL(t)})

	before := s.Statuses()
	if len(before) != 3 {
		t.Fatalf("%d statuses, want 3", len(before))
	}
	for _, st := range before {
		if st.Called || st.Calls != 0 {
			t.Errorf("%s: %+v before any call", st.Peer.Name, st)
		}
	}

	// Fan-outs from concurrent callers: the board is safe for them and for
	// readers (go test -race).
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() { defer wg.Done(); s.ListAgents(context.Background(), nil) }()
		go func() { defer wg.Done(); _ = s.Statuses() }()
	}
	wg.Wait()

	byName := map[string]Status{}
	for _, st := range s.Statuses() {
		byName[st.Peer.Name] = st
	}
	if st := byName["ok"]; !st.Called || st.Tool != "list_agents" || st.Err != "" || st.Calls != 4 || st.Failures != 0 || st.Latency <= 0 || st.At.IsZero() {
		t.Errorf("ok: %+v", st)
	}
	leak := byName["leaky"]
	if leak.Err == "" || leak.Failures != 4 {
		t.Errorf("leaky: %+v", leak)
	}
	if strings.Contains(leak.Err, "0123456789abcdef") || len(leak.Err) > maxStatusError+len("…")+10 {
		t.Errorf("leaky: error not redacted or not bounded: %q", leak.Err)
	}
	if st := byName["dead"]; !strings.Contains(st.Err, "connection refused") || st.TimedOut {
		t.Errorf("dead: %+v", st)
	}

	ok2 := s.Statuses()
	ok2[0].Err = "changed"
	if s.Statuses()[0].Err == "changed" {
		t.Error("Statuses returned the board itself, not a copy")
	}
}
