package mcphttp

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// ServerOptions bound the connections of an http.Server built by Server.
type ServerOptions struct {
	// MaxUnauthenticated caps the connections open at once that have not
	// yet carried an authenticated request; a new connection over the cap
	// is closed at once. Zero means DefaultMaxUnauthenticated.
	MaxUnauthenticated int
	// IdleTimeout closes keep-alive connections idle for this long; zero
	// means DefaultIdleTimeout.
	IdleTimeout time.Duration
	Logger      *slog.Logger
}

// Connection bounds.
const (
	DefaultMaxUnauthenticated = 256
	DefaultIdleTimeout        = 2 * time.Minute
	headerTimeout             = 10 * time.Second
	maxHeaderBytes            = 64 << 10
)

// Server returns an http.Server for handler (a Handler, or a mux holding
// one) with bounded header reads, idle connections and unauthenticated
// connections.
func Server(handler http.Handler, opts ServerOptions) *http.Server {
	if opts.MaxUnauthenticated <= 0 {
		opts.MaxUnauthenticated = DefaultMaxUnauthenticated
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = DefaultIdleTimeout
	}
	l := &connLimiter{max: int64(opts.MaxUnauthenticated), log: opts.Logger}
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnContext:       l.connContext,
		ConnState:         l.connState,
	}
}

// connLimiter counts the connections that have not authenticated yet.
type connLimiter struct {
	max     int64
	pending atomic.Int64
	conns   sync.Map // net.Conn -> *connAuth
	log     *slog.Logger
	warned  atomic.Bool
}

// connAuth records whether a connection has carried an authenticated
// request; its counted flag says whether it is still in pending.
type connAuth struct {
	mu      sync.Mutex
	counted bool
	limiter *connLimiter
}

type connKey struct{}

func (l *connLimiter) connContext(ctx context.Context, c net.Conn) context.Context {
	a := &connAuth{counted: true, limiter: l}
	l.conns.Store(c, a)
	return context.WithValue(ctx, connKey{}, a)
}

func (l *connLimiter) connState(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		if l.pending.Add(1) > l.max {
			if l.log != nil && l.warned.CompareAndSwap(false, true) {
				l.log.Warn("too many connections without an authenticated request; closing new ones", "limit", l.max)
			}
			c.Close()
		}
	case http.StateClosed, http.StateHijacked:
		if v, ok := l.conns.LoadAndDelete(c); ok {
			v.(*connAuth).release()
		}
	}
}

// release takes the connection out of the pending count, once.
func (a *connAuth) release() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.counted {
		a.counted = false
		if a.limiter.pending.Add(-1) < a.limiter.max {
			a.limiter.warned.Store(false)
		}
	}
}

// markAuthenticated records that the connection of a request carried an
// authenticated request (or one needing no authentication).
func markAuthenticated(ctx context.Context) {
	if a, ok := ctx.Value(connKey{}).(*connAuth); ok {
		a.release()
	}
}
