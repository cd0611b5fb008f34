// Package external verifies the JWT access tokens of an external
// identity provider (serve --oauth-issuer): it discovers the provider's
// metadata (RFC 8414, or OpenID Connect discovery) with the go-sdk,
// fetches and caches its signing keys (refetched when a token names a key
// it does not know, at most every 30 seconds, so key rotation needs no
// restart and forged tokens cannot make the server hammer the provider),
// and checks each token's signature (go-jose), issuer, audience (this
// resource, RFC 8707) and expiry (github.com/coreos/go-oidc), and refuses
// JWTs typed as another kind of token (see accessTypes). The token's subject must be the
// oauth_subject of an active registry member, whose tier and grants then
// decide every call.
package external

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth"
)

// Config configures a Verifier.
type Config struct {
	// Issuer is the identity provider's issuer URL.
	Issuer string
	// Audience is the resource the tokens must be issued for: the MCP
	// endpoint's URL (oauth.Resource.URL).
	Audience string
	Registry *trust.Registry
	// Client fetches metadata and keys; nil means http.DefaultClient.
	Client *http.Client
}

// Verifier checks an external provider's access tokens.
type Verifier struct {
	issuer   string
	keys     *keySet
	verifier *oidc.IDTokenVerifier
	registry *trust.Registry
}

// signingAlgs are the asymmetric algorithms accepted; HMAC and "none"
// never are.
var signingAlgs = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
}

// New discovers the provider and fetches its keys; a provider without
// metadata, without a jwks_uri or whose keys cannot be fetched is an
// error.
func New(ctx context.Context, cfg Config) (*Verifier, error) {
	client := cfg.Client
	if client == nil {
		client = http.DefaultClient
	}
	asm, err := auth.GetAuthServerMetadata(ctx, cfg.Issuer, client)
	if err != nil {
		return nil, fmt.Errorf("--oauth-issuer %s: %w", cfg.Issuer, err)
	}
	if asm == nil {
		return nil, fmt.Errorf("--oauth-issuer %s: no authorization server metadata (RFC 8414) or OpenID configuration found", cfg.Issuer)
	}
	if asm.JWKSURI == "" {
		return nil, fmt.Errorf("--oauth-issuer %s: the metadata names no jwks_uri, so its tokens cannot be verified", cfg.Issuer)
	}
	keys := &keySet{url: asm.JWKSURI, client: client, algs: signingAlgs, now: time.Now}
	if _, err := keys.refresh(ctx); err != nil {
		return nil, fmt.Errorf("--oauth-issuer %s: %w", cfg.Issuer, err)
	}
	algs := make([]string, len(signingAlgs))
	for i, a := range signingAlgs {
		algs[i] = string(a)
	}
	v := oidc.NewVerifier(asm.Issuer, keys, &oidc.Config{ClientID: cfg.Audience, SupportedSigningAlgs: algs})
	return &Verifier{issuer: asm.Issuer, keys: keys, verifier: v, registry: cfg.Registry}, nil
}

// Issuer returns the provider's issuer as its metadata names it.
func (v *Verifier) Issuer() string { return v.issuer }

// Verify checks a JWT access token and maps its subject to a member. The
// grant's scopes are the token's scopes (the scope claim, or scp) that
// this server knows and the member's tier may hold.
func (v *Verifier) Verify(ctx context.Context, token string) (oauth.Grant, error) {
	if strings.Count(token, ".") != 2 {
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	if err := checkType(token); err != nil {
		return oauth.Grant{}, err
	}
	t, err := v.verifier.Verify(ctx, token)
	if err != nil {
		return oauth.Grant{}, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	caller, ok := v.registry.BySubject(t.Subject)
	if !ok {
		return oauth.Grant{}, fmt.Errorf("%w: subject %q is no active registry member's oauth_subject", auth.ErrInvalidToken, t.Subject)
	}
	var claims struct {
		Scope string `json:"scope"`
		Scp   any    `json:"scp"`
	}
	if err := t.Claims(&claims); err != nil {
		return oauth.Grant{}, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	allowed := caller.Tier.Scopes()
	var scopes []string
	for _, s := range tokenScopes(claims.Scope, claims.Scp) {
		if slices.Contains(allowed, s) && !slices.Contains(scopes, s) {
			scopes = append(scopes, s)
		}
	}
	return oauth.Grant{Caller: caller, Scopes: scopes, Expiry: t.Expiry}, nil
}

// accessTypes are the typ headers of the JWTs taken as access tokens:
// RFC 9068's at+jwt, and the generic JWT or none at all, which is what
// many providers (Microsoft Entra ID, Keycloak, Okta, Auth0 by default)
// put on their access tokens. A JWT typed as anything else (an ID token
// typed id_token+jwt, a logout token, a DPoP proof) is another kind of
// token and is refused; an untyped ID token is stopped by the audience
// check, since it is issued for the client, not for this resource.
var accessTypes = []string{"", "jwt", "at+jwt", "application/at+jwt"}

// checkType refuses a JWT whose header names a type other than an access
// token's (RFC 8725 §3.11). The signature is checked after it.
func checkType(token string) error {
	head, _, _ := strings.Cut(token, ".")
	raw, err := base64.RawURLEncoding.DecodeString(head)
	var h struct {
		Typ string `json:"typ"`
	}
	if err == nil {
		err = json.Unmarshal(raw, &h)
	}
	if err != nil {
		return fmt.Errorf("%w: the JWT header does not parse", auth.ErrInvalidToken)
	}
	if !slices.Contains(accessTypes, strings.ToLower(h.Typ)) {
		return fmt.Errorf("%w: a JWT of type %q is not an access token (want at+jwt)", auth.ErrInvalidToken, h.Typ)
	}
	return nil
}

// tokenScopes reads the scope claim (space-separated, RFC 9068) or the
// scp claim (a list or a string, as some providers write it).
func tokenScopes(scope string, scp any) []string {
	out := strings.Fields(scope)
	switch x := scp.(type) {
	case string:
		out = append(out, strings.Fields(x)...)
	case []any:
		for _, s := range x {
			if str, ok := s.(string); ok {
				out = append(out, str)
			}
		}
	}
	return out
}
