package peer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
)

// MaxResponseBytes bounds one answer of a peer.
const MaxResponseBytes = 8 << 20

// Client calls one peer's tools over streamable HTTP with the go-sdk MCP
// client. It keeps one MCP session open and reuses it (a 2026-07-28 peer
// needs no session at all; an older one negotiates 2025-11-25 or earlier,
// as the Python and TypeScript servers do), and reconnects when the
// session breaks, for example because the peer restarted.
type Client struct {
	Peer Peer

	mcp  *mcp.Client
	http *http.Client

	mu      sync.Mutex
	session *mcp.ClientSession
}

// NewClient returns a client for p; getenv reads its token variable. No
// HTTP exchange with the peer outlives limit, even one its caller stopped
// waiting for (the SDK does not abort a request whose call was
// abandoned), so a peer that accepts connections and never answers cannot
// pile them up.
func NewClient(p Peer, getenv func(string) string, version string, limit time.Duration) *Client {
	token := ""
	if getenv != nil {
		token = strings.TrimSpace(getenv(p.TokenEnv))
	}
	return &Client{
		Peer: p,
		mcp:  mcp.NewClient(&mcp.Implementation{Name: "bourdon-peer", Version: version}, nil),
		// The timeout is a backstop against a peer that accepts a
		// connection and never answers; calls have shorter deadlines.
		http: &http.Client{Transport: endpoint.Bearer{Token: token, MaxBody: MaxResponseBytes}, Timeout: limit},
	}
}

// HasToken reports whether a bearer token will be sent.
func (c *Client) HasToken() bool { return c.http.Transport.(endpoint.Bearer).Token != "" }

// Call calls tool with args and returns the JSON object it answered. The
// payload is read from the first text content that holds a JSON object
// (the Bourdon wire contract, which is all a Python peer sends), else from
// the structured content. A tool error, a refusal ({"error": "access
// denied", ...}) and any other payload carrying "error" are errors.
func (c *Client) Call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	res, err := c.call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	return payloadOf(res)
}

func (c *Client) call(ctx context.Context, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	params := &mcp.CallToolParams{Name: tool, Arguments: args}
	for attempt := 0; ; attempt++ {
		s, reused, err := c.sessionFor(ctx)
		if err != nil {
			return nil, endpoint.Classify(err)
		}
		res, err := s.CallTool(ctx, params)
		if err == nil {
			return res, nil
		}
		c.drop(s)
		// A session that worked before may have died with the peer's
		// restart: try once more on a fresh one while time is left.
		if !reused || attempt > 0 || ctx.Err() != nil {
			return nil, endpoint.Classify(err)
		}
	}
}

// sessionFor returns the open session, connecting when there is none;
// reused says whether it was already open.
func (c *Client) sessionFor(ctx context.Context) (*mcp.ClientSession, bool, error) {
	c.mu.Lock()
	s := c.session
	c.mu.Unlock()
	if s != nil {
		return s, true, nil
	}
	s, err := c.mcp.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: c.Peer.URL, HTTPClient: c.http, MaxRetries: -1, DisableStandaloneSSE: true,
	}, nil)
	if err != nil {
		return nil, false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session != nil { // another call connected meanwhile: use that one
		go s.Close()
		return c.session, true, nil
	}
	c.session = s
	return s, false, nil
}

func (c *Client) drop(s *mcp.ClientSession) {
	c.mu.Lock()
	if c.session == s {
		c.session = nil
	}
	c.mu.Unlock()
	go s.Close()
}

// Close ends the open session, if any.
func (c *Client) Close() {
	c.mu.Lock()
	s := c.session
	c.session = nil
	c.mu.Unlock()
	if s != nil {
		s.Close()
	}
}

// errNoPayload is an answer without a JSON object in it.
var errNoPayload = errors.New("the peer's answer holds no JSON object")

func payloadOf(res *mcp.CallToolResult) (map[string]any, error) {
	var texts []string
	for _, ct := range res.Content {
		if t, ok := ct.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	if res.IsError {
		return nil, fmt.Errorf("the peer answered with a tool error: %s", clip(strings.Join(texts, " "), 200))
	}
	var payload map[string]any
	for _, t := range texts {
		if json.Unmarshal([]byte(t), &payload) == nil && payload != nil {
			break
		}
		payload = nil
	}
	if payload == nil {
		if m, ok := res.StructuredContent.(map[string]any); ok {
			payload = m
		}
	}
	if payload == nil {
		return nil, errNoPayload
	}
	if msg, ok := payload["error"].(string); ok && msg != "" {
		if msg == "access denied" {
			detail, _ := payload["detail"].(string)
			tier, _ := payload["tier"].(string)
			return nil, fmt.Errorf("access denied by the peer (tier %s): %s", clip(tier, 40), clip(detail, 200))
		}
		return nil, fmt.Errorf("the peer answered with an error: %s", clip(msg, 200))
	}
	return payload, nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
