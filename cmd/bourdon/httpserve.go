package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// newLogger writes logs to stderr, as text or (jsonFormat) JSON lines, at
// warning level when quiet.
func newLogger(stderr io.Writer, quiet, jsonFormat bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	if jsonFormat {
		return slog.New(slog.NewJSONHandler(stderr, opts))
	}
	return slog.New(slog.NewTextHandler(stderr, opts))
}

// logLines is a writer that logs each line written to it as a message, so
// that the start-up banner is JSON too under --log-format json. A line
// written in several pieces is logged once it is complete.
type logLines struct {
	log     *slog.Logger
	partial []byte
}

func (l *logLines) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		line, rest, found := bytes.Cut(l.partial, []byte("\n"))
		if !found {
			return len(p), nil
		}
		if text := strings.TrimSpace(string(line)); text != "" {
			l.log.Info(text)
		}
		l.partial = rest
	}
}

// serveMCP serves handler at /mcp on ln until ctx ends, then shuts down.
func serveMCP(ctx context.Context, ln net.Listener, handler http.Handler, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	return serveRoutes(ctx, ln, mux, nil, log)
}

// serveRoutes serves handler on ln (over TLS when tlsConfig is set) until
// ctx ends, then shuts down. Requests inherit ctx, so that stopping the
// server also ends long-lived event streams instead of waiting for them.
func serveRoutes(ctx context.Context, ln net.Listener, handler http.Handler, tlsConfig *tls.Config, log *slog.Logger) error {
	hs := mcphttp.Server(handler, mcphttp.ServerOptions{Logger: log})
	hs.BaseContext = func(net.Listener) context.Context { return ctx }
	if tlsConfig != nil {
		ln = tls.NewListener(ln, tlsConfig)
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(shutdown); err != nil {
			hs.Close()
		}
		return nil
	}
}

// readiness is one check of /readyz: it returns what is wrong, or nil.
type readiness struct {
	name  string
	check func() error
}

// healthRoutes adds /healthz (the process answers) and /readyz (every
// check passes; 503 naming the failing ones otherwise). Neither needs
// authentication nor says more than the names of the checks.
func healthRoutes(mux *http.ServeMux, checks []readiness) {
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok"})
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		failing := []string{}
		for _, c := range checks {
			if c.check() != nil {
				failing = append(failing, c.name)
			}
		}
		if len(failing) > 0 {
			writeJSON(w, http.StatusServiceUnavailable, map[string]any{"status": "not ready", "failing": failing})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"status": "ready"})
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// operatorOnly lets through requests carrying the operator's token (the
// legacy shared token), and every request when the server runs without
// authentication (loopback only). Registry members, whatever their tier,
// get 403: metrics describe the whole server. Every refusal counts
// against the client address's refusal limit (auth.Failures), so the
// operator's token cannot be guessed here faster than at /mcp.
func operatorOnly(auth *mcphttp.Auth, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if auth == nil {
			next.ServeHTTP(w, r)
			return
		}
		if _, ok := trust.AuthenticateLegacy(auth.LegacyToken, bearerToken(r)); ok {
			next.ServeHTTP(w, r)
			return
		}
		if ok, wait := auth.Failures.Allow(r, time.Now()); !ok {
			seconds := mcphttp.RetryAfter(w, wait)
			writeJSON(w, http.StatusTooManyRequests, map[string]string{"error": fmt.Sprintf("Too Many Requests: too many refused tokens from your address; retry after %ds", seconds)})
			return
		}
		if bearerToken(r) == "" {
			w.Header().Set("WWW-Authenticate", `Bearer realm="bourdon"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing Bearer token (the operator's, " + trust.LegacyTokenEnv + ")"})
			return
		}
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "metrics need the operator's token (" + trust.LegacyTokenEnv + ")"})
	})
}

// bearerToken returns the token of a request's Bearer Authorization
// header, or "".
func bearerToken(r *http.Request) string {
	scheme, token, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}
