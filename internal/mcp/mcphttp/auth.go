package mcphttp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth"
)

// Auth identifies HTTP callers by bearer token, as the reference does: a
// registry member's token, or the legacy shared token (which makes the
// caller the operator); and, when OAuth is set, by an OAuth access token
// issued for this resource to a registry member.
type Auth struct {
	Registry    *trust.Registry // may be nil when only the legacy token is used
	LegacyToken string          // "" means none; an empty token never matches
	// OAuth, when set, also accepts OAuth access tokens (checked by its
	// Verifier), points every 401 and 403 at its metadata, and holds
	// those tokens to their scopes.
	OAuth *oauth.Resource
	// OnRefused, when set, is told why each request was refused: one of
	// the Refused* reasons.
	OnRefused func(reason string)
	// Failures, when set, bounds per client address the requests refused
	// for a missing or invalid token: beyond it they get 429 with
	// Retry-After instead of 401. Valid tokens always pass, so a noisy
	// neighbour behind the same address locks no one out.
	Failures *AddrLimiter
}

// The reasons a request is refused authentication.
const (
	RefusedNotConfigured = "not_configured"
	RefusedMissingToken  = "missing_token"
	RefusedInvalidToken  = "invalid_token"
)

func (a *Auth) refused(reason string) {
	if a.OnRefused != nil {
		a.OnRefused(reason)
	}
}

// Configured reports whether any caller could authenticate at all.
func (a *Auth) Configured() bool {
	return a.LegacyToken != "" || (a.Registry != nil && a.Registry.HasActiveAgents())
}

// callerKey carries the caller from the bearer check to the token verifier
// of the SDK, which hands it to the MCP handlers.
type callerKey struct{}

// scopesKey carries the scopes of an OAuth access token from the bearer
// check to the body check (scopesAllow); bearer tokens of the registry
// carry none, their tier alone decides.
type scopesKey struct{}

// CallerExtra is the key of auth.TokenInfo.Extra that holds the
// trust.Caller of a request.
const CallerExtra = "bourdon.caller"

// authenticate wraps next with the bearer check. Every response to a
// refused request is JSON with an "error" key, as the reference writes
// it, and a 401 names the Bearer scheme in WWW-Authenticate.
func (a *Auth) authenticate(next http.Handler) http.Handler {
	// The SDK's middleware puts the caller where MCP handlers can read it
	// (CallToolRequest.Extra.TokenInfo) and binds each 2025-11-25 session
	// to the caller that opened it.
	sdk := auth.RequireBearerToken(func(ctx context.Context, _ string, _ *http.Request) (*auth.TokenInfo, error) {
		c, _ := ctx.Value(callerKey{}).(trust.Caller)
		g, ok := ctx.Value(scopesKey{}).(oauth.Grant)
		if !ok {
			g.Expiry = time.Now().Add(24 * time.Hour)
		}
		return &auth.TokenInfo{
			UserID:     c.ID,
			Scopes:     g.Scopes,
			Expiration: g.Expiry,
			Extra:      map[string]any{CallerExtra: c},
		}, nil
	}, &auth.RequireBearerTokenOptions{
		// The token was verified just before; the skew keeps the SDK from
		// answering its own 401, without our challenge, for a token that
		// expired in between.
		ClockSkew: time.Minute,
	})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The token is checked first and Configured only for a request
		// refused, so that an accepted one asks a registry kept in a
		// database for its revision once, not twice.
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		token = strings.TrimSpace(token)
		present := ok && strings.EqualFold(scheme, "bearer") && token != ""
		ctx := r.Context()
		var caller trust.Caller
		found := false
		var unreadable error // the registry could not be read for this token
		if present {
			caller, found, unreadable = a.identify(token)
		}
		if present && !found && unreadable == nil && a.OAuth != nil {
			// An OAuth access token; its scopes go with the request.
			if g, err := a.OAuth.Verifier.Verify(ctx, token); err == nil && time.Now().Before(g.Expiry) {
				caller, found = g.Caller, true
				ctx = context.WithValue(ctx, scopesKey{}, g)
			}
		}
		switch {
		case found:
		case unreadable != nil || !a.Configured():
			a.refused(RefusedNotConfigured)
			refuse(w)
			if unreadable != nil || (a.Registry != nil && a.Registry.Err() != nil) {
				// A registry that cannot be read now (its database is
				// down, the file is broken) lets nobody in, but it is not
				// "no auth": the client should come back.
				RetryAfter(w, 5*time.Second)
				jsonError(w, http.StatusServiceUnavailable, "Service Unavailable: the federation registry cannot be read, so no caller can be authenticated; retry later")
				return
			}
			jsonError(w, http.StatusServiceUnavailable, "Server has no auth configured (no registered agents via `bourdon registry add` and no BOURDON_PEER_TOKEN_SERVER) and was launched without --allow-unauthenticated.")
			return
		case !present:
			a.refused(RefusedMissingToken)
			a.unauthorized(w, r, "", "missing Bearer token")
			return
		default:
			a.refused(RefusedInvalidToken)
			a.unauthorized(w, r, "invalid_token", "invalid or revoked Bearer token")
			return
		}
		caller.Transport = trust.HTTP
		sdk.ServeHTTP(w, r.WithContext(context.WithValue(ctx, callerKey{}, caller)))
	})
}

