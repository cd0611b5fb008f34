package authserver

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

const redirect = "http://127.0.0.1:9/callback"

// fixture is a built-in authorization server on httptest with a clock
// the test moves.
type fixture struct {
	t      testing.TB
	srv    *httptest.Server
	as     *Server
	reg    *trust.Registry
	dir    string
	tokens map[string]string // member id -> bdn_ token
	mu     sync.Mutex
	now    time.Time
}

func newFixture(t testing.TB) *fixture {
	f := &fixture{t: t, dir: t.TempDir(), tokens: map[string]string{}, now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	f.reg = trust.OpenRegistry(filepath.Join(f.dir, "federation.yaml"))
	for id, tier := range map[string]trust.Tier{"alice": trust.TierTrusted, "bob": trust.TierQuarantined} {
		tok, err := f.reg.Add(id, tier, nil)
		if err != nil {
			t.Fatal(err)
		}
		f.tokens[id] = tok
	}
	mux := http.NewServeMux()
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	f.as = New(Config{
		Issuer: f.srv.URL, Resource: f.srv.URL + "/mcp", Registry: f.reg,
		Store: OpenStore(filepath.Join(f.dir, StateFile)), Audit: trust.OpenAudit(filepath.Join(f.dir, "audit.jsonl")),
		Now: func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now },
	})
	f.as.Mount(mux)
	return f
}

func (f *fixture) advance(d time.Duration) { f.mu.Lock(); f.now = f.now.Add(d); f.mu.Unlock() }

func (f *fixture) post(path string, form url.Values) (int, map[string]any) {
	resp, err := http.PostForm(f.srv.URL+path, form)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

func (f *fixture) register(grants ...string) string {
	body := `{"redirect_uris":["` + redirect + `"],"token_endpoint_auth_method":"none","client_name":"test <b>app</b>","grant_types":["` + strings.Join(grants, `","`) + `"]}`
	resp, err := http.Post(f.srv.URL+RegisterPath, "application/json", strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	if resp.StatusCode != http.StatusCreated {
		f.t.Fatalf("register: %d %v", resp.StatusCode, out)
	}
	return out["client_id"].(string)
}

var hidden = regexp.MustCompile(`name="(request_id|csrf)" value="([^"]+)"`)

const verifier = "0123456789abcdef0123456789abcdef0123456789abcdef"

// authorize runs /authorize and the consent form with the member's
// token and returns the redirect it leads to.
func (f *fixture) authorize(clientID string, params url.Values, member string) *url.URL {
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect}, "state": {"xyz"},
		"code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}, "scope": {"read write"}}
	for k, v := range params {
		q[k] = v
	}
	resp, err := c.Get(f.srv.URL + AuthorizePath + "?" + q.Encode())
	if err != nil {
		f.t.Fatal(err)
	}
	page := readAll(resp)
	if resp.StatusCode == http.StatusFound {
		loc, _ := url.Parse(resp.Header.Get("Location"))
		return loc
	}
	if resp.StatusCode != http.StatusOK {
		f.t.Fatalf("authorize: %d %s", resp.StatusCode, page)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script") {
		f.t.Fatalf("CSP %q", csp)
	}
	if strings.Contains(page, "<b>app</b>") || strings.Contains(page, "<script") {
		f.t.Fatalf("the page is not escaped or has script:\n%s", page)
	}
	// The one inline style block is the one the CSP hash allows.
	if css, ok := between(page, "<style>", "</style>"); !ok || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "style-src 'sha256-"+cssHash(css)+"'") {
		f.t.Fatalf("the style block does not match the CSP hash")
	}
	fields := url.Values{"action": {"approve"}, "member_token": {f.tokens[member]}}
	for _, m := range hidden.FindAllStringSubmatch(page, -1) {
		fields.Set(m[1], m[2])
	}
	resp, err = c.PostForm(f.srv.URL+AuthorizePath, fields)
	if err != nil {
		f.t.Fatal(err)
	}
	body := readAll(resp)
	if resp.StatusCode != http.StatusFound {
		f.t.Fatalf("consent: %d %s", resp.StatusCode, body)
	}
	loc, _ := url.Parse(resp.Header.Get("Location"))
	return loc
}

func between(s, start, end string) (string, bool) {
	_, rest, ok := strings.Cut(s, start)
	if !ok {
		return "", false
	}
	inner, _, ok := strings.Cut(rest, end)
	return inner, ok
}

func cssHash(css string) string {
	sum := sha256.Sum256([]byte(css))
	return base64.StdEncoding.EncodeToString(sum[:])
}

func readAll(resp *http.Response) string {
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			return b.String()
		}
	}
}

func (f *fixture) exchange(clientID, code string, over url.Values) (int, map[string]any) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "client_id": {clientID}, "redirect_uri": {redirect}, "code_verifier": {verifier}, "resource": {f.srv.URL + "/mcp"}}
	for k, v := range over {
		form[k] = v
	}
	return f.post(TokenPath, form)
}

