package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// newLogger writes text logs to stderr, at warning level when quiet.
func newLogger(stderr io.Writer, quiet bool) *slog.Logger {
	level := slog.LevelInfo
	if quiet {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
}

// serveMCP serves handler at /mcp on ln until ctx ends, then shuts down;
// mount, when not nil, adds the OAuth endpoints. Requests inherit ctx, so
// that stopping the server also ends long-lived event streams instead of
// waiting for them.
func serveMCP(ctx context.Context, ln net.Listener, handler http.Handler, mount func(*http.ServeMux), log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	if mount != nil {
		mount(mux)
	}
	hs := mcphttp.Server(mux, mcphttp.ServerOptions{Logger: log})
	hs.BaseContext = func(net.Listener) context.Context { return ctx }
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

// publicBase returns the server's base URL as clients see it: the
// --public-url (scheme and host, an optional trailing /mcp dropped), or
// http://ADDR of the listener when it is unset.
func publicBase(publicURL, addr string) (string, error) {
	if publicURL == "" {
		return "http://" + addr, nil
	}
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("--public-url %q: give the address clients use, such as https://mcp.example.com (no credentials, query or fragment)", publicURL)
	}
	if p := strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/mcp"); p != "" {
		return "", fmt.Errorf("--public-url %q: the server answers at the root of its host (/mcp); a path prefix %q is not supported", publicURL, p)
	}
	return u.Scheme + "://" + u.Host, nil
}
