package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/dashboard"
	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpstdio"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
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
	l2            l2Flags
	peers         peerFlags
	docs          docsFlags
	github        requests.GitHubConfig
	ui            uiFlags
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

--demo serves a small demo library from a temporary directory (deleted on
exit) over HTTP without authentication unless --transport says otherwise; it
never touches your library, registry or audit log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.demo && !cmd.Flags().Changed("transport") {
				f.transport = "http"
			}
			return runServe(cmd.Context(), *f, cmd.ErrOrStderr())
		},
	}
	registryPath, _ := trust.DefaultRegistryPath()
	auditPath, _ := trust.DefaultAuditPath()
	cmd.Flags().StringVar(&f.library, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	cmd.Flags().StringVar(&f.transport, "transport", "stdio", "stdio or http")
	cmd.Flags().StringVar(&f.host, "host", "127.0.0.1", "HTTP address to bind")
	cmd.Flags().IntVar(&f.port, "port", 7500, "HTTP port")
	cmd.Flags().BoolVar(&f.demo, "demo", false, "serve a demo library from a temporary directory")
	cmd.Flags().BoolVar(&f.quiet, "quiet", false, "log only warnings and errors")
	cmd.Flags().Int64Var(&f.maxBody, "max-request-bytes", mcphttp.DefaultMaxBodyBytes, "largest HTTP request body accepted (larger ones get 413)")
	cmd.Flags().StringSliceVar(&f.origins, "allowed-origin", nil, "browser origin (scheme://host:port) allowed to call the HTTP endpoint, besides loopback ones; repeatable")
	cmd.Flags().StringVar(&f.registry, "registry", registryPath, "federation registry of HTTP callers (BOURDON_FEDERATION_CONFIG)")
	cmd.Flags().StringVar(&f.auditLog, "audit-log", auditPath, "append-only log of every access decision (BOURDON_AUDIT_PATH)")
	cmd.Flags().BoolVar(&f.allowUnauthed, "allow-unauthenticated", false, "HTTP without bearer tokens: every caller is the operator (loopback addresses only)")
	f.l2.register(cmd)
	cmd.Flags().StringArrayVar(&f.docs.roots, "docs", nil, "serve this documentation corpus (Learn-style YAML, Diataxis markdown, snippets) as a knowledge graph; repeatable (later roots overlay earlier ones)")
	cmd.Flags().StringVar(&f.docs.config, "docs-config", "", "YAML file naming the corpus roots (docs: [...]) and the embedder (embedder: {provider, url, model, dim, token_env})")
	cmd.Flags().StringVar(&f.docs.Provider, "embedder", "", "embedding service for docs_search: openai (any OpenAI-compatible /v1/embeddings) or ollama; default: vectors learned from the corpus itself")
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
	return cmd, f
}