func (f *fixture) verify(token string) error {
	_, err := f.as.Verify(context.Background(), token)
	return err
}

func TestCodeFlowRefreshAndRevocation(t *testing.T) {
	f := newFixture(t)
	id := f.register("authorization_code", "refresh_token")
	loc := f.authorize(id, nil, "alice")
	if loc.Query().Get("state") != "xyz" || loc.Query().Get("iss") != f.srv.URL {
		t.Fatalf("redirect %s", loc)
	}
	code := loc.Query().Get("code")
	st, tok := f.exchange(id, code, nil)
	if st != 200 || tok["scope"] != "read write" || tok["refresh_token"] == nil {
		t.Fatalf("token: %d %v", st, tok)
	}
	access := tok["access_token"].(string)
	g, err := f.as.Verify(context.Background(), access)
	if err != nil || g.Caller.ID != "alice" || g.Caller.Tier != trust.TierTrusted {
		t.Fatalf("verify: %+v %v", g, err)
	}
	// Tokens, codes and secrets are stored hashed only.
	data, _ := os.ReadFile(filepath.Join(f.dir, StateFile))
	for _, secret := range []string{access, tok["refresh_token"].(string), code} {
		if strings.Contains(string(data), secret) {
			t.Fatal("the state file holds a secret in the clear")
		}
	}
	if fi, _ := os.Stat(filepath.Join(f.dir, StateFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("state mode %v", fi.Mode())
	}

	// A replayed code is refused and revokes what it issued.
	if st, body := f.exchange(id, code, nil); st != 400 || body["error"] != "invalid_grant" {
		t.Fatalf("replayed code: %d %v", st, body)
	}
	if err := f.verify(access); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatal("a replayed code left its access token alive")
	}

	// A fresh authorization: refresh rotates; the old refresh token
	// presented again revokes the family.
	_, tok = f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	old := tok["refresh_token"].(string)
	st, next := f.post(TokenPath, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {id}})
	if st != 200 || next["refresh_token"] == old {
		t.Fatalf("refresh: %d %v", st, next)
	}
	if st, body := f.post(TokenPath, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {id}}); st != 400 || body["error"] != "invalid_grant" {
		t.Fatalf("reused refresh token: %d %v", st, body)
	}
	if err := f.verify(next["access_token"].(string)); err == nil {
		t.Fatal("reuse of a rotated refresh token left the family alive")
	}

	// Expiry.
	_, tok = f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	f.advance(AccessTTL + time.Second)
	if err := f.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("an expired access token verified")
	}

	// RFC 7009 revocation.
	_, tok = f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	if st, _ := f.post(RevokePath, url.Values{"token": {tok["refresh_token"].(string)}, "client_id": {id}}); st != 200 {
		t.Fatalf("revoke: %d", st)
	}
	if err := f.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("revocation left the access token alive")
	}

	// Revoking the member kills its tokens, and re-adding it does not
	// bring them back.
	_, tok = f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	if err := f.reg.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	if err := f.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("a revoked member's token verified")
	}
	f.advance(2 * time.Second)
	f.reg.Add("alice", trust.TierTrusted, nil)
	if err := f.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("a re-added member's old token verified")
	}
	if st, body := f.post(TokenPath, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {id}}); st != 400 {
		t.Fatalf("refresh for a revoked member: %d %v", st, body)
	}

	// The audit log has issuances, refreshes and refusals.
	log, _ := os.ReadFile(filepath.Join(f.dir, "audit.jsonl"))
	for _, want := range []string{`"op": "oauth:token", "namespace": "*", "decision": "allow"`, `"op": "oauth:refresh"`, `"decision": "deny", "detail": "invalid_grant`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("audit log lacks %s", want)
		}
	}
}

