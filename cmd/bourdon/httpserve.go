package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/getbourdon/bourdon-go/internal/dashboard"
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

// serveMCP serves handler at /mcp (and the dashboard, when there is one,
// at /ui/) on ln until ctx ends, then shuts down.
// Requests inherit ctx, so that stopping the server also ends long-lived
// event streams instead of waiting for them.
func serveMCP(ctx context.Context, ln net.Listener, ui http.Handler, handler http.Handler, log *slog.Logger) error {
	mux := http.NewServeMux()
	mux.Handle("/mcp", handler)
	if ui != nil {
		mux.Handle(dashboard.Prefix, ui)
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
