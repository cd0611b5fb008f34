package dashboard

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// bridge lets the dashboard call the server's own MCP tools in process,
// as the signed-in caller: every page reads through the same access
// decision, visibility filter, redaction and audit record as an MCP
// client presenting that caller's token. The MCP server is served over
// HTTP on an in-memory listener (no port is opened); each client presents
// a one-use key that the bridge's token verifier maps to the caller, the
// way the HTTP transport's bearer check attaches a trust.Caller.
type bridge struct {
	ln      *pipeListener
	hs      *http.Server
	client  *http.Client
	version string

	mu   sync.Mutex
	keys map[string]trust.Caller

	// sessions are the server sessions of the in-process clients, as
	// *mcp.ServerSession keys, each forgotten when it closes.
	sessions sync.Map
}

// inProcessExtra is the TokenInfo.Extra key of the bridge's mark: its
// verifier sets it to the bridge itself, a pointer no client can send, so
// the server sessions it serves are told apart from every other client's
// (whatever name a client gives itself).
const inProcessExtra = "bourdon.dashboard"

// bridgeEndpoint is the URL the in-process clients use; nothing resolves
// it, the listener is in memory.
const bridgeEndpoint = "http://bourdon-dashboard.invalid/mcp"

// newBridge serves srv's MCP on an in-memory listener.
func newBridge(srv *mcp.Server, version string) *bridge {
	b := &bridge{ln: newPipeListener(), keys: map[string]trust.Caller{}, version: version}
	get := func(*http.Request) *mcp.Server { return srv }
	stateless := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, PropagateRequestCancellation: true})
	stateful := mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{SessionTimeout: time.Hour})
	dispatch := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= statelessVersion {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
	srv.AddReceivingMiddleware(b.mark)
	b.hs = &http.Server{Handler: auth.RequireBearerToken(b.verify, nil)(dispatch), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = b.hs.Serve(b.ln) }()
	b.client = &http.Client{Transport: &http.Transport{
		DialContext:       func(ctx context.Context, _, _ string) (net.Conn, error) { return b.ln.dial(ctx) },
		MaxIdleConns:      16,
		IdleConnTimeout:   time.Minute,
		ForceAttemptHTTP2: false,
	}}
	return b
}

// statelessVersion is the first MCP revision served without sessions.
const statelessVersion = "2026-07-28"

// close stops the in-memory server once the calls under way have ended
// (they may be writing the audit log), or after 5 seconds.
func (b *bridge) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if b.hs.Shutdown(ctx) != nil {
		_ = b.hs.Close()
	}
	_ = b.ln.Close()
}

// verify is the bearer check of the in-memory server: a key handed out by
// connect names the caller.
func (b *bridge) verify(_ context.Context, key string, _ *http.Request) (*auth.TokenInfo, error) {
	b.mu.Lock()
	c, ok := b.keys[key]
	b.mu.Unlock()
	if !ok {
		return nil, auth.ErrInvalidToken
	}
	return &auth.TokenInfo{UserID: c.ID, Expiration: time.Now().Add(24 * time.Hour), Extra: map[string]any{mcphttp.CallerExtra: c, inProcessExtra: b}}, nil
}

// mark is a receiving middleware of the MCP server: a session whose
// request carries the bridge's mark is one of the dashboard's, from its
// first request (initialize, or the one call of a stateless session) until
// it closes.
func (b *bridge) mark(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if ss, ok := req.GetSession().(*mcp.ServerSession); ok {
			if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil && extra.TokenInfo.Extra[inProcessExtra] == b {
				if _, known := b.sessions.LoadOrStore(ss, struct{}{}); !known {
					go func() {
						_ = ss.Wait()
						b.sessions.Delete(ss)
					}()
				}
			}
		}
		return next(ctx, method, req)
	}
}

// inProcess reports whether ss is a session of the dashboard's own
// clients.
func (b *bridge) inProcess(ss *mcp.ServerSession) bool {
	_, ok := b.sessions.Load(ss)
	return ok
}

// conn is one in-process MCP client session as one caller.
type conn struct {
	cs  *mcp.ClientSession
	b   *bridge
	key string
}

// connect opens a client session as caller. Stateless sessions (the
// default) serve a page's tool calls; stateful ones (subscribe) receive
// change notifications through opts.
func (b *bridge) connect(ctx context.Context, caller trust.Caller, subscribe bool, opts *mcp.ClientOptions) (*conn, error) {
	key := randomToken()
	b.mu.Lock()
	b.keys[key] = caller
	b.mu.Unlock()
	version := statelessVersion
	if subscribe {
		version = "2025-11-25"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "bourdon-dashboard", Version: b.version}, opts)
	hc := &http.Client{Transport: bearer{key: key, next: b.client.Transport}}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: bridgeEndpoint, HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: !subscribe}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		b.forget(key)
		return nil, fmt.Errorf("dashboard: connecting to the MCP server: %w", err)
	}
	return &conn{cs: cs, b: b, key: key}, nil
}

func (b *bridge) forget(key string) {
	b.mu.Lock()
	delete(b.keys, key)
	b.mu.Unlock()
}

// Close ends the session and retires its key.
func (c *conn) Close() {
	_ = c.cs.Close()
	c.b.forget(c.key)
}

// toolError is a tool's own error result (isError), with its text.
type toolError struct{ tool, text string }

func (e *toolError) Error() string { return e.tool + ": " + e.text }

// call calls a tool and decodes the JSON payload of its text content (the
// wire contract's copy of structuredContent). A refusal by the access
// decision is a normal payload with "error": "access denied"; a tool error
// is a *toolError.
func (c *conn) call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tool, err)
	}
	text := ""
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text = tc.Text
			break
		}
	}
	if res.IsError {
		return nil, &toolError{tool: tool, text: text}
	}
	var payload map[string]any
	if err := json.Unmarshal([]byte(text), &payload); err != nil {
		return nil, fmt.Errorf("%s: the payload is not a JSON object: %w", tool, err)
	}
	return payload, nil
}

// tools lists the tool names the server offers this caller.
func (c *conn) tools(ctx context.Context) (map[string]bool, error) {
	out := map[string]bool{}
	for t, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			return nil, err
		}
		out[t.Name] = true
	}
	return out, nil
}

// denied reports whether a payload is the access decision's refusal, and
// its detail.
func denied(p map[string]any) (string, bool) {
	if p["error"] == "access denied" {
		d, _ := p["detail"].(string)
		return d, true
	}
	return "", false
}

// bearer presents the bridge key on every request of one client.
type bearer struct {
	key  string
	next http.RoundTripper
}

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.key)
	return t.next.RoundTrip(r)
}

// pipeListener is a net.Listener whose connections are in-memory pipes.
type pipeListener struct {
	conns  chan net.Conn
	done   chan struct{}
	closed sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

var errListenerClosed = errors.New("dashboard: in-memory listener closed")

// Accept waits for the next dial.
func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, errListenerClosed
	}
}

// Close stops accepting; dials fail from then on.
func (l *pipeListener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return nil
}

// Addr names the listener.
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

func (l *pipeListener) dial(ctx context.Context) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		return nil, errListenerClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "dashboard" }

// randomToken returns 32 random bytes, base64url-encoded.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// read reads a JSON resource and decodes it.
func (c *conn) read(ctx context.Context, uri string) (map[string]any, error) {
	res, err := c.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", uri, err)
	}
	if len(res.Contents) == 0 {
		return nil, fmt.Errorf("%s: no contents", uri)
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &out); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", uri, err)
	}
	return out, nil
}
