package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/testkit/oauthtest"
)

var consentField = regexp.MustCompile(`name="(request_id|csrf)" value="([^"]+)"`)

// consentFetcher plays the person in the browser: it opens the
// authorization URL, pastes the member's bdn_ token on the consent page
// and returns the code the redirect carries.
func consentFetcher(memberToken string, calls *int) auth.AuthorizationCodeFetcher {
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		*calls++
		jar, _ := cookiejar.New(nil)
		c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Get(args.URL)
		if err != nil {
			return nil, err
		}
		page, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		form := url.Values{"action": {"approve"}, "member_token": {memberToken}}
		for _, m := range consentField.FindAllStringSubmatch(string(page), -1) {
			form.Set(m[1], m[2])
		}
		u, _ := url.Parse(args.URL)
		u.RawQuery = ""
		resp, err = c.PostForm(u.String(), form)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil || loc.Query().Get("code") == "" {
			return nil, fmt.Errorf("consent answered %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
		}
		return &auth.AuthorizationResult{Code: loc.Query().Get("code"), State: loc.Query().Get("state"), Iss: loc.Query().Get("iss")}, nil
	}
}

// TestOAuthWithTheSDKClient connects the go-sdk's OAuth client to the
// real server: discovery from the 401, registration, PKCE, consent, a
// tool call, step-up to admin on a 403, refresh, revocation, and a
// revoked member.
func TestOAuthWithTheSDKClient(t *testing.T) {
	dir := t.TempDir()
	registry := filepath.Join(dir, "federation.yaml")
	alice := addMember(t, registry, "alice", "--tier", "trusted")
	addMember(t, registry, "bob") // keeps the registry configured once alice is revoked
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", registry, "--audit-log", filepath.Join(dir, "audit.jsonl"))

	// The 401 names the metadata; the metadata names the server.
	resp, err := http.Post(s.url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	challenge := resp.Header.Get("WWW-Authenticate")
	if resp.StatusCode != 401 || !strings.Contains(challenge, `resource_metadata="`) || !strings.Contains(challenge, `scope="read write"`) {
		t.Fatalf("401 challenge %q", challenge)
	}
	base := strings.TrimSuffix(s.url, "/mcp")
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"} {
		prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), base+path, s.url, http.DefaultClient)
		if err != nil || prm.AuthorizationServers[0] != base {
			t.Fatalf("%s: %+v %v", path, prm, err)
		}
	}

	calls := 0
	h, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "e2e", RedirectURIs: []string{"http://127.0.0.1:9/callback"},
			TokenEndpointAuthMethod: "none", GrantTypes: []string{"authorization_code", "refresh_token"},
		}},
		AuthorizationCodeFetcher: consentFetcher(alice, &calls),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "oauth-e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, OAuthHandler: h}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "describe_caller", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("describe_caller: %v %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, `"alice"`) {
		t.Fatalf("the caller is not alice: %s", text)
	}
	// An admin tool needs the admin scope: 403 insufficient_scope, and
	// the client steps up through consent again.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "reload_library", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("reload_library after step-up: %v %+v", err, res)
	}
	if calls != 2 {
		t.Fatalf("consent ran %d times, want 2 (first connection, then step-up)", calls)
	}

	// Refresh: the refresh token rotates and the new access token works.
	ts, _ := h.TokenSource(ctx)
	tok, err := ts.Token()
	if err != nil || tok.RefreshToken == "" {
		t.Fatalf("token source: %v %+v", err, tok)
	}
	// The SDK registered once per authorization; the refresh token is
	// the last client's, and any other client is refused it.
	var clientID, newAccess string
	var refreshed map[string]any
	for _, id := range registeredClients(t, dir) {
		refreshed = tokenPost(t, base+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.RefreshToken}, "client_id": {id}})
		if newAccess, _ = refreshed["access_token"].(string); newAccess != "" {
			clientID = id
			break
		}
	}
	if newAccess == "" || refreshed["refresh_token"] == tok.RefreshToken {
		t.Fatalf("refresh: %v", refreshed)
	}
	if st := ping(t, s.url, newAccess); st != 200 {
		t.Fatalf("refreshed token: %d", st)
	}
	// RFC 7009: revoking the refresh token ends its family.
	if r, err := http.PostForm(base+"/revoke", url.Values{"token": {refreshed["refresh_token"].(string)}, "client_id": {clientID}}); err != nil || r.StatusCode != 200 {
		t.Fatalf("revoke: %v %v", r, err)
	}
	if st := ping(t, s.url, newAccess); st != 401 {
		t.Fatalf("revoked token: %d", st)
	}
	// The session's token was of that family too: its next call gets
	// 401 and the client goes through consent again.
	if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "describe_caller", Arguments: map[string]any{}}); err != nil || res.IsError || calls != 3 {
		t.Fatalf("after revocation: %v %+v, consent ran %d times", err, res, calls)
	}
	// Revoking the member kills its tokens, and its bdn_ token no longer
	// passes the consent page.
	ts, _ = h.TokenSource(ctx)
	tok, _ = ts.Token()
	if out, err := exec.Command(binary, "registry", "revoke", "alice", "--registry", registry).CombinedOutput(); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if st := ping(t, s.url, tok.AccessToken); st != 401 {
		t.Fatalf("a revoked member's token: %d", st)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "describe_caller", Arguments: map[string]any{}}); err == nil {
		t.Fatal("a revoked member's session went on")
	}
}

