package authserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
)

// Bounds on a registration.
const (
	maxRedirectURIs   = 10
	maxRedirectURILen = 2048
	maxClientNameLen  = 200
)

// register serves dynamic client registration (RFC 7591). Anybody may
// register; a registration grants nothing until a person consents.
func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return
	}
	var md oauthex.ClientRegistrationMetadata
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxFormBytes))
	if err := dec.Decode(&md); err != nil {
		s.registrationError(w, "invalid_client_metadata", "the body is not a JSON client metadata document: "+err.Error())
		return
	}
	c, err := checkClient(&md)
	if err != nil {
		s.registrationError(w, err.code, err.desc)
		return
	}
	c.Created = s.cfg.Now().UTC()
	id := secret(clientPrefix, 16)
	var clientSecret string
	if c.AuthMethod != "none" {
		clientSecret = secret(secretPrefix, 32)
		c.SecretHash = hash(clientSecret)
	}
	err2 := s.cfg.Store.update(s.cfg.Now(), func(st *state) error {
		if len(st.Clients) >= maxClients {
			return invalid("temporarily_unavailable", "too many registered clients; clients nobody consented to are dropped after a day")
		}
		st.Clients[id] = c
		return nil
	})
	if err2 != nil {
		s.audit("", "oauth:register", false, "client "+md.ClientName+": "+err2.Error())
		s.writeError(w, err2)
		return
	}
	s.audit("", "oauth:register", true, "client "+id+" ("+c.Name+")")
	md.RedirectURIs, md.GrantTypes, md.TokenEndpointAuthMethod = c.RedirectURIs, c.GrantTypes, c.AuthMethod
	md.ResponseTypes = []string{"code"}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(&oauthex.ClientRegistrationResponse{
		ClientRegistrationMetadata: md,
		ClientID:                   id,
		ClientSecret:               clientSecret,
		ClientIDIssuedAt:           c.Created,
	})
}

func (s *Server) registrationError(w http.ResponseWriter, code, desc string) {
	s.audit("", "oauth:register", false, desc)
	writeJSON(w, http.StatusBadRequest, map[string]string{"error": code, "error_description": desc})
}

// checkClient validates registration metadata and returns the client to
// store. Unknown grant types, response types and authentication methods
// are refused rather than ignored.
func checkClient(md *oauthex.ClientRegistrationMetadata) (*client, *oauthError) {
	if len(md.RedirectURIs) == 0 || len(md.RedirectURIs) > maxRedirectURIs {
		return nil, invalid("invalid_redirect_uri", "give 1 to %d redirect_uris", maxRedirectURIs)
	}
	for _, u := range md.RedirectURIs {
		if err := checkRedirectURI(u); err != "" {
			return nil, invalid("invalid_redirect_uri", "redirect_uri %q: %s", u, err)
		}
	}
	grants := md.GrantTypes
	if len(grants) == 0 {
		grants = []string{"authorization_code"}
	}
	for _, g := range grants {
		if g != "authorization_code" && g != "refresh_token" {
			return nil, invalid("invalid_client_metadata", "grant type %q is not supported; use authorization_code and refresh_token", g)
		}
	}
	for _, rt := range md.ResponseTypes {
		if rt != "code" {
			return nil, invalid("invalid_client_metadata", "response type %q is not supported; use code", rt)
		}
	}
	method := md.TokenEndpointAuthMethod
	if method == "" {
		method = "client_secret_basic" // RFC 7591 §2
	}
	if !slices.Contains(authMethods, method) {
		return nil, invalid("invalid_client_metadata", "token_endpoint_auth_method %q is not supported; use one of %s", method, strings.Join(authMethods, ", "))
	}
	name := md.ClientName
	if !utf8.ValidString(name) || len(name) > maxClientNameLen {
		return nil, invalid("invalid_client_metadata", "client_name must be UTF-8 of at most %d bytes", maxClientNameLen)
	}
	return &client{Name: name, RedirectURIs: slices.Clone(md.RedirectURIs), GrantTypes: slices.Clone(grants), AuthMethod: method}, nil
}

// checkRedirectURI returns why a redirect URI cannot be registered, or
// "": it must be absolute, without a fragment, and https, http on a
// loopback host, or a private scheme of a native app (RFC 8252).
func checkRedirectURI(raw string) string {
	if len(raw) > maxRedirectURILen {
		return "too long"
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return "not an absolute URI"
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return "a redirect URI cannot have a fragment"
	}
	switch scheme := strings.ToLower(u.Scheme); scheme {
	case "https":
		if u.Host == "" {
			return "no host"
		}
	case "http":
		if !endpoint.IsLoopbackHost(u.Hostname()) {
			return "http is allowed on loopback hosts only; use https"
		}
	case "javascript", "data", "file", "vbscript", "blob", "about":
		return "scheme " + scheme + " is not allowed"
	}
	return ""
}
