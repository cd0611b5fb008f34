package mcphttp_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

const legacyToken = "test-legacy-token"

// boundedServer serves the echo server through mcphttp.Server, as
// bourdon serve does, with the legacy token as the only credential.
func boundedServer(t *testing.T, opts mcphttp.Options, sopts mcphttp.ServerOptions) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	opts.Auth = &mcphttp.Auth{LegacyToken: legacyToken}
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = mcphttp.Server(mcphttp.Handler(srv, opts), sopts)
	hs.Start()
	t.Cleanup(hs.Close)
	return hs
}

// rawRequest writes a POST head announcing a body of size bytes, then the
// first part of the body, and returns the connection.
func rawRequest(t *testing.T, hs *httptest.Server, token string, size int, part string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%sContent-Length: %d\r\n\r\n%s",
		hs.Listener.Addr(), auth, size, part)
	// A hang guard, not a timing assertion: the server must answer and
	// close on its own long before this.
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	return c
}

// answerThenClose reads one response and checks that the server then
// closes the connection.
func answerThenClose(t *testing.T, c net.Conn) (*http.Response, string) {
	t.Helper()
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		t.Errorf("the connection stayed open after the response (read: %v)", err)
	}
	return resp, string(body)
}

func TestTheTokenIsCheckedBeforeTheBodyIsRead(t *testing.T) {
	hs := boundedServer(t, mcphttp.Options{}, mcphttp.ServerOptions{})
	// 1 MiB announced, a few bytes sent, then nothing: the server must not
	// wait for the rest.
	c := rawRequest(t, hs, "", 1<<20, `{"jsonrpc":"2.0",`)
	resp, body := answerThenClose(t, c)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "missing Bearer token") {
		t.Errorf("got %d %s", resp.StatusCode, body)
	}
	c = rawRequest(t, hs, "wrong-token", 1<<20, `{`)
	if resp, _ := answerThenClose(t, c); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("bad token: %d", resp.StatusCode)
	}
}

func TestASlowBodyIsCutOffAtTheBodyDeadline(t *testing.T) {
	hs := boundedServer(t, mcphttp.Options{BodyTimeout: 200 * time.Millisecond}, mcphttp.ServerOptions{})
	c := rawRequest(t, hs, legacyToken, 4096, `{"jsonrpc":"2.0",`)
	resp, body := answerThenClose(t, c)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "did not arrive within") {
		t.Errorf("got %d %s", resp.StatusCode, body)
	}
}

func TestEveryFormOfBatchIsRefused(t *testing.T) {
	hs := testServer(t, mcphttp.Options{})
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, version := range []string{"", "2025-11-25", "2026-07-28"} {
		for _, body := range []string{"[" + initialize + "," + list + "]", " \n\t[" + list + "]", "[]"} {
			header := map[string]string{}
			if version != "" {
				header["Mcp-Protocol-Version"] = version
			}
			resp, got := post(t, hs.URL, body, header)
			if resp.StatusCode != http.StatusBadRequest || !strings.Contains(got, "batching is not supported") || !strings.Contains(got, "-32600") {
				t.Errorf("version %q, body %.30q: %d %s", version, body, resp.StatusCode, got)
			}
		}
	}
}

func TestConnectionsWithoutAnAuthenticatedRequestAreCapped(t *testing.T) {
	hs := boundedServer(t, mcphttp.Options{}, mcphttp.ServerOptions{MaxUnauthenticated: 3})
	addr := hs.Listener.Addr().String()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	idle := []net.Conn{dial(), dial(), dial()}
	over := dial()
	over.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := over.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the connection over the cap was not closed: %v", err)
	}
	// An authenticated request frees its connection's place.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{}}}, nil)
	if err == nil {
		t.Fatal("a fourth connection got through while three unauthenticated ones were open")
	}
	idle[0].Close()
	// Wait for the server to see the close: the next dial must get in.
	deadline := time.Now().Add(30 * time.Second)
	for {
		cs, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: &http.Client{Transport: bearer{}}}, nil)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after one idle connection closed, an authenticated client still cannot connect: %v", err)
	}
	defer cs.Close()
	// Its connection no longer counts: a new unauthenticated one fits.
	extra := dial()
	fmt.Fprintf(extra, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	extra.SetReadDeadline(time.Now().Add(30 * time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(extra), nil); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an unauthenticated request within the cap: %v %v", resp, err)
	}
}

// bearer adds the legacy token to every request.
type bearer struct{}

func (bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+legacyToken)
	return http.DefaultTransport.RoundTrip(r)
}

// FuzzRequestShapes sends arbitrary bodies, methods and protocol headers
// through the handler, with and without a token: it must answer every one
// with a status it documents, never panic, and never answer a request
// without the token with anything but a refusal.
func FuzzRequestShapes(f *testing.F) {
	for _, s := range []string{initialize, "[" + initialize + "]", `{"jsonrpc":"2.0","id":{},"method":"x"}`, "", "\x00", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`} {
		f.Add(s, "POST", "2025-11-25", true)
		f.Add(s, "GET", "2026-07-28", false)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcphttp.Handler(srv, mcphttp.Options{Auth: &mcphttp.Auth{LegacyToken: legacyToken}, MaxBodyBytes: 4096})
	f.Fuzz(func(t *testing.T, body, method, version string, withToken bool) {
		switch method {
		case "GET", "POST", "DELETE", "PUT", "OPTIONS":
		default:
			method = "POST"
		}
		req := httptest.NewRequest(method, "http://127.0.0.1/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if strings.ContainsAny(version, "\r\n\x00") {
			version = ""
		}
		req.Header.Set("Mcp-Protocol-Version", version)
		if withToken {
			req.Header.Set("Authorization", "Bearer "+legacyToken)
		}
		ctx, cancel := context.WithTimeout(req.Context(), 2*time.Second)
		defer cancel()
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req.WithContext(ctx))
		if !withToken && rec.Code != http.StatusUnauthorized {
			t.Fatalf("without a token: %d %s", rec.Code, rec.Body)
		}
		if rec.Code < 200 || rec.Code >= 600 {
			t.Fatalf("status %d", rec.Code)
		}
		if strings.HasPrefix(strings.TrimLeft(body, " \t\r\n"), "[") && withToken && method == "POST" && rec.Code != http.StatusBadRequest && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("a batch was not refused: %d %s", rec.Code, rec.Body)
		}
	})
}