// Caller returns the caller a bdn_ bearer token names (the legacy shared
// token, then the registry's members), as the HTTP transport checks it
// before trying OAuth; the dashboard's sign-in uses the same check.
func (a *Auth) Caller(token string) (trust.Caller, bool) {
	caller, found, _ := a.identify(token)
	return caller, found
}

// identify is Caller that also returns why the registry could not be read
// for this token, so that a valid token refused for a database that did
// not answer gets 503, not 401 (which would tell a client to drop it).
func (a *Auth) identify(token string) (trust.Caller, bool, error) {
	caller, found := trust.AuthenticateLegacy(a.LegacyToken, token)
	if !found && a.Registry != nil {
		return a.Registry.Identify(token)
	}
	return caller, found, nil
}

// unauthorized answers 401; with OAuth the challenge names the
// resource's metadata and the scopes to ask for. An address over its
// Failures rate gets 429 instead.
func (a *Auth) unauthorized(w http.ResponseWriter, r *http.Request, errCode, msg string) {
	refuse(w)
	if ok, wait := a.Failures.Allow(r, time.Now()); !ok {
		seconds := RetryAfter(w, wait)
		jsonError(w, http.StatusTooManyRequests, fmt.Sprintf("Too Many Requests: too many refused tokens from your address; retry after %ds", seconds))
		return
	}
	challenge := `Bearer realm="bourdon"`
	if a.OAuth != nil {
		challenge = a.OAuth.Challenge(errCode, oauth.DefaultScopes)
	}
	w.Header().Set("WWW-Authenticate", challenge)
	jsonError(w, http.StatusUnauthorized, msg)
}

// scopesAllow holds an OAuth access token to its scopes: a request body
// that needs a scope the token lacks gets 403 insufficient_scope, whose
// challenge asks for the token's scopes plus the missing ones. Requests
// authenticated otherwise pass.
func (a *Auth) scopesAllow(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if a == nil || a.OAuth == nil {
		return true
	}
	g, ok := r.Context().Value(scopesKey{}).(oauth.Grant)
	if !ok {
		return true
	}
	missing := oauth.Missing(g.Scopes, oauth.NeededScopes(body))
	if len(missing) == 0 {
		return true
	}
	w.Header().Set("WWW-Authenticate", a.OAuth.Challenge("insufficient_scope", oauth.Union(g.Scopes, missing)))
	jsonError(w, http.StatusForbidden, "insufficient_scope: this request needs the scope "+strings.Join(missing, " "))
	return false
}

func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

// CallerOf returns the caller a request's token identified, and false when
// the request carried no identity (stdio, or HTTP without authentication,
// which the server only allows on loopback).
func CallerOf(ti *auth.TokenInfo) (trust.Caller, bool) {
	if ti == nil {
		return trust.Caller{}, false
	}
	c, ok := ti.Extra[CallerExtra].(trust.Caller)
	return c, ok
}
