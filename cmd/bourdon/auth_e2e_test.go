package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

var tokenRE = regexp.MustCompile(`token: (bdn_[0-9a-f]{48})`)

func addMember(t testing.TB, registry string, args ...string) string {
	t.Helper()
	flag := "--registry"
	if postgres.IsURL(registry) {
		flag = "--store" // the registry of that database
	}
	out, err := exec.Command(binary, append([]string{"registry", "add", flag, registry}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("registry add %v: %v\n%s", args, err, out)
	}
	m := tokenRE.FindStringSubmatch(string(out))
	if m == nil {
		t.Fatalf("no token in %s", out)
	}
	return m[1]
}

// bearer is an HTTP transport that adds a bearer token.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectAs(t testing.TB, url, token, version string) (*mcp.ClientSession, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
}

func TestHTTPBearerAuthAndTiers(t *testing.T) {
	registry := filepath.Join(t.TempDir(), "federation.yaml")
	quarantined := addMember(t, registry, "openclaw", "--grant", "claude-code")
	trusted := addMember(t, registry, "peer-mac", "--tier", "trusted")
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", registry)

	// No token, an empty one, a wrong one: 401 naming the Bearer scheme.
	for _, header := range []string{"", "Bearer ", "Bearer bdn_" + strings.Repeat("0", 48), "Basic abc"} {
		req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") || !strings.Contains(string(body), `"error"`) {
			t.Errorf("Authorization %q: %d %q %s", header, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), body)
		}
	}

	for _, version := range []string{"2026-07-28", "2025-11-25"} {
		q, err := connectAs(t, s.url, quarantined, version)
		if err != nil {
			t.Fatalf("%s quarantined connect: %v", version, err)
		}
		who, _ := mcptest.CallJSON(t, q, "describe_caller", nil)
		if b, _ := json.Marshal(who); !strings.Contains(string(b), `"agent_id":"openclaw"`) || !strings.Contains(string(b), `"tier":"quarantined"`) {
			t.Errorf("%s describe_caller: %s", version, b)
		}
		got, _ := mcptest.CallJSON(t, q, "find_entity", map[string]any{"name": "Bourdon"})
		if b, _ := json.Marshal(got); strings.Contains(string(b), "codex") {
			t.Errorf("%s: a quarantined caller granted only claude-code sees codex: %s", version, b)
		}
		got, _ = mcptest.CallJSON(t, q, "query_agent_memory", map[string]any{"agent": "codex", "topic": "SecretProj"})
		if b, _ := json.Marshal(got); !strings.Contains(string(b), `"detail":"namespace 'codex' not granted"`) {
			t.Errorf("%s: ungranted namespace: %s", version, b)
		}
		got, _ = mcptest.CallJSON(t, q, "get_cross_agent_summary", map[string]any{"project": "Bourdon"})
		if b, _ := json.Marshal(got); !strings.Contains(string(b), `"detail":"tier 'quarantined' may not call this tool"`) {
			t.Errorf("%s: aggregate tool: %s", version, b)
		}
		q.Close()

		tr, err := connectAs(t, s.url, trusted, version)
		if err != nil {
			t.Fatal(err)
		}
		got, _ = mcptest.CallJSON(t, tr, "find_entity", map[string]any{"name": "Bourdon"})
		if b, _ := json.Marshal(got); !strings.Contains(string(b), "codex") {
			t.Errorf("%s: a trusted caller must see every agent: %s", version, b)
		}
		tr.Close()
	}

	// Revocation is seen by the next request.
	if out, err := exec.Command(binary, "registry", "revoke", "peer-mac", "--registry", registry).CombinedOutput(); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if cs, err := connectAs(t, s.url, trusted, "2026-07-28"); err == nil {
		cs.Close()
		t.Error("a revoked token still connects")
	}
}

func TestHTTPWithoutAnyTokenAnswers503(t *testing.T) {
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", filepath.Join(t.TempDir(), "empty.yaml"))
	resp, err := http.Post(s.url, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "no auth configured") {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
}
