// Package mcpserver exposes a federation store over the Model Context
// Protocol: one small handler per tool that decodes the arguments, asks the
// store, and shapes the payload of the Bourdon wire contract. Every tool
// result carries the payload twice: as structuredContent, described by the
// tool's output schema, and as one TextContent holding the same JSON, which
// is what Python and TypeScript peers read.
package mcpserver

import (
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/federation"
	"github.com/getbourdon/bourdon-go/internal/visibility"
)

// ServerName is the name the server gives itself in the MCP handshake; the
// reference uses the same one.
const ServerName = "bourdon-l6"

// Options configure a server.
type Options struct {
	// Version is reported in the handshake.
	Version string
	// Machine names this machine in export_agents (see
	// federation.LocalName).
	Machine string
	// DefaultAccess, when set, replaces the per-tool default access level
	// (public for lookups, team for recognition). The command line sets it
	// from BOURDON_DEFAULT_ACCESS_LEVEL.
	DefaultAccess *visibility.Level
	Logger        *slog.Logger
}

// server holds what the handlers need.
type server struct {
	store *federation.Store
	opts  Options
}

// New returns an MCP server answering from store.
func New(store *federation.Store, opts Options) *mcp.Server {
	if opts.Machine == "" {
		opts.Machine = federation.LocalName()
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{store: store, opts: opts}
	srv := mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: "Bourdon federation library", Version: opts.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       opts.Logger,
	})
	for _, register := range []func(*mcp.Server){
		s.registerQueryAgentMemory,
		s.registerListRecentWork,
		s.registerFindEntity,
		s.registerListAgents,
		s.registerExportAgents,
		s.registerGetCrossAgentSummary,
		s.registerListWorkstreams,
		s.registerListNotes,
	} {
		register(srv)
	}
	s.registerResources(srv)
	return srv
}

const instructions = `Bourdon federation library: what every coding agent of this person has published about its work (entities, sessions, workstreams, notes), with per-row visibility.
Look things up with find_entity, query_agent_memory and get_cross_agent_summary; page through recent sessions with list_recent_work and notes with list_notes; list_workstreams for ongoing initiatives; list_agents and export_agents describe the agents.
Read tools default to access_level "public"; pass "team" or "private" to see more.`

// defaultAccess returns the access level a tool uses when the caller sends
// none: the configured default, else the tool's own.
func (s *server) defaultAccess(tool visibility.Level) visibility.Level {
	if s.opts.DefaultAccess != nil {
		return *s.opts.DefaultAccess
	}
	return tool
}
