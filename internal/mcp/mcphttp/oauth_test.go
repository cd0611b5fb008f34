package mcphttp_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth"
)

// grants is a Verifier that knows a fixed set of tokens.
type grants map[string]oauth.Grant

func (g grants) Verify(_ context.Context, token string) (oauth.Grant, error) {
	if gr, ok := g[token]; ok {
		return gr, nil
	}
	return oauth.Grant{}, auth.ErrInvalidToken
}

func TestOAuthTokensAndTheirScopes(t *testing.T) {
	reg := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	bdn, err := reg.Add("alice", trust.TierTrusted, nil)
	if err != nil {
		t.Fatal(err)
	}
	alice := trust.Caller{ID: "alice", Tier: trust.TierTrusted}
	exp := time.Now().Add(time.Hour)
	res := &oauth.Resource{URL: "https://mcp.example.com/mcp", AuthorizationServers: []string{"https://mcp.example.com"}, Verifier: grants{
		"read-only": {Caller: alice, Scopes: []string{"read"}, Expiry: exp},
		"no-scope":  {Caller: alice, Expiry: exp},
		"expired":   {Caller: alice, Scopes: []string{"read"}, Expiry: time.Now().Add(-time.Second)},
	}}
	hs := testServer(t, mcphttp.Options{Auth: &mcphttp.Auth{Registry: reg, OAuth: res}})
	headers := func(token string) map[string]string {
		return map[string]string{"Authorization": "Bearer " + token, "Mcp-Protocol-Version": "2026-07-28"}
	}
	call := func(tool string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
	}
	cases := []struct {
		name, token, body string
		status            int // 0: past authentication (whatever the MCP layer answers)
		challenge         string
	}{
		{"no token", "", call("echo"), 401, `Bearer realm="bourdon", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="read write"`},
		// A grant past its expiry is refused with the challenge, not by
		// the SDK's bare 401.
		{"expired grant", "expired", call("find_entity"), 401, `error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="read write"`},
		{"unknown token", "bogus", call("echo"), 401, `error="invalid_token", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="read write"`},
		{"read scope, read tool", "read-only", call("find_entity"), 0, ""},
		{"read scope, write tool", "read-only", call("commit_to_federation"), 403, `error="insufficient_scope", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="read write"`},
		{"no scope", "no-scope", call("find_entity"), 403, `scope="read"`},
		// A tool the policy does not know needs admin (fails closed).
		{"read scope, unknown tool", "read-only", call("echo"), 403, `scope="read admin"`},
		// A bdn_ token carries no scopes: its tier alone decides.
		{"bdn_ token, write tool", bdn, call("commit_to_federation"), 0, ""},
	}
	for _, c := range cases {
		resp, body := post(t, hs.URL, c.body, headers(c.token))
		if passed := resp.StatusCode != 401 && resp.StatusCode != 403; resp.StatusCode != c.status && !(c.status == 0 && passed) {
			t.Errorf("%s: %d %s", c.name, resp.StatusCode, body)
		}
		if ch := resp.Header.Get("WWW-Authenticate"); !strings.Contains(ch, c.challenge) || (c.challenge == "" && ch != "") {
			t.Errorf("%s: WWW-Authenticate %q, want %q", c.name, ch, c.challenge)
		}
	}
	// Without OAuth the 401 keeps the plain challenge.
	plain := testServer(t, mcphttp.Options{Auth: &mcphttp.Auth{Registry: reg}})
	resp, _ := post(t, plain.URL, call("echo"), headers("bogus"))
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != http.StatusUnauthorized || ch != `Bearer realm="bourdon"` {
		t.Fatalf("no OAuth: %d %q", resp.StatusCode, ch)
	}
}
