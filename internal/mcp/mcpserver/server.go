// Package mcpserver exposes a federation store over the Model Context
// Protocol: one small handler per tool that decodes the arguments, asks the
// store, and shapes the payload of the Bourdon wire contract. Every tool
// result carries the payload twice: as structuredContent, described by the
// tool's output schema, and as one TextContent holding the same JSON, which
// is what Python and TypeScript peers read.
//
// Resources can be subscribed to (resources/subscribe in 2025-11-25,
// subscriptions/listen in 2026-07-28): Watch follows the library and sends
// resources/updated and list_changed notifications when manifests change.
package mcpserver

import (
	"context"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// ServerName is the name the server gives itself in the MCP handshake; the
// reference uses the same one.
const ServerName = "bourdon-l6"

// ServerTitle is the title the server gives itself in the handshake.
const ServerTitle = "Bourdon federation library"

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
	// PageSize is the number of items per page of the MCP list methods
	// (tools, resources, templates); zero means the SDK's default.
	PageSize int
	// Audit records every access decision; nil records nothing.
	Audit *trust.Audit
	// Writer is the write path (commit_to_federation and the history
	// tools). Nil makes the server read-only: those tools are not offered.
	Writer *commit.Writer
	// DeeperL2 is the external backend get_deeper_context appends; nil
	// for none. DeeperOptions tune the local assembly.
	DeeperL2      deeper.L2
	DeeperOptions deeper.Options
	// TurnEnv is the machine compile_codex_turn reads (working
	// directory, repository, Codex threads); the zero value is the real one.
	TurnEnv turn.Env
	// Peers are the peer servers the federating read tools also ask; nil
	// for none.
	Peers *peer.Set
	// Knowledge is the documentation graph joined with the memory
	// federation; nil serves no docs tools or node resources.
	Knowledge *knowledge.Base
	// Requests is the request lifecycle's store; nil serves no request
	// tools.
	Requests *requests.Store
	Logger   *slog.Logger
}

// Server is an MCP server answering from a federation store.
type Server struct {
	*mcp.Server
	store *federation.Store
	opts  Options
	memo  *memo // the answers of memoized tools' recent calls (memo.go)

	deeper *deeper.Service
	turn   *turn.Compiler

	mu        sync.Mutex
	subs      map[string]int                       // subscribed resource URIs, by how many sessions
	sessions  map[*mcp.ServerSession]*sessionState // sessions that initialized or subscribed
	announced map[string]*l5.Manifest              // agent id -> manifest last announced

	surfaces   []string            // the operations offered through an access step (offer)
	tools      map[string]offered  // the tools, by name (for the tests)
	readMemory mcp.ResourceHandler // the memory resources' access step (registerResources)
	readNode   mcp.ResourceHandler // the node resources' access step (registerNodeResources)
}

// offered is what addTool keeps of a tool, for the tests: its argument
// decoder and its handler.
type offered struct {
	args    *argDecoder
	handler mcp.ToolHandler
}

// New returns an MCP server answering from store.
func New(store *federation.Store, opts Options) *Server {
	if opts.Machine == "" {
		opts.Machine = federation.LocalName("")
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &Server{store: store, opts: opts, memo: newMemo(memoMaxBytes), subs: map[string]int{}, sessions: map[*mcp.ServerSession]*sessionState{}, announced: map[string]*l5.Manifest{}, tools: map[string]offered{}}
	dopts := opts.DeeperOptions
	dopts.L2, dopts.Logger = opts.DeeperL2, opts.Logger
	s.deeper = deeper.New(store, dopts)
	s.turn = turn.New(store, opts.TurnEnv)
	s.offer("completion") // CompletionHandler
	s.Server = mcp.NewServer(&mcp.Implementation{Name: ServerName, Title: ServerTitle, Version: opts.Version}, &mcp.ServerOptions{
		Instructions:       instructions,
		Logger:             opts.Logger,
		PageSize:           opts.PageSize,
		SubscribeHandler:   s.subscribe,
		UnsubscribeHandler: s.unsubscribe,
		CompletionHandler:  s.complete,
		SetCacheable:       cacheHints,
		// The tool list never changes while the server runs, so tools do
		// not announce list changes; prompts/list answers (with no prompts)
		// and says so in server/discover.
		Capabilities: &mcp.ServerCapabilities{
			Logging: &mcp.LoggingCapabilities{},
			Tools:   &mcp.ToolCapabilities{},
			Prompts: &mcp.PromptCapabilities{},
		},
	})
	for _, register := range []func(){
		s.registerQueryAgentMemory,
		s.registerListRecentWork,
		s.registerFindEntity,
		s.registerListAgents,
		s.registerExportAgents,
		s.registerGetCrossAgentSummary,
		s.registerListWorkstreams,
		s.registerListNotes,
		s.registerReloadLibrary,
		s.registerPrepareRecognitionContext,
		s.registerGetDeeperContext,
		s.registerCompileCodexTurn,
		s.registerDescribeCaller,
	} {
		register()
	}
	if opts.Writer != nil {
		s.registerCommitToFederation()
		s.registerHistoryTools()
	}
	s.registerResources()
	if opts.Requests != nil {
		s.registerRequestTools()
	}
	if opts.Requests != nil || opts.Knowledge != nil {
		s.registerDescribeSchema()
	}
	if opts.Knowledge != nil {
		for _, register := range []func(){
			s.registerDocsSearch, s.registerDocsFetch, s.registerCodeSampleSearch, s.registerGetRelated,
			s.registerGetLearningPath, s.registerResolveXref, s.registerQueryGraph,
			s.registerNodeResources,
		} {
			register()
		}
	}
	// Outermost, so that nothing the others answer escapes it.
	s.AddReceivingMiddleware(s.redactProtocol, s.capSessions)
	s.AddSendingMiddleware(s.redactNotifications)
	s.announce(context.Background(), false)
	return s
}

const instructions = `Bourdon federation library: what every coding agent of this person has published about its work (entities, sessions, workstreams, notes), with per-row visibility.
Look things up with find_entity, query_agent_memory and get_cross_agent_summary; page through recent sessions with list_recent_work and notes with list_notes; list_workstreams for ongoing initiatives; list_agents and export_agents describe the agents.
Read tools default to access_level "public"; pass "team" or "private" to see more.`

// turnDefaultAccess is the default access level of the turn-start tools.
const turnDefaultAccess = visibility.Team

// defaultAccess returns the access level a tool uses when the caller sends
// none: the configured default, else the tool's own.
func (s *Server) defaultAccess(tool visibility.Level) visibility.Level {
	if s.opts.DefaultAccess != nil {
		return *s.opts.DefaultAccess
	}
	return tool
}

// cacheHints tells 2026-07-28 clients how long list and read results stay
// fresh: the tool, template and prompt lists only change with a new binary;
// the resource list and resource contents follow the library and must be
// fetched again.
func cacheHints(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
	switch req.(type) {
	case *mcp.ListToolsRequest, *mcp.ListResourceTemplatesRequest, *mcp.ListPromptsRequest:
		c.TTLMs, c.CacheScope = 300_000, "public"
	case *mcp.ReadResourceRequest:
		c.TTLMs, c.CacheScope = 0, "private"
	default:
		c.TTLMs, c.CacheScope = 0, "public"
	}
}
