package dashboard

import (
	"bufio"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// TestInProcessSessionsAreToldApart: the dashboard's own MCP sessions are
// marked by its bridge, not by their client name, so a remote client
// calling itself "bourdon-dashboard" is still counted as a client.
func TestInProcessSessionsAreToldApart(t *testing.T) {
	f := newFixture(t)

	// A remote client that takes the dashboard's name.
	hs := httptest.NewServer(mcphttp.Handler(f.srv.Server, mcphttp.Options{Auth: f.auth}))
	t.Cleanup(hs.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-dashboard", Version: "test"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{key: f.tokens[alice], next: http.DefaultTransport}},
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list_agents"}); err != nil {
		t.Fatal(err)
	}

	// A live page: its event stream holds an in-process session, open
	// once the stream says it is ready.
	b := f.browser(t)
	b.signIn(f.tokens[bob])
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.http.URL+"/ui/events", nil)
	res, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "event: ready") {
	}

	var forged, inProcess int
	for ss := range f.srv.Server.Sessions() {
		switch {
		case f.dash.InProcess(ss):
			inProcess++
		case ss.ID() == cs.ID():
			forged++
		}
	}
	if forged != 1 {
		t.Errorf("the remote client named bourdon-dashboard was taken for an in-process session")
	}
	if inProcess == 0 {
		t.Error("no in-process session is marked while a live page is open")
	}
}
