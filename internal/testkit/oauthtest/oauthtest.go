// Package oauthtest is a fake external identity provider for tests: RFC
// 8414 metadata, a JWKS whose key can be rotated, and JWT access tokens
// signed with it.
package oauthtest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// IDP is the fake provider; URL is its issuer.
type IDP struct {
	URL string
	t   testing.TB
	mu  sync.Mutex
	key *ecdsa.PrivateKey
	kid string
}

// NewIDP starts a provider, stopped when the test ends.
func NewIDP(t testing.TB) *IDP {
	p := &IDP{t: t}
	p.Rotate("k1")
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": p.URL, "authorization_endpoint": p.URL + "/authorize", "token_endpoint": p.URL + "/token",
			"jwks_uri": p.URL + "/jwks", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		defer p.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: p.key.Public(), KeyID: p.kid, Algorithm: "ES256", Use: "sig"}}})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Rotate replaces the signing key with a new one named kid.
func (p *IDP) Rotate(kid string) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		p.t.Fatal(err)
	}
	p.mu.Lock()
	p.key, p.kid = k, kid
	p.mu.Unlock()
}

// Sign returns a JWT access token (typ at+jwt) with claims.
func (p *IDP) Sign(claims map[string]any) string { return p.SignTyped("at+jwt", claims) }

// SignTyped returns a JWT with claims whose header names typ ("" for no
// typ header).
func (p *IDP) SignTyped(typ string, claims map[string]any) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	opts := (&jose.SignerOptions{}).WithHeader("kid", p.kid)
	if typ != "" {
		opts = opts.WithType(jose.ContentType(typ))
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: p.key}, opts)
	if err != nil {
		p.t.Fatal(err)
	}
	tok, err := jwt.Signed(s).Claims(claims).Serialize()
	if err != nil {
		p.t.Fatal(err)
	}
	return tok
}
