package main

import (
	"context"
	"fmt"
	"io"
	"net"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/testkit/conformance"
)

// newConformanceCommand returns the hidden command that serves the MCP
// conformance suite's fixtures through bourdon's HTTP stack. It is test
// scaffolding for .ci/conformance.sh, not a user feature.
func newConformanceCommand() *cobra.Command {
	var addr string
	var quiet bool
	cmd := &cobra.Command{
		Use:    "conformance-fixtures",
		Short:  "Serve the MCP conformance suite's fixture tools over bourdon's HTTP stack (CI only)",
		Hidden: true,
		Long: `Serve the fixture tools, resources and prompts that the official MCP
conformance suite (@modelcontextprotocol/conformance) calls by name, at
http://ADDR/mcp, through the same handler as "bourdon serve --transport http"
(2025-11-25 sessions and 2026-07-28 stateless requests on one endpoint,
Origin check, request body cap). It serves no library. The first line on
stderr names the URL; with port 0 a free port is chosen.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runConformanceFixtures(cmd.Context(), addr, quiet, cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:3101", "loopback address to listen on (port 0 picks a free port)")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "log only warnings and errors")
	return cmd
}

func runConformanceFixtures(ctx context.Context, addr string, quiet bool, stderr io.Writer) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr: %w", err)
	}
	if !endpoint.IsLoopbackHost(host) {
		return fmt.Errorf("--addr must be a loopback address, not %s", host)
	}
	log := newLogger(stderr, quiet, false)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "conformance fixtures on http://%s/mcp\n", ln.Addr())
	return serveMCP(ctx, ln, mcphttp.Handler(conformance.NewServer(log), mcphttp.Options{Logger: log}), log)
}
