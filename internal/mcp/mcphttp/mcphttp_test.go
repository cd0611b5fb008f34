package mcphttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// echoServer is an MCP server with one tool, echo.
func echoServer() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "echo"}, func(ctx context.Context, _ *mcp.CallToolRequest, in struct {
		S string `json:"s"`
	}) (*mcp.CallToolResult, struct {
		S string `json:"s"`
	}, error) {
		return nil, in, nil
	})
	return srv
}

func testServer(t testing.TB, opts mcphttp.Options) *httptest.Server {
	t.Helper()
	hs := httptest.NewServer(mcphttp.Handler(echoServer(), opts))
	t.Cleanup(hs.Close)
	return hs
}

func TestBothRevisionsOnOneEndpoint(t *testing.T) {
	hs := testServer(t, mcphttp.Options{})
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
		cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			t.Fatalf("%q: %v", version, err)
		}
		want := version
		if want == "" {
			want = "2026-07-28"
		}
		if got := cs.InitializeResult().ProtocolVersion; got != want {
			t.Errorf("asked for %q, negotiated %s", version, got)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"s": "hi"}})
		if err != nil || res.IsError {
			t.Errorf("%s: call: %v %v", want, err, res)
		}
		cs.Close()
	}
}

func post(t *testing.T, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

func TestOriginsOtherThanLoopbackAreRefused(t *testing.T) {
	hs := testServer(t, mcphttp.Options{AllowedOrigins: []string{"https://app.example.com"}})
	for origin, want := range map[string]int{
		"http://evil.example":      http.StatusForbidden,
		"null":                     http.StatusForbidden,
		"http://localhost:3000":    http.StatusOK,
		"http://127.0.0.1":         http.StatusOK,
		"https://app.example.com":  http.StatusOK,
		"https://app.example.com/": http.StatusOK,
	} {
		resp, body := post(t, hs.URL, initialize, map[string]string{"Origin": origin})
		if resp.StatusCode != want {
			t.Errorf("Origin %s: %d %s, want %d", origin, resp.StatusCode, body, want)
		}
	}
}

func TestOversizedBodiesGet413(t *testing.T) {
	hs := testServer(t, mcphttp.Options{MaxBodyBytes: 1024})
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"s":"` + strings.Repeat("x", 2000) + `"}}}`
	resp, body := post(t, hs.URL, big, nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "1024 bytes") {
		t.Errorf("oversized body: %d %s", resp.StatusCode, body)
	}
	// Without Content-Length (chunked), the cap holds while reading.
	req, _ := http.NewRequest(http.MethodPost, hs.URL, io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("chunked oversized body: %d", r2.StatusCode)
	}
}

func TestBatchesAreRefused(t *testing.T) {
	hs := testServer(t, mcphttp.Options{})
	resp, body := post(t, hs.URL, "["+initialize+"]", map[string]string{"Mcp-Protocol-Version": "2025-11-25"})
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "batching is not supported") {
		t.Errorf("batch: %d %s", resp.StatusCode, body)
	}
}

// TestForeignHostOnLoopbackIsRefused: a request on a loopback address
// must name a loopback host or the public URL's (DNS rebinding), at the
// MCP endpoint and on the pages CheckHost wraps.
func TestForeignHostOnLoopbackIsRefused(t *testing.T) {
	allowed := []string{"mem.example.com"}
	mcpEndpoint := testServer(t, mcphttp.Options{AllowedHosts: allowed})
	page := httptest.NewServer(mcphttp.CheckHost(allowed, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		io.WriteString(w, "page")
	})))
	t.Cleanup(page.Close)
	for _, hs := range []*httptest.Server{mcpEndpoint, page} {
		for host, want := range map[string]int{"attacker.example": http.StatusForbidden, "mem.example.com": http.StatusOK, "MEM.example.com:443": http.StatusOK, "localhost": http.StatusOK} {
			req, _ := http.NewRequest(http.MethodPost, hs.URL, strings.NewReader(initialize))
			req.Host = host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("%s, Host %s: %d, want %d", hs.URL, host, resp.StatusCode, want)
			}
		}
	}
}
