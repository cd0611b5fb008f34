package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// TestPeerRowsAreRedacted serves a peer whose rows hold a credential (as a
// careless or hostile peer might) and checks that the federated answers
// never pass it on, whether read as structured content or as text.
func TestPeerRowsAreRedacted(t *testing.T) {
	const secret = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	remote := mcp.NewServer(&mcp.Implementation{Name: "careless-peer", Version: "1"}, nil)
	answers := map[string]any{
		"find_entity":                 map[string]any{"matches": []any{map[string]any{"name": "Bourdon", "agents": []any{"codex"}, "summaries": map[string]any{"codex": "token " + secret}}}},
		"prepare_recognition_context": map[string]any{"recognition": "Bourdon, see " + secret, "matched_entities": []any{map[string]any{"name": "Bourdon", "source_agents": []any{"codex"}}}},
		"list_recent_work":            map[string]any{"sessions": []any{map[string]any{"agent": "codex", "date": "2026-06-30", "cwd": "/w", "project_focus": []any{"Bourdon"}, "key_actions": []any{"pushed with " + secret}}}, "has_more": false},
	}
	for tool, payload := range answers {
		b, _ := json.Marshal(payload)
		remote.AddTool(&mcp.Tool{Name: tool, InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
		})
	}
	peers, url := peersOf(t, remote)

	srv, _ := mcptest.NewServer(t, mcptest.CopyDir(t, "../../../testdata/conformance/fed_seed_library"), mcpserver.Options{Peers: peers})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	for tool, args := range map[string]map[string]any{
		"find_entity":                 {"name": "Bourdon"},
		"prepare_recognition_context": {"prompt": "what about Bourdon"},
		"list_recent_work":            {"since": "2026-06-01"},
	} {
		got, res := mcptest.CallJSON(t, cs, tool, args)
		b, _ := json.Marshal(got)
		text := res.Content[0].(*mcp.TextContent).Text
		if strings.Contains(string(b), secret) || strings.Contains(text, secret) || !strings.Contains(text, "[redacted") {
			t.Errorf("%s passed the peer's credential on: %s", tool, text)
		}
		if !strings.Contains(text, "peer:"+url) || !strings.Contains(text, `"peers_responded":1`) {
			t.Errorf("%s: no peer rows: %s", tool, text)
		}
	}
}

// peersOf serves remote over HTTP as this server's one peer, for the
// test's duration, and returns the peer set and the peer's URL.
func peersOf(t *testing.T, remote *mcp.Server) (*peer.Set, string) {
	t.Helper()
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return remote }, nil))
	t.Cleanup(hs.Close)
	p, err := peer.Inline(hs.URL)
	if err != nil {
		t.Fatal(err)
	}
	peers := peer.NewSet([]peer.Peer{p}, peer.Options{Getenv: func(string) string { return "" }})
	t.Cleanup(peers.Close)
	return peers, hs.URL
}
