// Package conformance is test scaffolding, not a product feature: it builds
// an MCP server that carries the fixture tools, resources and prompts the
// official conformance suite (@modelcontextprotocol/conformance) calls by
// name, such as test_simple_text, test://static-text, test_simple_prompt
// and the test_input_required_result_* tools of the 2026-07-28 revision.
//
// The point is to check OUR protocol stack, not a toy one: the hidden
// "bourdon conformance-fixtures" command serves this server through
// internal/mcp/mcphttp exactly as "bourdon serve --transport http" serves the
// real library (one endpoint for 2025-11-25 sessions and 2026-07-28
// stateless requests, Origin check, body cap), and .ci/conformance.sh runs
// every required scenario of both revisions against it. The real server
// cannot pass the fixture scenarios because it has no fixtures; it runs
// the generic ones (see docs/conformance.md).
//
// Nothing in bourdon's real server imports this package.
package conformance

import (
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServerName is the name the fixture server gives itself in the handshake.
const ServerName = "bourdon-conformance-fixtures"

// NewServer returns an MCP server with every fixture the required server
// scenarios of 2025-11-25 and 2026-07-28 use. Each server has its own key
// for sealing MRTR requestState, so a state minted by one process is
// rejected by another.
func NewServer(logger *slog.Logger) *mcp.Server {
	f := &fixtures{sealer: newSealer()}
	srv := mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "Bourdon conformance fixtures", Version: "1.0.0"}, &mcp.ServerOptions{
		Instructions:       "Fixture server for the MCP conformance suite; not a bourdon library.",
		Logger:             logger,
		CompletionHandler:  complete,
		SubscribeHandler:   f.subscribe,
		UnsubscribeHandler: f.unsubscribe,
	})
	f.srv = srv
	f.registerContentTools(srv)
	f.registerClientRequestTools(srv)
	f.registerDiagnosticTools(srv)
	f.registerMRTR(srv)
	registerResources(srv)
	registerPrompts(srv)
	return srv
}

// fixtures holds what handlers share.
type fixtures struct {
	srv    *mcp.Server
	sealer *sealer
}
