// Package authserver is the built-in OAuth 2.1 authorization server, for
// people who run bourdon without an identity provider of their own:
// metadata (RFC 8414), dynamic client registration (RFC 7591), the
// authorization-code grant with PKCE S256 only and exact redirect-URI
// matching, a consent page where the person proves who they are with a
// registry member's bdn_ token (or the operator approves the request with
// `bourdon oauth approve`), short-lived opaque access tokens and rotating
// refresh tokens, and revocation (RFC 7009).
//
// A token always acts for one registry member and is bound to the
// resource it was issued for (RFC 8707). Its scopes are the requested
// ones the member's tier may hold; the tier still decides every call.
// Revoking the member kills its tokens. Every issuance, refresh and
// refusal is written to the audit log. Tokens, codes and client secrets
// are stored only as SHA-256 hashes (see Store).
package authserver

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth"
)

// Lifetimes of what the server issues.
const (
	AccessTTL  = 30 * time.Minute
	RefreshTTL = 30 * 24 * time.Hour
	CodeTTL    = 2 * time.Minute
	PendingTTL = 10 * time.Minute
)

// The endpoints, relative to the issuer.
const (
	MetadataPath  = "/.well-known/oauth-authorization-server"
	AuthorizePath = "/authorize"
	TokenPath     = "/token"
	RegisterPath  = "/register"
	RevokePath    = "/revoke"
)

// Prefixes of the secrets the server hands out, so that secret scanners
// can find a leaked one.
const (
	accessPrefix  = "bdoa_"
	refreshPrefix = "bdor_"
	codePrefix    = "bdoc_"
	clientPrefix  = "bdocl_"
	secretPrefix  = "bdos_"
)

// maxFormBytes bounds a form or registration body.
const maxFormBytes = 64 << 10

// Config configures a Server.
type Config struct {
	// Issuer is the server's base URL as clients see it (scheme, host,
	// port; no path), such as https://mcp.example.com.
	Issuer string
	// Resource is the only resource tokens are issued for: the MCP
	// endpoint's URL (oauth.Resource.URL).
	Resource string
	Store    *Store
	Registry *trust.Registry
	Audit    *trust.Audit // nil records nothing
	Logger   *slog.Logger // nil discards
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// LimitRegistration and LimitRequests, when set, wrap the registration
	// endpoint, and the authorization, token and revocation endpoints:
	// the limits per client address on what needs no token (serve's 429s).
	LimitRegistration, LimitRequests func(http.Handler) http.Handler
}

// Server is the built-in authorization server. It also verifies the
// access tokens it issued (it is an oauth.Verifier).
type Server struct {
	cfg Config
}

// New returns the server for cfg.
func New(cfg Config) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Issuer = strings.TrimRight(cfg.Issuer, "/")
	return &Server{cfg: cfg}
}

// Mount serves the metadata and the endpoints on mux.
func (s *Server) Mount(mux *http.ServeMux) {
	registration, requests := orIdentity(s.cfg.LimitRegistration), orIdentity(s.cfg.LimitRequests)
	mux.Handle(MetadataPath, cors(s.metadata))
	mux.Handle(RegisterPath, cors(registration(http.HandlerFunc(s.register)).ServeHTTP))
	mux.Handle(AuthorizePath, requests(http.HandlerFunc(s.authorize)))
	mux.Handle(TokenPath, cors(requests(http.HandlerFunc(s.token)).ServeHTTP))
	mux.Handle(RevokePath, cors(requests(http.HandlerFunc(s.revoke)).ServeHTTP))
}

// orIdentity returns wrap, or a wrapper that changes nothing when it is nil.
func orIdentity(wrap func(http.Handler) http.Handler) func(http.Handler) http.Handler {
	if wrap == nil {
		return func(h http.Handler) http.Handler { return h }
	}
	return wrap
}

// cors lets browser-based clients (such as the MCP Inspector) call the
// endpoints that take no cookies: any origin, no credentials.
func cors(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h(w, r)
	})
}

// authMethods are the client authentication methods of the token and
// revocation endpoints.
var authMethods = []string{"none", "client_secret_post", "client_secret_basic"}

