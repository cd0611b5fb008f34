package mcphttp

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// Auth identifies HTTP callers by bearer token, as the reference does: a
// registry member's token, or the legacy shared token (which makes the
// caller the operator).
type Auth struct {
	Registry    *trust.Registry // may be nil when only the legacy token is used
	LegacyToken string          // "" means none; an empty token never matches
}

// Configured reports whether any caller could authenticate at all.
func (a *Auth) Configured() bool {
	return a.LegacyToken != "" || (a.Registry != nil && a.Registry.HasActiveAgents())
}

// callerKey carries the caller from the bearer check to the token verifier
// of the SDK, which hands it to the MCP handlers.
type callerKey struct{}

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
		return &auth.TokenInfo{
			UserID:     c.ID,
			Expiration: time.Now().Add(24 * time.Hour),
			Extra:      map[string]any{CallerExtra: c},
		}, nil
	}, nil)(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !a.Configured() {
			refuse(w)
			jsonError(w, http.StatusServiceUnavailable, "Server has no auth configured (no registered agents via `bourdon registry add` and no BOURDON_PEER_TOKEN_SERVER) and was launched without --allow-unauthenticated.")
			return
		}
		scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
		token = strings.TrimSpace(token)
		if !ok || !strings.EqualFold(scheme, "bearer") || token == "" {
			unauthorized(w, "missing Bearer token")
			return
		}
		caller, found := a.Caller(token)
		if !found {
			unauthorized(w, "invalid or revoked Bearer token")
			return
		}
		caller.Transport = trust.HTTP
		sdk.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), callerKey{}, caller)))
	})
}

// Caller returns the caller a bearer token names (the legacy shared
// token, then the registry's members), as the HTTP transport checks it;
// the dashboard's sign-in uses the same check.
func (a *Auth) Caller(token string) (trust.Caller, bool) {
	caller, found := trust.AuthenticateLegacy(a.LegacyToken, token)
	if !found && a.Registry != nil {
		caller, found = a.Registry.Authenticate(token)
	}
	return caller, found
}

func unauthorized(w http.ResponseWriter, msg string) {
	refuse(w)
	w.Header().Set("WWW-Authenticate", `Bearer realm="bourdon"`)
	jsonError(w, http.StatusUnauthorized, msg)
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