func runServe(ctx context.Context, f serveFlags, stderr io.Writer) error {
	if _, set := os.LookupEnv("GOGC"); !set {
		// The library stays in memory for the life of the process while
		// requests allocate short-lived garbage; collecting at 3x the live
		// heap instead of 2x roughly halves GC work per request for a
		// modest amount of memory. GOGC overrides it.
		debug.SetGCPercent(200)
	}
	log := newLogger(stderr, f.quiet)
	if f.transport != "stdio" && f.transport != "http" {
		return fmt.Errorf("--transport must be stdio or http, not %q", f.transport)
	}
	envLevel, envSet, err := visibility.FromEnv()
	if err != nil {
		log.Warn(err.Error())
	}
	root := f.library
	if f.demo {
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
		f.docs.roots = append([]string{filepath.Join(dir, "docs")}, f.docs.roots...)
		root = dir
		f.registry = filepath.Join(dir, "federation.yaml")
		f.auditLog = filepath.Join(dir, "audit.jsonl")
		if f.transport == "http" {
			f.allowUnauthed = true
		}
	}
	var auth *mcphttp.Auth
	if f.transport == "http" {
		if auth, err = httpAuth(f, log); err != nil {
			return err
		}
	}
	l2, l2TopK, l2Timeout, err := deeperBackend(f.l2, log)
	if err != nil {
		return err
	}
	peers, err := peerSet(f.peers, log)
	if err != nil {
		return err
	}
	if peers != nil {
		defer peers.Close()
	}
	lib, err := library.Open(root, log)
	if err != nil {
		return err
	}
	defer lib.Close()
	snap := lib.Snapshot()
	writer := commit.New(lib.Root())
	// Writers killed mid-write (kill -9, a full disk) leave temporary
	// files; the ones no live write can own go now.
	swept := writer.SweepLibrary(ctx)
	for _, path := range swept {
		log.Info("removed a dead writer's temporary file", "file", path)
	}
	opts := mcpserver.Options{
		Version:       buildVersion(),
		Logger:        log,
		Audit:         trust.OpenAudit(f.auditLog),
		Writer:        writer,
		DeeperL2:      l2,
		DeeperOptions: deeper.Options{L2TopK: l2TopK, L2Timeout: l2Timeout},
		Peers:         peers,
	}
	if envSet {
		opts.DefaultAccess = &envLevel
	}
	store := federation.New(lib)
	if opts.Requests, err = requestStore(lib.Root(), f.github); err != nil {
		return err
	}
	if opts.Knowledge, err = knowledgeBase(ctx, f.docs, store, opts.Requests, log); err != nil {
		return err
	}
	srv := mcpserver.New(store, opts)
	go srv.Watch(ctx)
	go srv.WatchKnowledge(ctx)

	fmt.Fprintf(stderr, "bourdon %s: library %s (%d agents", buildVersion(), lib.Root(), snap.Len())
	if n := len(snap.Warnings()); n > 0 {
		fmt.Fprintf(stderr, ", %d files with problems", n)
	}
	if n := len(swept); n > 0 {
		fmt.Fprintf(stderr, ", %d stale temporary files removed", n)
	}
	fmt.Fprintln(stderr, ")")
	if peers != nil {
		for _, p := range peers.Peers() {
			fmt.Fprintf(stderr, "peer:      %s at %s (token from %s)\n", p.Name, p.URL, p.TokenEnv)
		}
	}
	if f.transport == "stdio" {
		fmt.Fprintln(stderr, `transport: stdio, caller: operator. MCP client config: {"command": "bourdon", "args": ["serve"]}`)
		err := srv.Run(ctx, mcpstdio.Transport(os.Stdin, os.Stdout, mcpstdio.Options{}))
		if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	return serveHTTP(ctx, srv, dashboardConfig(srv, opts, auth, f.registry, lib.Root(), log), f, auth, stderr, log)
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

// deeperBackend builds the optional L2 backend of get_deeper_context from
// the configuration file, the BOURDON_L2_* variables and the flags, in
// that order. A configuration that does not validate is an error.
func deeperBackend(f l2Flags, log *slog.Logger) (deeper.L2, int, time.Duration, error) {
	cfg := deeper.DefaultL2Config()
	var err error
	if f.config != "" {
		if cfg, err = cfg.LoadFile(f.config); err != nil {
			return nil, 0, 0, err
		}
	}
	cfg, warnings := cfg.WithEnv(os.LookupEnv)
	for _, w := range warnings {
		log.Warn(w)
	}
	if f.endpoint != "" {
		cfg.Enabled, cfg.Endpoint = true, f.endpoint
	}
	if f.protocol != "" {
		cfg.Protocol = f.protocol
	}
	l2, err := deeper.NewL2(cfg, os.Getenv)
	if err != nil {
		return nil, 0, 0, fmt.Errorf("L2 backend: %w", err)
	}
	return l2, cfg.TopK, cfg.Timeout, nil
}

// githubTokenEnv holds the token of the GitHub tracker.
const githubTokenEnv = "BOURDON_GITHUB_TOKEN"

// requestStore opens the library's request store, forwarding proposals to
// GitHub when a repository is configured.
func requestStore(lib string, gh requests.GitHubConfig) (*requests.Store, error) {
	s, err := requests.Open(requestsDir(lib))
	if err != nil {
		return nil, err
	}
	if gh.Repo == "" && gh.BaseURL == "" {
		return s, nil
	}
	gh.Token = os.Getenv(githubTokenEnv)
	t, err := requests.NewGitHub(gh)
	if err != nil {
		return nil, fmt.Errorf("--github-repo: %w (the token comes from %s)", err, githubTokenEnv)
	}
	s.Tracker = t
	return s, nil
}

// peerSet reads the peer options. Without any, the server has no peers and
// reads no peers file. A peers file that is missing or invalid stops the
// start-up rather than leave the server silently local.
func peerSet(f peerFlags, log *slog.Logger) (*peer.Set, error) {
	if f.none {
		if f.federate || f.config != "" || len(f.urls) > 0 {
			return nil, errors.New("--no-peers asserts local-only operation; drop it or drop --federate, --peers-config and --peer")
		}
		return nil, nil
	}
	if f.federate && f.config != "" {
		return nil, errors.New("--federate loads ~/.bourdon/peers.yaml and --peers-config another file; use one of them")
	}
	for name, d := range map[string]time.Duration{"--peer-timeout": f.timeout, "--peer-recognition-timeout": f.recognitionTimeout, "--peer-deadline": f.deadline} {
		if d < time.Millisecond || d > 5*time.Minute {
			return nil, fmt.Errorf("%s %v: use a duration from 1ms to 5m, such as 2s or 200ms", name, d)
		}
	}
	path := f.config
	if f.federate {
		var err error
		if path, err = peer.DefaultConfigPath(); err != nil {
			return nil, err
		}
	}
	var peers []peer.Peer
	if path != "" {
		var err error
		if peers, err = peer.LoadFile(path); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, p := range peers {
		seen[p.URL] = true
	}
	for _, raw := range f.urls {
		p, err := peer.Inline(raw)
		if err != nil {
			return nil, fmt.Errorf("--peer: %w", err)
		}
		if !seen[p.URL] {
			seen[p.URL] = true
			peers = append(peers, p)
		}
	}
	return peer.NewSet(peers, peer.Options{
		Timeout: f.timeout, RecognitionTimeout: f.recognitionTimeout, Deadline: f.deadline,
		Version: buildVersion(), Logger: log,
	}), nil
}

// httpAuth applies the bind contract of the reference and returns how HTTP
// callers are identified (nil: everyone is the operator).
//
//	loopback, no --allow-unauthenticated: bearer tokens (503 while none is configured)
//	loopback, --allow-unauthenticated:    every caller is the operator
//	other address, tokens configured:     bearer tokens
//	other address, no tokens:             refuse to start
//	other address, --allow-unauthenticated: refuse to start
func httpAuth(f serveFlags, log *slog.Logger) (*mcphttp.Auth, error) {
	loopback := endpoint.IsLoopbackHost(f.host)
	if f.allowUnauthed {
		if !loopback {
			return nil, fmt.Errorf("refusing to start: --allow-unauthenticated with non-loopback bind %q; bind 127.0.0.1, or register callers with `bourdon registry add` and drop the flag", f.host)
		}
		log.Warn("HTTP without authentication: every caller is the operator", "host", f.host)
		return nil, nil
	}
	auth := &mcphttp.Auth{Registry: trust.OpenRegistry(f.registry), LegacyToken: os.Getenv(trust.LegacyTokenEnv)}
	if err := auth.Registry.Err(); err != nil {
		log.Warn("the federation registry cannot be read; no registered caller can authenticate until it is fixed", "err", err)
	}
	if !loopback && !auth.Configured() {
		return nil, fmt.Errorf("refusing to start: bind %q is network-reachable but no auth is configured; register a caller with `bourdon registry add`, set %s, or bind 127.0.0.1", f.host, trust.LegacyTokenEnv)
	}
	return auth, nil
}

func serveHTTP(ctx context.Context, srv *mcpserver.Server, ui dashboard.Config, f serveFlags, auth *mcphttp.Auth, stderr io.Writer, log *slog.Logger) error {
	addr := net.JoinHostPort(f.host, strconv.Itoa(f.port))
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	mode := "bearer tokens from " + f.registry
	if auth == nil {
		mode = "no authentication, every caller is the operator"
	}
	fmt.Fprintf(stderr, "transport: streamable HTTP on %s (%s)\n", url, mode)
	fmt.Fprintf(stderr, "connect:   claude mcp add --transport http bourdon %s\n", url)
	fmt.Fprintf(stderr, "           or any MCP client: {\"type\": \"http\", \"url\": %q}\n", url)
	if f.demo {
		fmt.Fprintln(stderr, "demo:      try find_entity {\"name\": \"Payments API\"}, list_recent_work {\"access_level\": \"team\"},")
		fmt.Fprintln(stderr, "           docs_search {\"query\": \"retry a refund after a timeout\"} or get_learning_path {\"targetSkill\": \"demo.skills.replay-ledger-events\"};")
		fmt.Fprintln(stderr, "           Ctrl-C stops and deletes the demo library")
	}
	dash, err := startDashboard(ui, f, "http://"+ln.Addr().String(), stderr)
	if err != nil {
		ln.Close()
		return err
	}
	defer dash.Close()
	return serveMCP(ctx, ln, dash, mcphttp.Handler(srv.Server, mcphttp.Options{MaxBodyBytes: f.maxBody, AllowedOrigins: f.origins, Auth: auth, Logger: log}), log)
}
