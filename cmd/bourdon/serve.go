package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/dashboard"
	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpmetrics"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpstdio"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

type serveFlags struct {
	library       string
	transport     string
	host          string
	port          int
	demo          bool
	quiet         bool
	maxBody       int64
	origins       []string
	registry      string
	auditLog      string
	allowUnauthed bool
	oauthIssuer   string
	noOAuth       bool
	ops           opsFlags
	l2            l2Flags
	peers         peerFlags
	docs          docsFlags
	github        requests.GitHubConfig
	store         string // a postgres:// URL, or "" for the library directory
	// reconcile is how often a replica on --store compares what it holds
	// with the database without having been notified.
	reconcile time.Duration
	ui        uiFlags
}

// peerFlags select the peer servers; by default there are none.
type peerFlags struct {
	federate           bool
	config             string
	urls               []string
	none               bool
	timeout            time.Duration
	recognitionTimeout time.Duration
	deadline           time.Duration
}

func newServeCommand() *cobra.Command {
	cmd, _ := serveCommand()
	return cmd
}

// serveCommand returns the serve command and the flags it fills (bourdon
// ui is the same command with the dashboard in front).
func serveCommand() (*cobra.Command, *serveFlags) {
	f := &serveFlags{}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the library over MCP (stdio or streamable HTTP)",
		Long: `Serve the library over MCP.

With --transport stdio (the default) an MCP client starts bourdon and talks to
it over stdin/stdout, as the operator. With --transport http the server
listens on http://HOST:PORT/mcp and identifies callers by bearer token
(bourdon registry add); without any token configured it answers 503, and it
refuses to bind a non-loopback address. --allow-unauthenticated makes every
HTTP caller the operator, on loopback only.

Web and desktop connectors get OAuth access tokens for a registry member: from
the built-in authorization server (consent with the member's bdn_ token, or
bourdon oauth approve), or from the provider named by --oauth-issuer. Set
--public-url to the address clients use (behind a TLS proxy); --no-oauth
turns OAuth off. See docs/remote.md.

--demo serves a small demo library from a temporary directory (deleted on
exit) over HTTP without authentication unless --transport says otherwise; it
never touches your library, registry or audit log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.demo && !cmd.Flags().Changed("transport") {
				f.transport = "http"
			}
			if f.store != "" && cmd.Flags().Changed("registry") {
				return errors.New("--registry names a file, but with --store the registry is the database's (bourdon store copy puts a file's there); drop one of them")
			}
			return runServe(cmd.Context(), *f, cmd.ErrOrStderr())
		},
	}
	f.register(cmd)
	return cmd, f
}

// register declares serve's flags on cmd, bound to f.
func (f *serveFlags) register(cmd *cobra.Command) {
	// The two paths' defaults come from the environment, so that --help
	// shows them.
	registryPath, _ := trust.DefaultRegistryPath(processEnv.get)
	auditPath, _ := trust.DefaultAuditPath(processEnv.get)
	cmd.Flags().StringVar(&f.library, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	cmd.Flags().StringVar(&f.store, "store", "", storeFlagHelp)
	cmd.Flags().DurationVar(&f.reconcile, "store-reconcile", library.DefaultReconcile, "with --store, how often this replica compares its manifests and requests with the database's in case a change notification was lost (they arrive at once otherwise)")
	cmd.Flags().StringVar(&f.transport, "transport", "stdio", "stdio or http")
	cmd.Flags().StringVar(&f.host, "host", "127.0.0.1", "HTTP address to bind")
	cmd.Flags().IntVar(&f.port, "port", 7500, "HTTP port")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "serve a demo library from a temporary directory")
	cmd.Flags().BoolVar(&f.quiet, "quiet", false, "log only warnings and errors")
	cmd.Flags().Int64Var(&f.maxBody, "max-request-bytes", mcphttp.DefaultMaxBodyBytes, "largest HTTP request body accepted (larger ones get 413)")
	cmd.Flags().StringSliceVar(&f.origins, "allowed-origin", nil, "browser origin (scheme://host:port) allowed to call the HTTP endpoint, besides loopback ones; repeatable")
	cmd.Flags().StringVar(&f.registry, "registry", registryPath, "federation registry of HTTP callers (BOURDON_FEDERATION_CONFIG); with --store, the database's is used instead")
	cmd.Flags().StringVar(&f.auditLog, "audit-log", auditPath, "append-only log of every access decision (BOURDON_AUDIT_PATH)")
	cmd.Flags().BoolVar(&f.allowUnauthed, "allow-unauthenticated", false, "HTTP without bearer tokens: every caller is the operator (loopback addresses only)")
	cmd.Flags().StringVar(&f.oauthIssuer, "oauth-issuer", "", "accept the JWT access tokens of this external OAuth provider (issuer URL), mapped to members by `bourdon registry set-subject`, instead of running the built-in authorization server")
	cmd.Flags().BoolVar(&f.noOAuth, "no-oauth", false, "HTTP accepts bdn_ bearer tokens only: no OAuth metadata, no authorization server")
	f.ops.register(cmd)
	f.l2.register(cmd)
	cmd.Flags().StringArrayVar(&f.docs.roots, "docs", nil, "serve this documentation corpus (Learn-style YAML, Diataxis markdown, snippets) as a knowledge graph; repeatable (later roots overlay earlier ones)")
	cmd.Flags().StringVar(&f.docs.config, "docs-config", "", "YAML file naming the corpus roots (docs: [...]) and the embedder (embedder: {provider, url, model, dim, token_env})")
	cmd.Flags().StringVar(&f.docs.Provider, "embedder", "", "embedding service for docs_search and get_deeper_context: openai (any OpenAI-compatible /v1/embeddings) or ollama; default: docs_search uses vectors learned from the corpus itself, get_deeper_context ranks lexically")
	cmd.Flags().StringVar(&f.docs.URL, "embedder-url", "", "base URL of the embedding service (https, or http on loopback)")
	cmd.Flags().StringVar(&f.docs.Model, "embedder-model", "", "embedding model name")
	cmd.Flags().IntVar(&f.docs.Dim, "embedder-dim", 0, "vector length the embedding model returns")
	cmd.Flags().StringVar(&f.docs.TokenEnv, "embedder-token-env", "", "variable (BOURDON_EMBED_*) holding the embedding service's bearer token")
	cmd.Flags().StringVar(&f.github.Repo, "github-repo", "", "forward every request proposal to this GitHub repository (owner/name) as an issue or comment; token from BOURDON_GITHUB_TOKEN")
	cmd.Flags().StringVar(&f.github.BaseURL, "github-api", "", "GitHub REST API base URL (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3)")
	cmd.Flags().BoolVar(&f.peers.federate, "federate", false, "federate with the peers listed in ~/.bourdon/peers.yaml (fails if it is missing or invalid)")
	cmd.Flags().StringVar(&f.peers.config, "peers-config", "", "federate with the peers listed in this file only (fails if it is missing or invalid)")
	cmd.Flags().StringArrayVar(&f.peers.urls, "peer", nil, "federate with the bourdon server at this URL (https, or http on loopback; token from BOURDON_PEER_TOKEN); repeatable")
	cmd.Flags().BoolVar(&f.peers.none, "no-peers", false, "assert local-only operation; refuses --federate, --peers-config and --peer")
	cmd.Flags().DurationVar(&f.peers.timeout, "peer-timeout", peer.DefaultTimeout, "how long each peer may take to answer a lookup or list")
	cmd.Flags().DurationVar(&f.peers.recognitionTimeout, "peer-recognition-timeout", peer.DefaultRecognitionTimeout, "how long each peer may take to answer prepare_recognition_context")
	cmd.Flags().DurationVar(&f.peers.deadline, "peer-deadline", peer.DefaultDeadline, "the most any federated call waits for its peers, connecting included")
}

func runServe(ctx context.Context, f serveFlags, stderr io.Writer) error {
	if _, set := os.LookupEnv("GOGC"); !set {
		// The library stays in memory for the life of the process while
		// requests allocate short-lived garbage; collecting at 3x the live
		// heap instead of 2x roughly halves GC work per request for a
		// modest amount of memory. GOGC overrides it.
		debug.SetGCPercent(200)
	}
	jsonLogs := f.ops.logFormat == "json"
	log := newLogger(stderr, f.quiet, jsonLogs)
	if jsonLogs {
		stderr = &logLines{log: log}
	}
	cfg, err := resolveServe(f, processEnv)
	for _, w := range cfg.warnings {
		log.Warn(w)
	}
	if err != nil {
		return err
	}
	if cfg.demo {
		dir, err := os.MkdirTemp("", "bourdon-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if err := demo.Write(dir, time.Now()); err != nil {
			return err
		}
		if err := demo.WriteDocs(filepath.Join(dir, "docs")); err != nil {
			return err
		}
		cfg.useDemo(dir)
	}
	var metrics *mcpmetrics.Metrics
	if cfg.transport == "http" || cfg.ops.metricsListen != "" {
		metrics = mcpmetrics.New()
	}
	// With --store, one pool serves the library, the registry, the OAuth
	// state and the audit log.
	var pg *postgres.Store
	if cfg.store != "" {
		if pg, err = openPostgres(ctx, cfg.store); err != nil {
			return err
		}
		defer pg.Close()
	}
	var auth *mcphttp.Auth
	var place trustPlace // the registry and OAuth state (--store: the database's)
	if cfg.transport == "http" {
		place = trustPlace{registryPath: cfg.registry, pg: pg}
		if auth, err = httpAuth(cfg, place, log); err != nil {
			return err
		}
		if auth != nil {
			auth.OnRefused = metrics.AuthFailed
			auth.Failures = addrLimiter(refusalLimit, "auth_refusals", metrics)
		}
	}
	l2, err := deeperBackend(cfg.deeperL2, cfg.env)
	if err != nil {
		return err
	}
	emb, err := cfg.docs.embedder() // nil: none configured
	if err != nil {
		return err
	}
	peers := peer.NewSet(cfg.peerList, peer.Options{
		Timeout: cfg.peers.timeout, RecognitionTimeout: cfg.peers.recognitionTimeout, Deadline: cfg.peers.deadline,
		Getenv: cfg.env.get, Version: buildVersion(), Logger: log, OnCall: metrics.PeerCall,
	})
	if peers != nil {
		defer peers.Close()
	}
	lib, writer, closeLib, err := openLibrary(cfg.library, pg, cfg.reconcile, log)
	if err != nil {
		return err
	}
	defer closeLib()
	if metrics != nil {
		lib.ObserveReloads(metrics.Reloaded)
	}
	snap := lib.Snapshot()
	// Writers killed mid-write (kill -9, a full disk) leave temporary
	// files; the ones no live write can own go now.
	swept := writer.SweepLibrary(ctx)
	for _, path := range swept {
		log.Info("removed a dead writer's temporary file", "file", path)
	}
	opts := mcpserver.Options{
		Version:       buildVersion(),
		Machine:       cfg.machine,
		Logger:        log,
		Audit:         serverAudit(ctx, cfg.auditLog, writer.Store(), log),
		Writer:        writer,
		DeeperL2:      l2,
		DeeperOptions: deeper.Options{L2TopK: cfg.deeperL2.TopK, L2Timeout: cfg.deeperL2.Timeout, Embedder: emb, WordNet: wordnet.DefaultLexicon},
		Peers:         peers,
		DefaultAccess: cfg.defaultAccess,
		TurnEnv:       turn.Env{Getenv: cfg.env.get},
	}
	if emb != nil && pg == nil { // the semantic arm's vectors, kept beside the other caches
		opts.DeeperOptions.VectorCache = filepath.Join(lib.Root(), ".bourdon", "deeper-vectors")
	}
	store := federation.NewWithDocuments(lib, libraryDocuments(lib.Root(), writer.Store()))
	if opts.Requests, err = requestStore(lib.Root(), writer.Store(), cfg.github); err != nil {
		return err
	}
	var reconcile time.Duration // the requests': with --store, announced by the listener
	if pg != nil {
		reconcile = cfg.reconcile
	}
	if opts.Knowledge, err = knowledgeBase(ctx, cfg.docs, emb, store, opts.Requests, reconcile, log); err != nil {
		return err
	}
	if pg != nil {
		stop := followStore(ctx, pg, lib, opts.Knowledge, log)
		defer stop()
	}
	srv := mcpserver.New(store, opts)
	if metrics != nil {
		srv.Server.AddReceivingMiddleware(metrics.Middleware(trust.Ops()))
		metrics.WatchSessions(srv.Server)
		metrics.WatchLibrary(func() (int, int) { return librarySize(lib.Snapshot()) })
		if cfg.ops.metricsListen != "" {
			if err := serveMetrics(ctx, cfg.ops.metricsListen, metrics, stderr, log); err != nil {
				return err
			}
		}
	}
	go srv.Watch(ctx)
	go srv.WatchKnowledge(ctx)

	where := lib.Root()
	if cfg.store != "" {
		where = postgres.Redact(cfg.store)
	}
	fmt.Fprintf(stderr, "bourdon %s: library %s (%d agents", buildVersion(), where, snap.Len())
	if n := len(snap.Warnings()); n > 0 {
		fmt.Fprintf(stderr, ", %d files with problems", n)
	}
	if n := len(swept); n > 0 {
		fmt.Fprintf(stderr, ", %d stale temporary files removed", n)
	}
	fmt.Fprintln(stderr, ")")
	if v := storeVectors(ctx, writer); v != "" {
		fmt.Fprintf(stderr, "vectors:   %s\n", v)
	}
	if peers != nil {
		for _, p := range peers.Peers() {
			fmt.Fprintf(stderr, "peer:      %s at %s (token from %s)\n", p.Name, p.URL, p.TokenEnv)
		}
	}
	if cfg.transport == "stdio" {
		fmt.Fprintln(stderr, `transport: stdio, caller: operator. MCP client config: {"command": "bourdon", "args": ["serve"]}`)
		err := srv.Run(ctx, mcpstdio.Transport(os.Stdin, os.Stdout, mcpstdio.Options{}))
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	ready := []readiness{{"library", libraryReady(ctx, lib, writer, cfg.store != "")}}
	if kb := opts.Knowledge; kb != nil {
		ready = append(ready, readiness{"corpus", func() error {
			if kb.Current() == nil {
				return errors.New("not loaded")
			}
			return nil
		}})
	}
	if auth != nil && auth.Registry != nil {
		ready = append(ready, readiness{"registry", auth.Registry.Err})
	}
	parts := httpParts{auth: auth, place: place, metrics: metrics, ready: ready, dashboard: dashboardConfig(srv, opts, auth, place, cfg, lib.Root(), log)}
	return serveHTTP(ctx, srv, cfg, parts, stderr, log)
}

// librarySize counts a snapshot's agents and rows.
func librarySize(snap *library.Snapshot) (agents, rows int) {
	for _, id := range snap.IDs() {
		if a, ok := snap.Agent(id); ok && a.Manifest != nil {
			m := a.Manifest
			rows += len(m.Sessions) + len(m.Entities) + len(m.Workstreams) + len(m.Notes)
		}
	}
	return snap.Len(), rows
}

// useDemo points the configuration at a demo library written in dir: its
// own registry, audit log and docs, and no authentication over HTTP.
func (c *serveConfig) useDemo(dir string) {
	c.docs.roots = append([]string{filepath.Join(dir, "docs")}, c.docs.roots...)
	c.library = dir
	c.registry = filepath.Join(dir, "federation.yaml")
	c.auditLog = filepath.Join(dir, "audit.jsonl")
	if c.transport == "http" {
		c.allowUnauthed = true
	}
}

// l2Flags select the external L2 backend of get_deeper_context (serve and
// deeper-context).
type l2Flags struct {
	config, endpoint, protocol string
}

func (f *l2Flags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.config, "l2-config", "", "YAML file configuring the external L2 backend of get_deeper_context (enabled, endpoint, protocol, tool_name, top_k, timeout_seconds, token_env); BOURDON_L2_* variables override it")
	cmd.Flags().StringVar(&f.endpoint, "l2-endpoint", "", "enable the external L2 backend at this URL (https, or http on loopback)")
	cmd.Flags().StringVar(&f.protocol, "l2-protocol", "", "protocol of the L2 backend: mcp (default) or http")
}

// githubTokenEnv holds the token of the GitHub tracker.
const githubTokenEnv = "BOURDON_GITHUB_TOKEN"

// requestStore opens the request store of the library in lib (in st when
// it is a PostgreSQL store), forwarding proposals to GitHub when a
// repository is configured (gh carries the token).
func requestStore(lib string, st store.Store, gh requests.GitHubConfig) (*requests.Store, error) {
	s, err := libraryRequests(lib, st)
	if err != nil {
		return nil, err
	}
	if gh.Repo == "" && gh.BaseURL == "" {
		return s, nil
	}
	t, err := requests.NewGitHub(gh)
	if err != nil {
		return nil, fmt.Errorf("--github-repo: %w (the token comes from %s)", err, githubTokenEnv)
	}
	s.Tracker = t
	return s, nil
}

// httpAuth applies the bind contract of the reference and returns how HTTP
// callers are identified (nil: everyone is the operator).
//
//	loopback, no --allow-unauthenticated: bearer tokens (503 while none is configured)
//	loopback, --allow-unauthenticated:    every caller is the operator
//	other address, tokens configured:     bearer tokens
//	other address, no tokens:             refuse to start
//	other address, --allow-unauthenticated: refuse to start
func httpAuth(c serveConfig, place trustPlace, log *slog.Logger) (*mcphttp.Auth, error) {
	loopback := endpoint.IsLoopbackHost(c.host)
	if c.allowUnauthed {
		if !loopback {
			return nil, fmt.Errorf("refusing to start: --allow-unauthenticated with non-loopback bind %q; bind 127.0.0.1, or register callers with `bourdon registry add` and drop the flag", c.host)
		}
		log.Warn("HTTP without authentication: every caller is the operator", "host", c.host)
		return nil, nil
	}
	auth := &mcphttp.Auth{Registry: place.registry(), LegacyToken: c.legacyToken}
	if err := auth.Registry.Err(); err != nil {
		log.Warn("the federation registry cannot be read; no registered caller can authenticate until it is fixed", "err", err)
	}
	if !loopback && !auth.Configured() {
		return nil, fmt.Errorf("refusing to start: bind %q is network-reachable but no auth is configured; register a caller with `bourdon registry add`, set %s, or bind 127.0.0.1", c.host, trust.LegacyTokenEnv)
	}
	return auth, nil
}

// httpParts are what serveHTTP serves besides the MCP server.
type httpParts struct {
	auth      *mcphttp.Auth // nil: no authentication
	place     trustPlace    // where the OAuth state is
	metrics   *mcpmetrics.Metrics
	ready     []readiness
	dashboard dashboard.Config
}

func serveHTTP(ctx context.Context, srv *mcpserver.Server, f serveConfig, parts httpParts, stderr io.Writer, log *slog.Logger) error {
	addr := net.JoinHostPort(f.host, strconv.Itoa(f.port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	scheme := "http"
	var tlsConfig *tls.Config
	if f.remote.certs != nil {
		scheme, tlsConfig = "https", f.remote.certs.TLSConfig(log)
	}
	url := scheme + "://" + ln.Addr().String() + "/mcp"
	// The OAuth resource and issuer are named by the address clients use.
	base := strings.TrimSuffix(url, "/mcp")
	if u := f.remote.publicURL; u != nil {
		base = origin(u)
	}
	mount, err := oauthSetup(ctx, f.serveFlags, parts.auth, parts.place, parts.metrics, parts.dashboard.Audit, base, stderr, log)
	if err != nil {
		ln.Close()
		return err
	}
	mode := "no authentication, every caller is the operator"
	if parts.auth != nil {
		mode = "bearer tokens from " + parts.auth.Registry.Path()
	}
	fmt.Fprintf(stderr, "transport: streamable HTTP on %s (%s)\n", url, mode)
	if f.remote.publicURL != nil {
		url = f.remote.publicURL.String()
		fmt.Fprintf(stderr, "public:    %s\n", url)
	} else if tlsConfig == nil && !endpoint.IsLoopbackHost(f.host) {
		log.Warn("serving plain HTTP on a network address: put a TLS proxy in front (with --public-url and --trusted-proxy) or use --tls-cert and --tls-key", "host", f.host)
	}
	fmt.Fprintf(stderr, "connect:   claude mcp add --transport http bourdon %s\n", url)
	fmt.Fprintf(stderr, "           or any MCP client: {\"type\": \"http\", \"url\": %q}\n", url)
	if f.demo {
		fmt.Fprintln(stderr, "demo:      try find_entity {\"name\": \"Payments API\"}, list_recent_work {\"access_level\": \"team\"},")
		fmt.Fprintln(stderr, "           docs_search {\"query\": \"retry a refund after a timeout\"} or get_learning_path {\"targetSkill\": \"demo.skills.replay-ledger-events\"};")
		fmt.Fprintln(stderr, "           Ctrl-C stops and deletes the demo library")
	}
	// One limiter: a member's pages and MCP calls draw on the same bucket.
	limiter := mcphttp.NewLimiter(f.remote.rate)
	parts.dashboard.Limiter, parts.dashboard.OnRateLimited = limiter, parts.metrics.RateLimited
	dash, err := startDashboard(parts.dashboard, f.dashboard, base, stderr)
	if err != nil {
		ln.Close()
		return err
	}
	defer dash.Close()
	parts.metrics.ExcludeSessions(dash.InProcess)
	opts := mcphttp.Options{
		MaxBodyBytes:   f.maxBody,
		AllowedOrigins: f.origins,
		Auth:           parts.auth,
		Limiter:        limiter,
		OnRateLimited:  parts.metrics.RateLimited,
		Logger:         log,
	}
	if u := f.remote.publicURL; u != nil {
		opts.AllowedOrigins = append(opts.AllowedOrigins, origin(u))
		opts.AllowedHosts = []string{u.Hostname()}
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcphttp.Handler(srv.Server, opts))
	if mount != nil {
		mount(mux)
	}
	mux.Handle(dashboard.Prefix, mcphttp.CheckHost(opts.AllowedHosts, dash))
	healthRoutes(mux, parts.ready)
	if parts.metrics != nil {
		mux.Handle("GET /metrics", operatorOnly(parts.auth, parts.metrics.Handler()))
	}
	return serveRoutes(ctx, ln, f.remote.proxies.Forwarded(mux), tlsConfig, log)
}

// serveMetrics serves /metrics without authentication on a loopback
// address (--metrics-listen) until ctx ends.
func serveMetrics(ctx context.Context, addr string, m *mcpmetrics.Metrics, stderr io.Writer, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("--metrics-listen: %w", err)
	}
	fmt.Fprintf(stderr, "metrics:   http://%s/metrics\n", ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	go func() {
		if err := serveRoutes(ctx, ln, mux, nil, log); err != nil {
			log.Error("the metrics listener stopped", "err", err)
		}
	}()
	return nil
}