// ping sends a ping with token and returns the status.
func ping(t *testing.T, endpoint, token string) int {
	req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"p","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func tokenPost(t *testing.T, endpoint string, form url.Values) map[string]any {
	resp, err := http.PostForm(endpoint, form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out
}

// registeredClients reads the client ids from the state file.
func registeredClients(t *testing.T, dir string) []string {
	var st struct {
		Clients map[string]any `json:"clients"`
	}
	data, _ := os.ReadFile(filepath.Join(dir, "oauth.json"))
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for id := range st.Clients {
		ids = append(ids, id)
	}
	return ids
}

// TestOAuthExternalIssuer serves with --oauth-issuer: the metadata names
// the provider, its JWTs for this resource act for the member whose
// oauth_subject is their sub, and others are refused.
func TestOAuthExternalIssuer(t *testing.T) {
	idp := oauthtest.NewIDP(t)
	dir := t.TempDir()
	registry := filepath.Join(dir, "federation.yaml")
	addMember(t, registry, "alice", "--tier", "trusted")
	if out, err := exec.Command(binary, "registry", "set-subject", "alice", "idp|alice", "--registry", registry).CombinedOutput(); err != nil {
		t.Fatalf("set-subject: %v %s", err, out)
	}
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", registry, "--audit-log", filepath.Join(dir, "audit.jsonl"), "--oauth-issuer", idp.URL)
	base := strings.TrimSuffix(s.url, "/mcp")
	prm, err := oauthex.GetProtectedResourceMetadata(context.Background(), base+"/.well-known/oauth-protected-resource/mcp", s.url, http.DefaultClient)
	if err != nil || prm.AuthorizationServers[0] != idp.URL {
		t.Fatalf("metadata: %+v %v", prm, err)
	}
	if r, _ := http.Get(base + "/authorize"); r.StatusCode != http.StatusNotFound {
		t.Fatalf("the built-in authorization server answers next to an external one: %d", r.StatusCode)
	}
	now := time.Now()
	token := func(over map[string]any) string {
		c := map[string]any{"iss": idp.URL, "aud": s.url, "sub": "idp|alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix(), "scope": "read write"}
		for k, v := range over {
			c[k] = v
		}
		return idp.Sign(c)
	}
	if st := ping(t, s.url, token(nil)); st != 200 {
		t.Fatalf("a valid token: %d", st)
	}
	for name, tok := range map[string]string{
		"wrong audience": token(map[string]any{"aud": "https://elsewhere.example.com/mcp"}),
		"expired":        token(map[string]any{"exp": now.Add(-time.Hour).Unix()}),
		"unknown member": token(map[string]any{"sub": "idp|mallory"}),
	} {
		if st := ping(t, s.url, tok); st != 401 {
			t.Errorf("%s: %d, want 401", name, st)
		}
	}
	// Within the member's tier, the token's scopes decide: read only
	// cannot commit.
	req, _ := http.NewRequest(http.MethodPost, s.url, strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"commit_to_federation","arguments":{}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Authorization", "Bearer "+token(map[string]any{"scope": "read"}))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ch := resp.Header.Get("WWW-Authenticate"); resp.StatusCode != 403 || !strings.Contains(ch, `error="insufficient_scope"`) || !strings.Contains(ch, `scope="read write"`) {
		t.Fatalf("read-only commit: %d %q", resp.StatusCode, ch)
	}
}

// TestOAuthOperatorApproval: the person asks the operator instead of
// pasting a token; bourdon oauth list shows the request, approve lets it
// go on.
func TestOAuthOperatorApproval(t *testing.T) {
	dir := t.TempDir()
	registry := filepath.Join(dir, "federation.yaml")
	addMember(t, registry, "bob")
	s := startHTTP(t, "--library", seedLibrary(t), "--registry", registry, "--audit-log", filepath.Join(dir, "audit.jsonl"))
	base := strings.TrimSuffix(s.url, "/mcp")
	reg, err := oauthex.RegisterClient(context.Background(), base+"/register", &oauthex.ClientRegistrationMetadata{
		ClientName: "approval", RedirectURIs: []string{"http://127.0.0.1:9/cb"}, TokenEndpointAuthMethod: "none",
	}, http.DefaultClient)
	if err != nil {
		t.Fatal(err)
	}
	jar, _ := cookiejar.New(nil)
	browser := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	q := url.Values{"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {"http://127.0.0.1:9/cb"},
		"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}}
	resp, err := browser.Get(base + "/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	form := url.Values{"action": {"continue"}}
	for _, m := range consentField.FindAllStringSubmatch(string(page), -1) {
		form.Set(m[1], m[2])
	}
	list, err := exec.Command(binary, "oauth", "list", "--registry", registry).CombinedOutput()
	if err != nil || !strings.Contains(string(list), form.Get("request_id")) || !strings.Contains(string(list), `"approval"`) {
		t.Fatalf("oauth list: %v\n%s", err, list)
	}
	if out, err := exec.Command(binary, "oauth", "approve", strings.ToLower(form.Get("request_id")), "--member", "bob", "--registry", registry, "--audit-log", filepath.Join(dir, "audit.jsonl")).CombinedOutput(); err != nil {
		t.Fatalf("oauth approve: %v %s", err, out)
	}
	resp, err = browser.PostForm(base+"/authorize", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc.Query().Get("code") == "" {
		t.Fatalf("continue after approval: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	if log, _ := os.ReadFile(filepath.Join(dir, "audit.jsonl")); !strings.Contains(string(log), `"agent": "bob", "op": "oauth:approve"`) {
		t.Fatalf("the approval is not audited:\n%s", log)
	}
}

// TestOAuthEndpointsAreLimitedPerAddress fills the registration budget of
// one client address: past it the server answers 429 with Retry-After,
// and registrations from another address (behind the trusted proxy) still
// pass.
func TestOAuthEndpointsAreLimitedPerAddress(t *testing.T) {
	registry := filepath.Join(t.TempDir(), "federation.yaml")
	addMember(t, registry, "alice", "--tier", "trusted")
	s := startHTTPWith(t, []string{"BOURDON_PEER_TOKEN_SERVER=op-secret"}, "--port", "0", "--library", seedLibrary(t), "--registry", registry,
		"--audit-log", filepath.Join(t.TempDir(), "audit.jsonl"), "--trusted-proxy", "127.0.0.1")
	register := func(client string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, s.base()+"/register", strings.NewReader(`{"client_name":"flood","redirect_uris":["http://127.0.0.1:9/cb"],"token_endpoint_auth_method":"none"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	for i := range 5 {
		if resp := register("203.0.113.9"); resp.StatusCode != http.StatusCreated {
			t.Fatalf("registration %d: %d", i+1, resp.StatusCode)
		}
	}
	resp := register("203.0.113.9")
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("past the budget: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp := register("198.51.100.4"); resp.StatusCode != http.StatusCreated {
		t.Errorf("another address: %d", resp.StatusCode)
	}
	// The authorization endpoint has its own budget: 20, then 429.
	var last int
	for range 21 {
		r, err := http.Get(s.base() + "/authorize?client_id=nobody")
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		last = r.StatusCode
	}
	if last != http.StatusTooManyRequests {
		t.Errorf("the 21st authorization request: %d, want 429", last)
	}
	_, metrics := get(t, http.DefaultClient, s.base()+"/metrics", "op-secret")
	for _, want := range []string{`bdn_rate_limited_total{method="oauth_register"} 1`, `bdn_rate_limited_total{method="oauth_requests"} 1`} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestCallersTokensNeverReachPeers puts a recording peer behind the
// server: whether the caller comes with a bdn_ token or an OAuth access
// token, the peer sees only the peer token from the server's environment.
func TestCallersTokensNeverReachPeers(t *testing.T) {
	const peerToken = "bdn_the_peer_token_from_env"
	var mu sync.Mutex
	var seen []http.Header
	peerSrv := mcp.NewServer(&mcp.Implementation{Name: "peer", Version: "1"}, nil)
	peerSrv.AddTool(&mcp.Tool{Name: "list_agents", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"agents":["remote-agent"]}`}}}, nil
	})
	h := mcphttp.Handler(peerSrv, mcphttp.Options{})
	peerHTTP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	defer peerHTTP.Close()

	dir := t.TempDir()
	registry := filepath.Join(dir, "federation.yaml")
	alice := addMember(t, registry, "alice", "--tier", "trusted")
	s := startHTTPWith(t, []string{"BOURDON_PEER_TOKEN=" + peerToken}, "--port", "0", "--library", seedLibrary(t), "--registry", registry,
		"--audit-log", filepath.Join(dir, "audit.jsonl"), "--peer", peerHTTP.URL)

	calls := 0
	oauthHandler, err := auth.NewAuthorizationCodeHandler(&auth.AuthorizationCodeHandlerConfig{
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{Metadata: &oauthex.ClientRegistrationMetadata{
			ClientName: "e2e", RedirectURIs: []string{"http://127.0.0.1:9/callback"}, TokenEndpointAuthMethod: "none",
		}},
		AuthorizationCodeFetcher: consentFetcher(alice, &calls),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	viaOAuth, err := mcp.NewClient(&mcp.Implementation{Name: "oauth", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, OAuthHandler: oauthHandler}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer viaOAuth.Close()
	viaBearer, err := connectAs(t, s.url, alice, "")
	if err != nil {
		t.Fatal(err)
	}
	defer viaBearer.Close()
	for name, cs := range map[string]*mcp.ClientSession{"oauth": viaOAuth, "bdn_": viaBearer} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_agents", Arguments: map[string]any{}})
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "remote-agent") {
			t.Fatalf("%s: list_agents did not reach the peer: %v %+v", name, err, res)
		}
	}
	ts, _ := oauthHandler.TokenSource(ctx)
	tok, err := ts.Token()
	if err != nil || calls == 0 {
		t.Fatalf("no OAuth token: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("the peer saw no request")
	}
	for _, hdr := range seen {
		if got := hdr.Get("Authorization"); got != "Bearer "+peerToken {
			t.Errorf("the peer got Authorization %q", got)
		}
		for k, vs := range hdr {
			for _, v := range vs {
				if strings.Contains(v, alice) || strings.Contains(v, tok.AccessToken) {
					t.Errorf("the caller's token reached the peer in %s", k)
				}
			}
		}
	}
}
