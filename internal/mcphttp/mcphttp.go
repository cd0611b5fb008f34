// Package mcphttp serves an MCP server over streamable HTTP for clients of
// both protocol revisions on one endpoint: 2025-11-25 clients (initialize
// handshake, Mcp-Session-Id sessions, resources/subscribe, server-to-client
// requests) get a stateful session; 2026-07-28 clients (stateless requests
// that carry Mcp-Protocol-Version) get the stateless handler. Around both it
// enforces the HTTP rules every deployment needs: a cap on request bodies
// (413), an Origin check against DNS rebinding (403), and the SDK's Host
// check for loopback binds.
package mcphttp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/endpoint"
)

// DefaultMaxBodyBytes is the default cap on a request body.
const DefaultMaxBodyBytes = 1 << 20

// statelessVersion is the first revision served without sessions.
const statelessVersion = "2026-07-28"

// Options configure the handler.
type Options struct {
	// MaxBodyBytes caps request bodies; larger requests get 413. Zero
	// means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// AllowedOrigins lists the origins (scheme://host[:port]) browsers may
	// call from, besides loopback origins, which are always allowed. A
	// request with any other Origin header gets 403.
	AllowedOrigins []string
	// SessionTimeout closes 2025-11-25 sessions idle for this long; zero
	// means DefaultSessionTimeout.
	SessionTimeout time.Duration
	// Auth identifies callers by bearer token. Nil means no
	// authentication: every caller is the operator, which the command line
	// allows only on a loopback address (--allow-unauthenticated).
	Auth   *Auth
	Logger *slog.Logger
}

// DefaultSessionTimeout is how long an idle 2025-11-25 session lives.
const DefaultSessionTimeout = 30 * time.Minute

// Handler returns the HTTP handler for srv.
func Handler(srv *mcp.Server, opts Options) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	get := func(*http.Request) *mcp.Server { return srv }
	h := &handler{
		opts: opts,
		stateful: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Logger:              opts.Logger,
			MaxRequestBodyBytes: opts.MaxBodyBytes,
			SessionTimeout:      opts.SessionTimeout,
		}),
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			Logger:                       opts.Logger,
			MaxRequestBodyBytes:          opts.MaxBodyBytes,
			PropagateRequestCancellation: true,
		}),
	}
	if opts.Auth != nil {
		h.next = opts.Auth.authenticate(http.HandlerFunc(h.dispatch))
	} else {
		h.next = http.HandlerFunc(h.dispatch)
	}
	return h
}

type handler struct {
	opts      Options
	stateful  http.Handler
	stateless http.Handler
	next      http.Handler // authentication, then dispatch
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !h.originAllowed(origin) {
		http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed", origin), http.StatusForbidden)
		return
	}
	if r.Body != nil && r.Method == http.MethodPost {
		if r.ContentLength > h.opts.MaxBodyBytes {
			tooLarge(w, h.opts.MaxBodyBytes)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes))
		if err != nil {
			var mbe *http.MaxBytesError
			if errors.As(err, &mbe) {
				tooLarge(w, h.opts.MaxBodyBytes)
				return
			}
			http.Error(w, "Bad Request: cannot read the body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	h.next.ServeHTTP(w, r)
}

// dispatch sends 2026-07-28 requests to the stateless handler and the
// rest (2025-11-25 handshakes and sessions) to the stateful one.
func (h *handler) dispatch(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Mcp-Session-Id") == "" && r.Header.Get("Mcp-Protocol-Version") >= statelessVersion {
		h.stateless.ServeHTTP(w, r)
		return
	}
	h.stateful.ServeHTTP(w, r)
}

func tooLarge(w http.ResponseWriter, limit int64) {
	http.Error(w, fmt.Sprintf("Request Entity Too Large: bodies are limited to %d bytes", limit), http.StatusRequestEntityTooLarge)
}

// originAllowed accepts loopback origins and the configured ones.
func (h *handler) originAllowed(origin string) bool {
	if slices.Contains(h.opts.AllowedOrigins, strings.TrimRight(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return endpoint.IsLoopbackHost(u.Hostname())
}
