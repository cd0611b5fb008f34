// Package mcphttp serves an MCP server over streamable HTTP for clients of
// both protocol revisions on one endpoint: 2025-11-25 clients (initialize
// handshake, Mcp-Session-Id sessions, resources/subscribe, server-to-client
// requests) get a stateful session; 2026-07-28 clients (stateless requests
// that carry Mcp-Protocol-Version) get the stateless handler. Around both it
// enforces the HTTP rules every deployment needs: a cap on request bodies
// (413), an Origin check against DNS rebinding (403), and the SDK's Host
// check for loopback binds. The bearer token is checked before the body is
// read, bodies must arrive within a deadline, and JSON-RPC batches are
// refused. Server builds the http.Server around the handler with the
// connection-level bounds (timeouts, a cap on connections that have not
// authenticated yet).
package mcphttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
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
	// BodyTimeout bounds the time a client may take to send a request
	// body; zero means DefaultBodyTimeout.
	BodyTimeout time.Duration
	// Auth identifies callers by bearer token. Nil means no
	// authentication: every caller is the operator, which the command line
	// allows only on a loopback address (--allow-unauthenticated).
	Auth *Auth
	// Limiter, when set, holds each authenticated caller to its rate on
	// tools/call and resources/read (429 beyond it). Callers without an
	// identity (no authentication, loopback only) are not limited.
	Limiter *Limiter
	// OnRateLimited, when set, is told the method of each refused call.
	OnRateLimited func(method string)
	// AllowedHosts are the Host headers accepted on a loopback listener
	// besides loopback names (the public URL's host, behind a proxy); any
	// other gets 403, against DNS rebinding.
	AllowedHosts []string
	Logger       *slog.Logger
}

// DefaultSessionTimeout is how long an idle 2025-11-25 session lives.
const DefaultSessionTimeout = 30 * time.Minute

// DefaultBodyTimeout is how long a client may take to send a body.
const DefaultBodyTimeout = 30 * time.Second

// Handler returns the HTTP handler for srv.
func Handler(srv *mcp.Server, opts Options) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.SessionTimeout <= 0 {
		opts.SessionTimeout = DefaultSessionTimeout
	}
	if opts.BodyTimeout <= 0 {
		opts.BodyTimeout = DefaultBodyTimeout
	}
	get := func(*http.Request) *mcp.Server { return srv }
	h := &handler{
		opts: opts,
		// The Host check against DNS rebinding is hostAllowed's, which
		// knows the public URL's host (CheckHost applies it elsewhere).
		stateful: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Logger:                     opts.Logger,
			MaxRequestBodyBytes:        opts.MaxBodyBytes,
			SessionTimeout:             opts.SessionTimeout,
			DisableLocalhostProtection: true,
		}),
		stateless: mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{
			Stateless:                    true,
			Logger:                       opts.Logger,
			MaxRequestBodyBytes:          opts.MaxBodyBytes,
			PropagateRequestCancellation: true,
			DisableLocalhostProtection:   true,
		}),
	}
	// The token is checked before the body is read, so that a client
	// without one cannot make the server hold its body.
	h.next = http.HandlerFunc(h.readBody)
	if opts.Auth != nil {
		h.next = opts.Auth.authenticate(h.next)
	}
	return h
}

type handler struct {
	opts      Options
	stateful  http.Handler
	stateless http.Handler
	next      http.Handler // authentication, then readBody, then dispatch
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !h.originAllowed(origin) {
		refuse(w)
		http.Error(w, fmt.Sprintf("Forbidden: origin %q is not allowed", origin), http.StatusForbidden)
		return
	}
	if !hostAllowed(r, h.opts.AllowedHosts) {
		refuseHost(w, r)
		return
	}
	h.next.ServeHTTP(w, r)
}

// CheckHost wraps next, a page served next to the MCP endpoint (the
// dashboard), with the endpoint's Host check against DNS rebinding:
// allowedHosts are Options.AllowedHosts.
func CheckHost(allowedHosts []string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r, allowedHosts) {
			refuseHost(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func refuseHost(w http.ResponseWriter, r *http.Request) {
	refuse(w)
	http.Error(w, fmt.Sprintf("Forbidden: invalid Host header %q (behind a proxy, name the public host with --public-url)", r.Host), http.StatusForbidden)
}

// readBody reads a POST body within the size cap and the body deadline,
// refuses JSON-RPC batches, and passes the request on to dispatch.
func (h *handler) readBody(w http.ResponseWriter, r *http.Request) {
	markAuthenticated(r.Context())
	if r.Body == nil || r.Method != http.MethodPost {
		if h.opts.Auth.scopesAllow(w, r, nil) {
			h.dispatch(w, r)
		}
		return
	}
	if r.ContentLength > h.opts.MaxBodyBytes {
		refuse(w)
		tooLarge(w, h.opts.MaxBodyBytes)
		return
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(h.opts.BodyTimeout))
	body, err := readAll(http.MaxBytesReader(w, r.Body, h.opts.MaxBodyBytes), r.ContentLength)
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		refuse(w)
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			tooLarge(w, h.opts.MaxBodyBytes)
			return
		}
		http.Error(w, fmt.Sprintf("Bad Request: the body did not arrive within %s", h.opts.BodyTimeout), http.StatusBadRequest)
		return
	}
	if isBatch(body) {
		jsonRPCError(w, http.StatusBadRequest, -32600, "Invalid Request: JSON-RPC batching is not supported; send one JSON-RPC message per request")
		return
	}
	if !h.opts.Auth.scopesAllow(w, r, body) || h.limit(w, r, body) {
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h.dispatch(w, r)
}

// readAll is io.ReadAll into a buffer sized for the declared length (one
// byte more, to see the end without growing), when there is one: a body
// read by io.ReadAll grows from 512 bytes by copies. The declared length
// is capped by the caller, and the reader bounds what is read.
func readAll(r io.Reader, declared int64) ([]byte, error) {
	if declared <= 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, declared+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) { // more than declared: let io.ReadAll grow it
			rest, err := io.ReadAll(r)
			return append(b, rest...), err
		}
	}
}

// isBatch reports whether a body is a JSON array (a JSON-RPC batch).
func isBatch(body []byte) bool {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '['
}

// refuse makes the server close the connection after this response
// instead of reading (and waiting for) the rest of an unwanted body.
func refuse(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
}

func jsonRPCError(w http.ResponseWriter, status, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0",
		"id":      nil,
		"error":   map[string]any{"code": code, "message": msg},
	})
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

// hostAllowed applies the DNS rebinding rule: a request that arrived on a
// loopback address must name a loopback host or one of allowed.
func hostAllowed(r *http.Request, allowed []string) bool {
	if !arrivedOnLoopback(r) {
		return true
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = strings.Trim(r.Host, "[]") // no port
	}
	return endpoint.IsLoopbackHost(host) || slices.ContainsFunc(allowed, func(a string) bool { return strings.EqualFold(a, host) })
}

// arrivedOnLoopback reports whether r came in on a loopback address of
// this machine. A TCP address is read as it is, without the text round
// trip other kinds of address need.
func arrivedOnLoopback(r *http.Request) bool {
	switch local := r.Context().Value(http.LocalAddrContextKey).(type) {
	case *net.TCPAddr:
		return local != nil && local.IP.IsLoopback()
	case net.Addr:
		ap, err := netip.ParseAddrPort(local.String())
		return err == nil && ap.Addr().IsLoopback()
	}
	return false
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
