package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/deeper"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// environ looks up environment variables. serve reads the environment only
// through one, in resolveServe (os.LookupEnv outside tests).
type environ func(string) (string, bool)

// get returns the variable's value, "" when it is unset.
func (e environ) get(name string) string {
	v, _ := e(name)
	return v
}

// serveConfig is everything serve runs with: its flags, the environment
// and the files they name, resolved once by resolveServe. The packages
// serve builds take their settings from it as arguments; none of them
// reads the environment.
type serveConfig struct {
	serveFlags
	// env is the environment the configuration was resolved from; the
	// backends read the token variables their files name through it.
	env environ
	// defaultAccess is BOURDON_DEFAULT_ACCESS_LEVEL, nil when it is unset
	// or invalid (a warning then).
	defaultAccess *visibility.Level
	// machine names this machine in export_agents (BOURDON_LOCAL_NAME,
	// else the host name).
	machine string
	// legacyToken is the reference's shared server token
	// (BOURDON_PEER_TOKEN_SERVER).
	legacyToken string
	// deeperL2 is the L2 backend's configuration: --l2-config, the
	// BOURDON_L2_* variables, then the flags.
	deeperL2 deeper.L2Config
	// peerList is the peers of --federate, --peers-config and --peer.
	peerList []peer.Peer
	// remote is the resolved operational settings over HTTP.
	remote opsConfig
	// dashboard is the resolved settings of the dashboard at /ui/.
	dashboard dashboardSettings
	// warnings are problems that do not stop the start-up.
	warnings []string
}

// resolveServe resolves the configuration of serve from its flags and the
// environment, reading the files the flags name (L2, peers, docs, TLS). An
// error says which setting is wrong; the warnings gathered until then are
// in the returned value either way.
func resolveServe(f serveFlags, env environ) (serveConfig, error) {
	c := serveConfig{serveFlags: f, env: env}
	if f.transport != "stdio" && f.transport != "http" {
		return c, fmt.Errorf("--transport must be stdio or http, not %q", f.transport)
	}
	var err error
	if f.store != "" {
		if f.demo {
			return c, errors.New("--demo serves a library of its own; drop --store")
		}
		if err := postgres.CheckURL(f.store); err != nil {
			return c, fmt.Errorf("--store: %w", err)
		}
	}
	if f.reconcile <= 0 {
		return c, fmt.Errorf("--store-reconcile must be a positive duration such as 5s, not %s", f.reconcile)
	}
	if c.remote, err = f.ops.resolve(); err != nil {
		return c, err
	}
	if c.dashboard, err = f.ui.resolve(f, c.remote); err != nil {
		return c, err
	}
	level, set, err := visibility.FromEnv(env)
	if err != nil {
		c.warnings = append(c.warnings, err.Error())
	}
	if set {
		c.defaultAccess = &level
	}
	c.machine = federation.LocalName(env.get(federation.LocalNameEnv))
	c.legacyToken = env.get(trust.LegacyTokenEnv)
	var warnings []string
	c.deeperL2, warnings, err = resolveL2(f.l2, env)
	c.warnings = append(c.warnings, warnings...)
	if err != nil {
		return c, err
	}
	if c.peerList, err = resolvePeers(f.peers); err != nil {
		return c, err
	}
	if c.github.Repo != "" || c.github.BaseURL != "" {
		c.github.Token = env.get(githubTokenEnv)
	}
	if err := c.docs.resolve(env); err != nil {
		return c, err
	}
	return c, nil
}

// resolveL2 resolves the configuration of get_deeper_context's optional L2
// backend (serve and deeper-context) from the configuration file, the
// BOURDON_L2_* variables and the flags, in that order. A configuration
// that does not validate is an error.
func resolveL2(f l2Flags, env environ) (deeper.L2Config, []string, error) {
	cfg := deeper.DefaultL2Config()
	var err error
	if f.config != "" {
		if cfg, err = cfg.LoadFile(f.config); err != nil {
			return cfg, nil, err
		}
	}
	cfg, warnings := cfg.WithEnv(env)
	if f.endpoint != "" {
		cfg.Enabled, cfg.Endpoint = true, f.endpoint
	}
	if f.protocol != "" {
		cfg.Protocol = f.protocol
	}
	if cfg.Enabled {
		if err := cfg.Validate(); err != nil {
			return cfg, warnings, fmt.Errorf("L2 backend: %w", err)
		}
	}
	return cfg, warnings, nil
}

// deeperBackend builds the L2 backend cfg configures (nil when it is
// disabled); its token variable is read from env.
func deeperBackend(cfg deeper.L2Config, env environ) (deeper.L2, error) {
	l2, err := deeper.NewL2(cfg, env.get)
	if err != nil {
		return nil, fmt.Errorf("L2 backend: %w", err)
	}
	return l2, nil
}

// resolvePeers reads the peer options. Without any, the server has no
// peers and reads no peers file. A peers file that is missing or invalid
// stops the start-up rather than leave the server silently local.
func resolvePeers(f peerFlags) ([]peer.Peer, error) {
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
	return peers, nil
}

// resolve merges the --docs-config file into the flags and checks the
// embedder settings, reading its token from env. The embedder serves
// docs_search and get_deeper_context, so it needs no corpus.
func (f *docsFlags) resolve(env environ) error {
	if err := f.readDocsConfig(); err != nil {
		return err
	}
	e := &f.embedderConfig
	if e.TokenEnv != "" {
		if !strings.HasPrefix(e.TokenEnv, embedTokenPrefix) {
			return fmt.Errorf("embedder token_env %q: the variable must be named %s*", e.TokenEnv, embedTokenPrefix)
		}
		e.token = env.get(e.TokenEnv)
	}
	_, err := e.embedder()
	return err
}

// processEnv is the process's environment.
var processEnv environ = os.LookupEnv