// metadata serves RFC 8414 authorization-server metadata.
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                         s.cfg.Issuer,
		"authorization_endpoint":                         s.cfg.Issuer + AuthorizePath,
		"token_endpoint":                                 s.cfg.Issuer + TokenPath,
		"registration_endpoint":                          s.cfg.Issuer + RegisterPath,
		"revocation_endpoint":                            s.cfg.Issuer + RevokePath,
		"scopes_supported":                               trust.Scopes,
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          authMethods,
		"revocation_endpoint_auth_methods_supported":     authMethods,
		"authorization_response_iss_parameter_supported": true,
	})
}

// Verify checks an access token this server issued: it must be live,
// issued for the configured resource, and its member still active in the
// same generation (not revoked since, nor revoked and added again).
func (s *Server) Verify(_ context.Context, token string) (oauth.Grant, error) {
	if !strings.HasPrefix(token, accessPrefix) {
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	st, err := s.cfg.Store.read()
	if err != nil {
		s.cfg.Logger.Warn(err.Error())
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	a := st.Access[hash(token)]
	if a == nil || !s.cfg.Now().Before(a.Expires) {
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	f := st.Families[a.Family]
	if f == nil || f.Resource != s.cfg.Resource {
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	caller, ok := s.member(f.Member, f.Generation)
	if !ok {
		return oauth.Grant{}, auth.ErrInvalidToken
	}
	return oauth.Grant{Caller: caller, Scopes: slices.Clone(f.Scopes), Expiry: a.Expires}, nil
}

// member returns the caller of an active member of the given generation.
func (s *Server) member(id, generation string) (trust.Caller, bool) {
	c, gen, ok := s.cfg.Registry.Lookup(id)
	if !ok || gen != generation {
		return trust.Caller{}, false
	}
	return c, true
}

// grantScopes returns the requested scopes a tier may hold.
func grantScopes(requested []string, tier trust.Tier) []string {
	allowed := tier.Scopes()
	var out []string
	for _, sc := range requested {
		if slices.Contains(allowed, sc) && !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// parseScopes splits a scope parameter; an empty one means
// oauth.DefaultScopes. A scope the server does not know is an error.
func parseScopes(param string) ([]string, error) {
	scopes := strings.Fields(param)
	if len(scopes) == 0 {
		return slices.Clone(oauth.DefaultScopes), nil
	}
	for _, sc := range scopes {
		if !slices.Contains(trust.Scopes, sc) {
			return nil, fmt.Errorf("unknown scope %q; this server knows %s", sc, strings.Join(trust.Scopes, ", "))
		}
	}
	return scopes, nil
}

// s256 returns the PKCE S256 challenge of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// audit records one issuance or refusal. agent is the member, or
// trust.UnidentifiedID when none is known yet.
func (s *Server) audit(agent, op string, allowed bool, detail string) {
	if agent == "" {
		agent = trust.UnidentifiedID
	}
	e := trust.Entry{Agent: agent, Op: op, Decision: trust.Allow, Detail: detail}
	if !allowed {
		e.Decision = trust.Deny
	}
	if err := s.cfg.Audit.Record(e); err != nil {
		s.cfg.Logger.Warn("audit", "err", err)
	}
}

// oauthError is an error response of the token, registration and
// revocation endpoints (RFC 6749 §5.2).
type oauthError struct {
	status int
	code   string
	desc   string
}

func (e *oauthError) Error() string { return e.code + ": " + e.desc }

func invalid(code, format string, args ...any) *oauthError {
	status := http.StatusBadRequest
	if code == "invalid_client" {
		status = http.StatusUnauthorized
	}
	return &oauthError{status: status, code: code, desc: fmt.Sprintf(format, args...)}
}

// writeError answers err as an OAuth error; anything else is a
// server_error whose detail is logged, not shown.
func (s *Server) writeError(w http.ResponseWriter, err error) {
	var oe *oauthError
	if !errors.As(err, &oe) {
		s.cfg.Logger.Warn("oauth", "err", err)
		oe = &oauthError{status: http.StatusInternalServerError, code: "server_error", desc: "the authorization server cannot serve this request now"}
	}
	if oe.code == "invalid_client" {
		w.Header().Set("WWW-Authenticate", `Basic realm="bourdon"`)
	}
	writeJSON(w, oe.status, map[string]string{"error": oe.code, "error_description": oe.desc})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// equalSecret compares two strings in constant time.
func equalSecret(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}
