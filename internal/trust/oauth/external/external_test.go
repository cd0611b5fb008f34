package external

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/testkit/oauthtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

const audience = "https://mcp.example.com/mcp"

func TestVerifier(t *testing.T) {
	p := oauthtest.NewIDP(t)
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
	v, err := New(ctx, Config{Issuer: p.URL, Audience: audience, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims := func(over map[string]any) map[string]any {
		c := map[string]any{"iss": p.URL, "aud": audience, "sub": "user|alice", "exp": now.Add(time.Hour).Unix(), "iat": now.Unix(), "scope": "read write admin"}
		for k, val := range over {
			if val == nil {
				delete(c, k)
			} else {
				c[k] = val
			}
		}
		return c
	}
	g, err := v.Verify(ctx, p.Sign(claims(nil)))
	if err != nil || g.Caller.ID != "alice" || len(g.Scopes) != 3 {
		t.Fatalf("valid token: %+v, %v", g, err)
	}
	// The tier caps the scopes: a quarantined member never holds admin.
	g, err = v.Verify(ctx, p.Sign(claims(map[string]any{"sub": "user|bob", "scope": nil, "scp": []string{"read", "admin", "openid"}})))
	if err != nil || g.Caller.ID != "bob" || len(g.Scopes) != 1 || g.Scopes[0] != "read" {
		t.Fatalf("quarantined token: %+v, %v", g, err)
	}
	refused := map[string]string{
		"wrong audience":               p.Sign(claims(map[string]any{"aud": "https://other.example.com/mcp"})),
		"expired":                      p.Sign(claims(map[string]any{"exp": now.Add(-time.Hour).Unix()})),
		"wrong issuer":                 p.Sign(claims(map[string]any{"iss": "https://evil.example.com"})),
		"unknown subject":              p.Sign(claims(map[string]any{"sub": "user|mallory"})),
		"not a JWT":                    "bdoa_0123",
		"an ID token":                  p.SignTyped("id_token+jwt", claims(nil)),
		"a logout token":               p.SignTyped("logout+jwt", claims(nil)),
		"a header that does not parse": "bm90IGpzb24.e30.c2ln",
	}
	// Access tokens typed the generic way, or not at all, as many
	// providers issue them, are accepted.
	for _, typ := range []string{"", "JWT", "application/at+jwt"} {
		if g, err := v.Verify(ctx, p.SignTyped(typ, claims(nil))); err != nil || g.Caller.ID != "alice" {
			t.Errorf("typ %q: %+v, %v", typ, g, err)
		}
	}
	tampered := []byte(p.Sign(claims(nil)))
	tampered[len(tampered)-5] ^= 1
	refused["bad signature"] = string(tampered)
	for name, tok := range refused {
		if _, err := v.Verify(ctx, tok); !errors.Is(err, auth.ErrInvalidToken) {
			t.Errorf("%s: err = %v, want ErrInvalidToken", name, err)
		}
	}
	// Keys rotate without a restart: an unknown kid refetches the set.
	// Keys rotate without a restart: a token naming a key not seen
	// before refetches the set, but not more than once per minRefresh.
	clock := time.Now()
	v.keys.now = func() time.Time { return clock }
	v.keys.fetched = clock
	p.Rotate("k2")
	rotated := p.Sign(claims(nil))
	if _, err := v.Verify(ctx, rotated); err == nil {
		t.Fatal("the key set was refetched within minRefresh")
	}
	clock = clock.Add(minRefresh)
	if g, err := v.Verify(ctx, rotated); err != nil || g.Caller.ID != "alice" {
		t.Fatalf("after key rotation: %+v, %v", g, err)
	}
	// Revoking the member kills its tokens.
	if err := reg.Revoke("alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(ctx, p.Sign(claims(nil))); !errors.Is(err, auth.ErrInvalidToken) {
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
