package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// registryOn runs "bourdon registry ARGS... --store url" and returns its
// output.
func registryOn(t *testing.T, url string, args ...string) string {
	t.Helper()
	out, err := exec.Command(binary, append(append([]string{"registry"}, args...), "--store", url)...).CombinedOutput()
	if err != nil {
		t.Fatalf("registry %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// refused reports whether an HTTP status is the refusal of a token: 401,
// or 429 once an address has had too many tokens refused (answered only
// after the token was checked and refused).
func refused(status int) bool {
	return status == http.StatusUnauthorized || status == http.StatusTooManyRequests
}

// TestRevocationIsSeenByEveryReplica: three `bourdon serve --store` share
// one database's registry. Thirty times, a member's token is rotated with
// the CLI against the database and, at once (no wait), every replica
// refuses the old token and accepts the new one; every fifth round the
// member is revoked (refused everywhere at once) and added again. A tier
// change is seen by every replica's next call too.
func TestRevocationIsSeenByEveryReplica(t *testing.T) {
	url := pgtest.Migrated(t)
	tok := addMember(t, url, "rover", "--tier", "trusted")
	addMember(t, url, "keeper") // keeps the registry configured while rover is revoked
	var replicas []*server
	for range 3 {
		replicas = append(replicas, startHTTP(t, "--store", url, "--library", t.TempDir(), "--rate-limit", "off", "--quiet"))
	}
	expect := func(round int, what, token string, accepted bool) {
		t.Helper()
		for i, s := range replicas {
			st := ping(t, s.url, token)
			if accepted && st != http.StatusOK || !accepted && !refused(st) {
				t.Fatalf("round %d, replica %d, %s token: %d", round, i, what, st)
			}
		}
	}
	expect(0, "first", tok, true)
	for round := 1; round <= 30; round++ {
		m := tokenRE.FindStringSubmatch(registryOn(t, url, "rotate", "rover"))
		if m == nil {
			t.Fatal("rotate printed no token")
		}
		expect(round, "rotated-away", tok, false)
		expect(round, "rotated", m[1], true)
		tok = m[1]
		if round%5 == 0 {
			registryOn(t, url, "revoke", "rover")
			expect(round, "revoked", tok, false)
			fresh := addMember(t, url, "rover", "--tier", "trusted")
			expect(round, "revoked, after re-adding", tok, false)
			expect(round, "re-added", fresh, true)
			tok = fresh
		}
	}
	registryOn(t, url, "set-tier", "rover", "quarantined")
	for i, s := range replicas {
		cs, err := connectAs(t, s.url, tok, "2026-07-28")
		if err != nil {
			t.Fatal(err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "describe_caller", Arguments: map[string]any{}})
		cs.Close()
		if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, `"quarantined"`) {
			t.Errorf("replica %d after set-tier: %v %+v", i, err, res)
		}
	}
}

// TestOAuthAcrossReplicas: two `bourdon serve --store` behind one public
// address share the built-in authorization server's state. A client
// registered and authorized through one replica exchanges its code and
// refreshes through the other, its tokens work on both, a grant revoked
// through one is refused by the other on its next request, and revoking
// the member with the CLI kills every token on both.
func TestOAuthAcrossReplicas(t *testing.T) {
	db := pgtest.Migrated(t)
	alice := addMember(t, db, "alice", "--tier", "trusted")
	addMember(t, db, "bob")
	// The address of the load balancer in front: the issuer and the
	// resource every replica names.
	const public = "http://127.0.0.1:9"
	a := startHTTP(t, "--store", db, "--library", t.TempDir(), "--public-url", public, "--rate-limit", "off", "--quiet")
	b := startHTTP(t, "--store", db, "--library", t.TempDir(), "--public-url", public, "--rate-limit", "off", "--quiet")
	baseA, baseB := strings.TrimSuffix(a.url, "/mcp"), strings.TrimSuffix(b.url, "/mcp")

	// Register through A.
	resp, err := http.Post(baseA+"/register", "application/json", strings.NewReader(`{"client_name": "replicas", "redirect_uris": ["http://127.0.0.1:9/callback"], "token_endpoint_auth_method": "none", "grant_types": ["authorization_code", "refresh_token"]}`))
	if err != nil {
		t.Fatal(err)
	}
	var reg struct {
		ClientID string `json:"client_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&reg)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || reg.ClientID == "" {
		t.Fatalf("register: %d %+v", resp.StatusCode, reg)
	}
	// authorize runs the consent on replica via, exchanges the code on
	// replica at and returns the tokens.
	authorize := func(via, at string) map[string]any {
		t.Helper()
		verifier := strings.Repeat("v", 50)
		sum := sha256.Sum256([]byte(verifier))
		q := url.Values{
			"response_type": {"code"}, "client_id": {reg.ClientID}, "redirect_uri": {"http://127.0.0.1:9/callback"},
			"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
			"scope": {"read write"}, "state": {"s"}, "resource": {public + "/mcp"},
		}
		calls := 0
		res, err := consentFetcher(alice, &calls)(context.Background(), &auth.AuthorizationArgs{URL: via + "/authorize?" + q.Encode()})
		if err != nil {
			t.Fatal(err)
		}
		tok := tokenPost(t, at+"/token", url.Values{
			"grant_type": {"authorization_code"}, "code": {res.Code}, "redirect_uri": {"http://127.0.0.1:9/callback"},
			"client_id": {reg.ClientID}, "code_verifier": {verifier}, "resource": {public + "/mcp"},
		})
		if tok["access_token"] == nil || tok["refresh_token"] == nil {
			t.Fatalf("token: %v", tok)
		}
		return tok
	}
	both := func(what, token string, accepted bool) {
		t.Helper()
		for name, s := range map[string]*server{"A": a, "B": b} {
			st := ping(t, s.url, token)
			if accepted && st != http.StatusOK || !accepted && !refused(st) {
				t.Fatalf("%s on replica %s: %d", what, name, st)
			}
		}
	}

	tok := authorize(baseA, baseB)
	both("the access token", tok["access_token"].(string), true)
	// Refresh through B, then through A with what B returned.
	refreshed := tokenPost(t, baseB+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {reg.ClientID}})
	if refreshed["access_token"] == nil {
		t.Fatalf("refresh on B: %v", refreshed)
	}
	both("the refreshed token", refreshed["access_token"].(string), true)
	if again := tokenPost(t, baseA+"/token", url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {reg.ClientID}}); again["access_token"] != nil {
		t.Fatal("a used refresh token was accepted by the other replica")
	}
	// Replaying the used refresh token revoked the family (on A); B
	// refuses its tokens at once.
	both("a token of a family revoked by a replayed refresh token", refreshed["access_token"].(string), false)

	// A new grant, revoked through B (RFC 7009): A refuses it at once.
	tok = authorize(baseB, baseA)
	both("the second grant's token", tok["access_token"].(string), true)
	if r, err := http.PostForm(baseB+"/revoke", url.Values{"token": {tok["refresh_token"].(string)}, "client_id": {reg.ClientID}}); err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("revoke: %v %v", r, err)
	}
	both("a revoked grant's token", tok["access_token"].(string), false)

	// Revoking the member with the CLI kills its tokens on both.
	tok = authorize(baseA, baseB)
	both("the third grant's token", tok["access_token"].(string), true)
	registryOn(t, db, "revoke", "alice")
	both("a revoked member's token", tok["access_token"].(string), false)
	if out, err := exec.Command(binary, "oauth", "list", "--store", db).CombinedOutput(); err != nil || !strings.Contains(string(out), "no authorization request is waiting") {
		t.Errorf("oauth list --store: %v %s", err, out)
	}
}
