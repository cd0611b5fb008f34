package dashboard

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/peer"
)

// peerSet returns a set of two peers: one answering list_agents, one
// whose port refuses connections.
func peerSet(t *testing.T) (*peer.Set, string, string) {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake-peer", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "list_agents", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"agents": ["far-agent"]}`}}}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/mcp"
	ln.Close()
	var peers []peer.Peer
	for _, u := range []string{hs.URL, dead} {
		p, err := peer.Inline(u)
		if err != nil {
			t.Fatal(err)
		}
		peers = append(peers, p)
	}
	set := peer.NewSet(peers, peer.Options{Getenv: func(string) string { return "" }})
	t.Cleanup(set.Close)
	return set, peers[0].Name, peers[1].Name
}

func TestFederationShowsEachPeersLastCall(t *testing.T) {
	set, live, dead := peerSet(t)
	f := newFixture(t, func(c *Config) { c.Peers = set })
	b := f.browser(t)
	b.signIn(f.tokens[alice])

	_, page, _ := b.get("/ui/federation")
	if strings.Count(page, "not called yet") != 2 {
		t.Fatalf("before any fan-out both peers should be 'not called yet':\n%s", page)
	}
	// The page itself calls no peer: drawing it twice leaves them uncalled.
	_, page, _ = b.get("/ui/federation")
	if strings.Count(page, "not called yet") != 2 {
		t.Error("drawing the page called a peer")
	}

	// A fan-out made by the server (here, list_agents) is what the page shows.
	set.ListAgents(context.Background(), nil)
	_, page, _ = b.get("/ui/federation")
	liveRow, deadRow := peerRowOf(t, page, live), peerRowOf(t, page, dead)
	if !strings.Contains(liveRow, "list_agents") || !strings.Contains(liveRow, "answered") || !strings.Contains(liveRow, "1 (0)") {
		t.Errorf("live peer row: %s", liveRow)
	}
	if !strings.Contains(deadRow, "connection refused") || !strings.Contains(deadRow, "1 (1)") {
		t.Errorf("dead peer row: %s", deadRow)
	}

	// Probe now is a state change: it needs the CSRF token ...
	if status, _, _ := b.post("/ui/federation/probe", url.Values{}); status != http.StatusForbidden {
		t.Errorf("probe without CSRF: %d, want 403", status)
	}
	status, _, loc := b.post("/ui/federation/probe", url.Values{"csrf": {b.csrf(page)}})
	if status != http.StatusSeeOther || !strings.Contains(loc, "probed+2") {
		t.Fatalf("probe: %d %q", status, loc)
	}
	_, page, _ = b.get("/ui/federation")
	if row := peerRowOf(t, page, live); !strings.Contains(row, "2 (0)") {
		t.Errorf("after the probe, live peer row: %s", row)
	}

	// ... and is refused to a quarantined member, like the page.
	q := f.browser(t)
	q.signIn(f.tokens[scout])
	_, agents, _ := q.get("/ui/agents")
	if status, _, _ := q.post("/ui/federation/probe", url.Values{"csrf": {q.csrf(agents)}}); status != http.StatusForbidden {
		t.Errorf("quarantined probe: %d, want 403", status)
	}
}

// peerRowOf returns the table row of a peer on the Federation page.
func peerRowOf(t *testing.T, page, name string) string {
	t.Helper()
	i := strings.Index(page, `data-peer="`+name+`"`)
	if i < 0 {
		t.Fatalf("no row for peer %s", name)
	}
	end := strings.Index(page[i:], "</tr>")
	return page[i : i+end]
}
