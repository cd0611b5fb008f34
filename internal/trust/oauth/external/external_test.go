package external

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

const audience = "https://mcp.example.com/mcp"

// idp is a fake identity provider: RFC 8414 metadata and a JWKS whose
// key can be rotated.
type idp struct {
	srv *httptest.Server
	mu  sync.Mutex
	key *ecdsa.PrivateKey
	kid string
}

func newIDP(t *testing.T) *idp {
	p := &idp{}
	p.rotate(t, "k1")
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{
			"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/authorize", "token_endpoint": p.srv.URL + "/token",
			"jwks_uri": p.srv.URL + "/jwks", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		p.mu.Lock()
		defer p.mu.Unlock()
		json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: p.key.Public(), KeyID: p.kid, Algorithm: "ES256", Use: "sig"}}})
	})
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

func (p *idp) rotate(t *testing.T, kid string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	p.key, p.kid = k, kid
	p.mu.Unlock()
}

func (p *idp) sign(t *testing.T, claims map[string]any) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: p.key}, (&jose.SignerOptions{}).WithType("at+jwt").WithHeader("kid", p.kid))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestVerifier(t *testing.T) {
	p := newIDP(t)
	reg := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	for _, m := range []struct {
		id   string
		tier trust.Tier
	}{{"alice", trust.TierTrusted}, {"bob", trust.TierQuarantined}} {
		if _, err := reg.Add(m.id, m.tier, nil); err != nil {
			t.Fatal(err)
		}
		if err := reg.SetSubject(m.id, "user|"+m.id); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	v, err := New(ctx, Config{Issuer: p.srv.URL, Audience: audience, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims := func(over map[string]any) map[string]any {
		c := map[string]any{"iss": p.srv.URL, "aud": audience, "sub": "user|alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix(), "scope": "read write admin"}
		for k, val := range over {
			if val == nil {
				delete(c, k)
			} else {
				c[k] = val
			}
		}
		return c
	}
	g, err := v.Verify(ctx, p.sign(t, claims(nil)))
	if err != nil || g.Caller.ID != "alice" || len(g.Scopes) != 3 {
		t.Fatalf("valid token: %+v, %v", g, err)
	}
	// The tier caps the scopes: a quarantined member never holds admin.
	g, err = v.Verify(ctx, p.sign(t, claims(map[string]any{"sub": "user|bob", "scope": nil, "scp": []string{"read", "admin", "openid"}})))
	if err != nil || g.Caller.ID != "bob" || len(g.Scopes) != 1 || g.Scopes[0] != "read" {
		t.Fatalf("quarantined token: %+v, %v", g, err)
	}
	refused := map[string]string{
		"wrong audience":  p.sign(t, claims(map[string]any{"aud": "https://other.example.com/mcp"})),
		"expired":         p.sign(t, claims(map[string]any{"exp": now.Add(-time.Hour).Unix()})),
		"wrong issuer":    p.sign(t, claims(map[string]any{"iss": "https://evil.example.com"})),
		"unknown subject": p.sign(t, claims(map[string]any{"sub": "user|mallory"})),
		"not a JWT":       "bdoa_0123",
	}
	tampered := []byte(p.sign(t, claims(nil)))
	tampered[len(tampered)-5] ^= 1
	refused["bad signature"] = string(tampered)
	for name, tok := range refused {
		if _, err := v.Verify(ctx, tok); !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("%s: err = %v, want ErrInvalidToken", name, err)
		}
	}
	// Keys rotate without a restart: an unknown kid refetches the set.
	p.rotate(t, "k2")
	if g, err := v.Verify(ctx, p.sign(t, claims(nil))); err != nil || g.Caller.ID != "alice" {
		t.Fatalf("after key rotation: %+v, %v", g, err)
	}
	// Revoking the member kills its tokens.
	if err := reg.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, p.sign(t, claims(nil))); !errors.Is(err, auth.ErrInvalidToken) {
		t.Fatalf("revoked member: err = %v", err)
	}
}

func TestNewRefusesAProviderWithoutMetadata(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	if _, err := New(context.Background(), Config{Issuer: srv.URL, Audience: audience}); err == nil {
		t.Fatal("a provider without metadata was accepted")
	}
}
