package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// fakeEnv is an environment of its own, so that resolveServe is tested
// without the process's.
func fakeEnv(vars map[string]string) environ {
	return func(k string) (string, bool) {
		v, ok := vars[k]
		return v, ok
	}
}

// parseServeFlags returns serve's flags as the command line sets them from
// args.
func parseServeFlags(t *testing.T, args ...string) serveFlags {
	t.Helper()
	var f serveFlags
	cmd := &cobra.Command{Use: "serve"}
	f.register(cmd)
	if err := cmd.ParseFlags(args); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestResolveServeReadsTheEnvironmentOnce(t *testing.T) {
	docs := t.TempDir()
	cfg, err := resolveServe(parseServeFlags(t, "--github-repo", "o/r", "--docs", docs, "--embedder", "ollama", "--embedder-url", "http://127.0.0.1:11434", "--embedder-model", "nomic-embed-text", "--embedder-dim", "768", "--embedder-token-env", "BOURDON_EMBED_KEY"), fakeEnv(map[string]string{
		"BOURDON_DEFAULT_ACCESS_LEVEL": "team",
		"BOURDON_LOCAL_NAME":           " box ",
		"BOURDON_PEER_TOKEN_SERVER":    "legacy",
		"BOURDON_GITHUB_TOKEN":         "gh",
		"BOURDON_EMBED_KEY":            "emb",
		"BOURDON_L2_ENDPOINT":          "http://127.0.0.1:9/l2",
		"BOURDON_L2_ENABLED":           "true",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.defaultAccess == nil || *cfg.defaultAccess != visibility.Team {
		t.Errorf("default access = %v", cfg.defaultAccess)
	}
	if cfg.machine != "box" || cfg.legacyToken != "legacy" || cfg.github.Token != "gh" || cfg.docs.token != "emb" {
		t.Errorf("machine %q, legacy token %q, GitHub token %q, embedder token %q", cfg.machine, cfg.legacyToken, cfg.github.Token, cfg.docs.token)
	}
	if !cfg.deeperL2.Enabled || cfg.deeperL2.Endpoint != "http://127.0.0.1:9/l2" {
		t.Errorf("L2 = %+v", cfg.deeperL2)
	}
	if len(cfg.warnings) != 0 {
		t.Errorf("warnings %q", cfg.warnings)
	}

	// Nothing set: the defaults, and the process's environment is not
	// consulted (the host name is the machine's).
	cfg, err = resolveServe(parseServeFlags(t), fakeEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if cfg.defaultAccess != nil || cfg.legacyToken != "" || cfg.deeperL2.Enabled || cfg.peerList != nil || cfg.transport != "stdio" || cfg.port != 7500 || (host != "" && cfg.machine != host) {
		t.Errorf("defaults: %+v", cfg)
	}
}

func TestResolveServeErrorsAndWarnings(t *testing.T) {
	cfg, err := resolveServe(parseServeFlags(t), fakeEnv(map[string]string{"BOURDON_DEFAULT_ACCESS_LEVEL": "secret"}))
	if err != nil || cfg.defaultAccess != nil || len(cfg.warnings) != 1 || !strings.Contains(cfg.warnings[0], "BOURDON_DEFAULT_ACCESS_LEVEL") {
		t.Errorf("an invalid default level is a warning: %v %q", err, cfg.warnings)
	}
	bad := filepath.Join(t.TempDir(), "docs.yaml")
	if err := os.WriteFile(bad, []byte("bogus: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--transport", "tcp"}, nil, "--transport must be stdio or http"},
		{[]string{"--no-peers", "--peer", "https://x.example"}, nil, "--no-peers"},
		{[]string{"--peer-timeout", "0s"}, nil, "--peer-timeout"},
		{[]string{"--l2-endpoint", "ftp://x"}, nil, "L2 backend"},
		{nil, map[string]string{"BOURDON_L2_ENABLED": "true", "BOURDON_L2_PROTOCOL": "grpc"}, "L2 protocol"},
		{[]string{"--embedder", "ollama", "--embedder-url", "http://127.0.0.1:11434"}, nil, "an embedder needs --embedder-model and --embedder-dim"},
		{[]string{"--docs", ".", "--embedder-token-env", "GITHUB_TOKEN"}, nil, "BOURDON_EMBED_"},
		{[]string{"--docs-config", bad}, nil, "--docs-config"},
		{[]string{"--store", "/var/lib/bourdon"}, nil, "--store: want a postgres:// URL"},
		{[]string{"--store", "mysql://u:hunter2@db/lib"}, nil, "its scheme is mysql"},
		{[]string{"--store", "postgres://u:hunter2@db:port/lib"}, nil, "--store: cannot parse"},
		{[]string{"--demo", "--store", "postgres://db/lib"}, nil, "--demo serves a library of its own"},
	} {
		_, err := resolveServe(parseServeFlags(t, c.args...), fakeEnv(c.env))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: error %v, want %q", c.args, c.env, err, c.want)
		} else if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%v: the error shows the password: %v", c.args, err)
		}
	}
}

func TestResolveServeOperationalFlags(t *testing.T) {
	cfg, err := resolveServe(parseServeFlags(t, "--public-url", "https://mem.example.com", "--trusted-proxy", "10.0.0.0/8,192.0.2.7", "--rate-limit", "60/m", "--rate-burst", "5"), fakeEnv(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.remote.publicURL.String() != "https://mem.example.com/mcp" || len(cfg.remote.proxies) != 2 || cfg.remote.rate.PerSecond != 1 || cfg.remote.rate.Burst != 5 {
		t.Errorf("resolved: %+v", cfg.remote)
	}
	for in, want := range map[string]string{"https://mem.example.com/": "https://mem.example.com/mcp", "https://mem.example.com/mcp": "https://mem.example.com/mcp", "http://localhost:8080": "http://localhost:8080/mcp"} {
		if cfg, err := resolveServe(parseServeFlags(t, "--public-url", in), fakeEnv(nil)); err != nil || cfg.remote.publicURL.String() != want {
			t.Errorf("--public-url %s: %v %v, want %s", in, cfg.remote.publicURL, err, want)
		}
	}
	cfg, err = resolveServe(parseServeFlags(t), fakeEnv(nil))
	if err != nil || cfg.remote.rate.PerSecond != 5 || cfg.remote.rate.Burst != defaultRateBurst || cfg.remote.publicURL != nil || cfg.remote.certs != nil {
		t.Errorf("defaults: %+v %v", cfg.remote, err)
	}
	missing := filepath.Join(t.TempDir(), "missing.pem")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--log-format", "xml"}, "--log-format"},
		{[]string{"--public-url", "http://mem.example.com/mcp"}, "unencrypted"},
		{[]string{"--public-url", "https://mem.example.com/api"}, "path prefix"},
		{[]string{"--public-url", "https://mem.example.com/prefix/mcp"}, "path prefix"},
		{[]string{"--public-url", "mem.example.com"}, "--public-url"},
		{[]string{"--public-url", "https://mem.example.com/mcp?x=1"}, "--public-url"},
		{[]string{"--tls-cert", missing}, "go together"},
		{[]string{"--tls-cert", missing, "--tls-key", missing}, "--tls-cert/--tls-key"},
		{[]string{"--trusted-proxy", "proxy.example"}, "--trusted-proxy"},
		{[]string{"--rate-limit", "lots"}, "--rate-limit"},
		{[]string{"--rate-burst", "0"}, "--rate-burst"},
		{[]string{"--metrics-listen", ":9464"}, "loopback"},
		{[]string{"--store-reconcile", "0s"}, "--store-reconcile must be a positive duration"},
	} {
		if _, err := resolveServe(parseServeFlags(t, c.args...), fakeEnv(nil)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

func TestResolveServeDashboard(t *testing.T) {
	cfg, err := resolveServe(parseServeFlags(t, "--transport", "http", "--public-url", "https://mem.example.com"), fakeEnv(nil))
	if err != nil || !cfg.dashboard.signInLink || !cfg.dashboard.secureCookies || cfg.dashboard.open {
		t.Errorf("loopback behind a TLS proxy: %+v %v", cfg.dashboard, err)
	}
	cfg, err = resolveServe(parseServeFlags(t, "--transport", "http", "--host", "0.0.0.0"), fakeEnv(nil))
	if err != nil || cfg.dashboard.signInLink || cfg.dashboard.secureCookies {
		t.Errorf("network bind: %+v %v", cfg.dashboard, err)
	}
	// bourdon ui: HTTP on loopback only.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--transport", "stdio"}, "bourdon ui serves HTTP"},
		{[]string{"--transport", "http", "--host", "0.0.0.0"}, "bourdon ui binds loopback only"},
	} {
		f := parseServeFlags(t, c.args...)
		f.ui = uiFlags{command: true, open: true}
		if _, err := resolveServe(f, fakeEnv(nil)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ui %v: %v, want %q", c.args, err, c.want)
		}
	}
	f := parseServeFlags(t, "--transport", "http")
	f.ui = uiFlags{command: true, open: true}
	if cfg, err := resolveServe(f, fakeEnv(nil)); err != nil || !cfg.dashboard.open || !cfg.dashboard.signInLink {
		t.Errorf("ui --open: %+v %v", cfg.dashboard, err)
	}
}
