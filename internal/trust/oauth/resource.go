// Package oauth is the resource-server half of OAuth 2.1 as the MCP
// authorization specification (2025-11-25) asks of a server: it describes
// the MCP endpoint as a protected resource (RFC 9728), names in every 401
// and 403 where to get a token and with which scopes, and tells from a
// request which scopes it needs. Access tokens themselves are checked by a
// Verifier: the built-in authorization server (package authserver) or an
// external identity provider (package external). Either way a token names
// a registry member, and the member's tier still decides every call.
package oauth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// WellKnownPath is where protected-resource metadata lives (RFC 9728).
const WellKnownPath = "/.well-known/oauth-protected-resource"

// Grant is what a verified access token carries: the registry member it
// acts for, the scopes it was granted and when it expires (a grant whose
// Expiry has passed, or is zero, is refused).
type Grant struct {
	Caller trust.Caller
	Scopes []string
	Expiry time.Time
}

// A Verifier checks an access token presented to this resource. It
// returns an error wrapping auth.ErrInvalidToken when the token is not a
// live token issued for this resource to an active member.
type Verifier interface {
	Verify(ctx context.Context, token string) (Grant, error)
}

// Resource is the MCP endpoint as an OAuth protected resource.
type Resource struct {
	// URL identifies the resource: the MCP endpoint as clients reach it,
	// such as https://mcp.example.com/mcp. Tokens must be issued for it
	// (their audience, the RFC 8707 resource indicator).
	URL string
	// AuthorizationServers are the issuers whose tokens the resource
	// accepts.
	AuthorizationServers []string
	// Verifier checks the tokens.
	Verifier Verifier
}

// DefaultScopes are the scopes a 401 asks for: enough for every read and
// write. Admin tools ask for more with a 403 (step-up authorization).
var DefaultScopes = []string{trust.ScopeRead, trust.ScopeWrite}

// MetadataURL returns where the resource's metadata is served: the
// well-known path inserted before the resource's own path.
func (r *Resource) MetadataURL() string {
	u, err := url.Parse(r.URL)
	if err != nil {
		return ""
	}
	u.Path = WellKnownPath + strings.TrimRight(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u.String()
}

// Metadata returns the protected-resource metadata document.
func (r *Resource) Metadata() *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               r.URL,
		AuthorizationServers:   slices.Clone(r.AuthorizationServers),
		ScopesSupported:        slices.Clone(trust.Scopes),
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "bourdon",
	}
}

// Mount serves the metadata at the root well-known path and at the path
// suffixed with the resource's own path (/mcp), which is the form
// RFC 9728 derives from the resource URL.
func (r *Resource) Mount(mux *http.ServeMux) {
	h := auth.ProtectedResourceMetadataHandler(r.Metadata())
	mux.Handle(WellKnownPath, h)
	if u, err := url.Parse(r.MetadataURL()); err == nil && u.Path != WellKnownPath {
		mux.Handle(u.Path, h)
	}
}

// Challenge returns the WWW-Authenticate value of a refusal: errCode is ""
// (no token), "invalid_token" or "insufficient_scope" (RFC 6750 §3), and
// scopes are the scopes to ask for.
func (r *Resource) Challenge(errCode string, scopes []string) string {
	params := []string{`realm="bourdon"`}
	if errCode != "" {
		params = append(params, fmt.Sprintf("error=%q", errCode))
	}
	params = append(params, fmt.Sprintf("resource_metadata=%q", r.MetadataURL()))
	if len(scopes) > 0 {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(scopes, " ")))
	}
	return "Bearer " + strings.Join(params, ", ")
}

// NeededScopes returns the scopes a JSON-RPC request body needs: read
// for everything, plus the tool's own scope for tools/call (see
// trust.ScopeOf). A body that does not parse needs read only; the MCP
// layer answers it with its own error.
func NeededScopes(body []byte) []string {
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	needed := []string{trust.ScopeRead}
	if json.Unmarshal(body, &msg) != nil || msg.Method != "tools/call" {
		return needed
	}
	if s := trust.ScopeOf(msg.Params.Name); s != trust.ScopeRead {
		needed = append(needed, s)
	}
	return needed
}

// Missing returns the scopes of needed that granted lacks.
func Missing(granted, needed []string) []string {
	var out []string
	for _, s := range needed {
		if !slices.Contains(granted, s) {
			out = append(out, s)
		}
	}
	return out
}

// Union returns a followed by the scopes of b it lacks.
func Union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