func TestRefusals(t *testing.T) {
	f := newFixture(t)
	id := f.register("authorization_code")

	// Scopes are capped by the tier.
	loc := f.authorize(id, url.Values{"scope": {"read write admin"}}, "bob")
	if _, tok := f.exchange(id, loc.Query().Get("code"), nil); tok["scope"] != "read write" || tok["refresh_token"] != nil {
		t.Fatalf("quarantined grant: %v", tok)
	}

	// PKCE mismatch, redirect mismatch, wrong audience at the token endpoint.
	for name, over := range map[string]url.Values{
		"pkce":     {"code_verifier": {strings.Repeat("x", 43)}},
		"redirect": {"redirect_uri": {"http://127.0.0.1:9/other"}},
		"audience": {"resource": {"https://other.example.com/mcp"}},
	} {
		code := f.authorize(id, nil, "alice").Query().Get("code")
		if st, body := f.exchange(id, code, over); st != 400 || (body["error"] != "invalid_grant" && body["error"] != "invalid_target") {
			t.Errorf("%s: %d %v", name, st, body)
		}
	}

	// At /authorize: a wrong resource, plain PKCE and a missing challenge
	// go back to the client as errors.
	for name, over := range map[string]url.Values{
		"audience": {"resource": {"https://other.example.com/mcp"}},
		"plain":    {"code_challenge_method": {"plain"}},
		"scope":    {"scope": {"read everything"}},
	} {
		loc := f.authorize(id, over, "alice")
		if loc.Query().Get("error") == "" || loc.Query().Get("code") != "" {
			t.Errorf("%s: redirect %s", name, loc)
		}
	}
	// An unregistered redirect URI is never redirected to.
	resp, _ := http.Get(f.srv.URL + AuthorizePath + "?" + url.Values{"response_type": {"code"}, "client_id": {id}, "redirect_uri": {"https://evil.example.com/cb"}, "code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}}.Encode())
	if resp.StatusCode != 400 {
		t.Fatalf("unregistered redirect: %d", resp.StatusCode)
	}
	resp.Body.Close()

	// An expired code.
	code := f.authorize(id, nil, "alice").Query().Get("code")
	f.advance(CodeTTL + time.Second)
	if st, _ := f.exchange(id, code, nil); st != 400 {
		t.Fatalf("expired code: %d", st)
	}

	// A consent form without the browser's cookie is refused.
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, _ = c.Get(f.srv.URL + AuthorizePath + "?" + url.Values{"response_type": {"code"}, "client_id": {id}, "redirect_uri": {redirect}, "code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}}.Encode())
	page := readAll(resp)
	fields := url.Values{"action": {"approve"}, "member_token": {f.tokens["alice"]}}
	for _, m := range hidden.FindAllStringSubmatch(page, -1) {
		fields.Set(m[1], m[2])
	}
	before, _ := os.Stat(filepath.Join(f.dir, StateFile))
	resp, _ = http.PostForm(f.srv.URL+AuthorizePath, fields)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("consent without the cookie: %d", resp.StatusCode)
	}
	resp.Body.Close()
	// A refused answer does not rewrite the state (atomic writes replace
	// the file, so a rewrite would be another file).
	if after, _ := os.Stat(filepath.Join(f.dir, StateFile)); !os.SameFile(before, after) {
		t.Fatal("a refused consent rewrote the state file")
	}

	// Registration refuses http redirect URIs off loopback.
	resp, _ = http.Post(f.srv.URL+RegisterPath, "application/json", strings.NewReader(`{"redirect_uris":["http://example.com/cb"]}`))
	if resp.StatusCode != 400 {
		t.Fatalf("http redirect registered: %d", resp.StatusCode)
	}
	resp.Body.Close()
}

func TestOperatorApproval(t *testing.T) {
	f := newFixture(t)
	id := f.register("authorization_code")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, _ := c.Get(f.srv.URL + AuthorizePath + "?" + url.Values{"response_type": {"code"}, "client_id": {id}, "redirect_uri": {redirect}, "code_challenge": {s256(verifier)}, "code_challenge_method": {"S256"}}.Encode())
	page := readAll(resp)
	fields := url.Values{"action": {"continue"}}
	for _, m := range hidden.FindAllStringSubmatch(page, -1) {
		fields.Set(m[1], m[2])
	}
	reqs, err := f.as.cfg.Store.Requests(f.now)
	if err != nil || len(reqs) != 1 {
		t.Fatalf("requests: %v %v", reqs, err)
	}
	resp, _ = c.PostForm(f.srv.URL+AuthorizePath, fields)
	if resp.StatusCode != 200 || !strings.Contains(readAll(resp), "has not approved") {
		t.Fatal("continue before approval did not wait")
	}
	if err := f.as.Approve(reqs[0].ID, "nobody"); err == nil {
		t.Fatal("approved for an unknown member")
	}
	if err := f.as.Approve(reqs[0].ID, "bob"); err != nil {
		t.Fatal(err)
	}
	resp, _ = c.PostForm(f.srv.URL+AuthorizePath, fields)
	loc, _ := url.Parse(resp.Header.Get("Location"))
	resp.Body.Close()
	if _, tok := f.exchange(id, loc.Query().Get("code"), nil); tok["access_token"] == nil {
		t.Fatalf("after approval: %v", tok)
	}
}

func TestCorruptStateFailsClosed(t *testing.T) {
	f := newFixture(t)
	id := f.register("authorization_code")
	_, tok := f.exchange(id, f.authorize(id, nil, "alice").Query().Get("code"), nil)
	path := filepath.Join(f.dir, StateFile)
	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := f.verify(tok["access_token"].(string)); err == nil {
		t.Fatal("a token verified off a corrupt state file")
	}
	resp, _ := http.Post(f.srv.URL+RegisterPath, "application/json", strings.NewReader(`{"redirect_uris":["`+redirect+`"]}`))
	resp.Body.Close()
	if data, _ := os.ReadFile(path); string(data) != "{not json" {
		t.Fatal("a corrupt state file was overwritten")
	}
}
