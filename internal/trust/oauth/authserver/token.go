package authserver

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// token serves the token endpoint: the authorization_code grant (with
// PKCE) and the refresh_token grant (with rotation).
func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r) {
		return
	}
	var resp map[string]any
	var member, op, clientID string
	now := s.cfg.Now()
	err := s.cfg.Store.update(now, func(st *state) error {
		id, c, err := clientAuth(r, st)
		if err != nil {
			return err
		}
		clientID = id
		switch gt := r.PostForm.Get("grant_type"); gt {
		case "authorization_code":
			op = "oauth:token"
			resp, member, err = s.exchangeCode(st, r.PostForm, clientID, c, now)
		case "refresh_token":
			op = "oauth:refresh"
			resp, member, err = s.refresh(st, r.PostForm, clientID, c, now)
		default:
			op = "oauth:token"
			err = invalid("unsupported_grant_type", "grant_type %q is not supported; use authorization_code or refresh_token", gt)
		}
		return err
	})
	if err != nil {
		if op == "" {
			op = "oauth:token"
		}
		s.audit(member, op, false, errDetail(err))
		s.writeError(w, err)
		return
	}
	s.audit(member, op, true, "client "+clientID+", scope "+resp["scope"].(string))
	writeJSON(w, http.StatusOK, resp)
}

// errDetail is the audit detail of a refusal.
func errDetail(err error) string {
	var oe *oauthError
	if errors.As(err, &oe) {
		return oe.code + ": " + oe.desc
	}
	return "server_error"
}

// readForm reads the form of a POST to the token or revocation endpoint
// and answers anything else.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request) bool {
	if r.Method != http.MethodPost {
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.writeError(w, invalid("invalid_request", "the body is not a form"))
		return false
	}
	return true
}

// clientAuth authenticates the client of a token or revocation request:
// client_secret_basic, client_secret_post, or a public client's
// client_id alone, whichever it registered.
func clientAuth(r *http.Request, st *state) (string, *client, error) {
	id, sec, basic := r.BasicAuth()
	if basic {
		id, _ = url.QueryUnescape(id)
		sec, _ = url.QueryUnescape(sec)
	} else {
		id, sec = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	c := st.Clients[id]
	if id == "" || c == nil {
		return "", nil, invalid("invalid_client", "unknown client_id; register with %s first", RegisterPath)
	}
	if c.AuthMethod == "none" {
		if basic || sec != "" {
			return "", nil, invalid("invalid_client", "this client registered as a public client (token_endpoint_auth_method none) and has no secret")
		}
		return id, c, nil
	}
	if sec == "" || !equalSecret(hash(sec), c.SecretHash) || basic != (c.AuthMethod == "client_secret_basic") {
		return "", nil, invalid("invalid_client", "client authentication failed (this client uses %s)", c.AuthMethod)
	}
	return id, c, nil
}

// checkResource refuses a resource indicator other than the server's.
func (s *Server) checkResource(param string) error {
	if param != "" && strings.TrimRight(param, "/") != s.cfg.Resource {
		return invalid("invalid_target", "this server issues tokens for %s only", s.cfg.Resource)
	}
	return nil
}

// exchangeCode redeems an authorization code. A code presented twice
// revokes every token issued from it (RFC 6749 §4.1.2).
func (s *Server) exchangeCode(st *state, form url.Values, clientID string, c *client, now time.Time) (map[string]any, string, error) {
	h := hash(form.Get("code"))
	cd := st.Codes[h]
	if cd == nil || cd.ClientID != clientID {
		return nil, "", invalid("invalid_grant", "the authorization code is unknown, expired or not this client's")
	}
	if cd.Family != "" {
		st.revokeFamily(cd.Family)
		delete(st.Codes, h)
		return nil, cd.Member, keepChanges(invalid("invalid_grant", "the authorization code was already used; the tokens issued from it are revoked"))
	}
	if form.Get("redirect_uri") != cd.RedirectURI {
		return nil, cd.Member, invalid("invalid_grant", "redirect_uri differs from the authorization request's")
	}
	verifier := form.Get("code_verifier")
	if len(verifier) < 43 || len(verifier) > 128 || !equalSecret(s256(verifier), cd.Challenge) {
		return nil, cd.Member, invalid("invalid_grant", "code_verifier does not match the code_challenge (PKCE S256)")
	}
	if err := s.checkResource(form.Get("resource")); err != nil {
		return nil, cd.Member, err
	}
	if _, ok := s.member(cd.Member, cd.Generation); !ok {
		return nil, cd.Member, invalid("invalid_grant", "member %q is revoked", cd.Member)
	}
	if len(st.Families) >= maxFamilies {
		return nil, cd.Member, invalid("temporarily_unavailable", "too many live authorizations; revoking members with `bourdon registry revoke` frees theirs")
	}
	id := secret("", 16)
	st.Families[id] = &family{
		ClientID: clientID, Member: cd.Member, Generation: cd.Generation,
		Scopes: cd.Scopes, Resource: cd.Resource, Created: now.UTC(),
	}
	cd.Family = id
	c.Used = true
	resp, err := issue(st, id, c, now)
	return resp, cd.Member, err
}

// refresh redeems a refresh token for a new access token and a new
// refresh token. The old one dies; presenting it again (a sign it was
// stolen) revokes the whole family.
func (s *Server) refresh(st *state, form url.Values, clientID string, c *client, now time.Time) (map[string]any, string, error) {
	tok := form.Get("refresh_token")
	famID, ok := refreshFamily(tok)
	f := st.Families[famID]
	if !ok || f == nil || f.ClientID != clientID {
		return nil, "", invalid("invalid_grant", "the refresh token is unknown, expired or not this client's")
	}
	if !equalSecret(hash(tok), f.RefreshHash) || !now.Before(f.RefreshExpires) {
		st.revokeFamily(famID)
		return nil, f.Member, keepChanges(invalid("invalid_grant", "the refresh token was already used or expired; every token of this authorization is revoked"))
	}
	if _, ok := s.member(f.Member, f.Generation); !ok {
		st.revokeFamily(famID)
		return nil, f.Member, keepChanges(invalid("invalid_grant", "member %q is revoked", f.Member))
	}
	if err := s.checkResource(form.Get("resource")); err != nil {
		return nil, f.Member, err
	}
	if scope := form.Get("scope"); scope != "" {
		narrowed := strings.Fields(scope)
		for _, sc := range narrowed {
			if !slices.Contains(f.Scopes, sc) {
				return nil, f.Member, invalid("invalid_scope", "scope %q was not granted to this authorization", sc)
			}
		}
		f.Scopes = narrowed
	}
	resp, err := issue(st, famID, c, now)
	return resp, f.Member, err
}

// refreshFamily returns the family id a refresh token names.
func refreshFamily(tok string) (string, bool) {
	rest, ok := strings.CutPrefix(tok, refreshPrefix)
	if !ok {
		return "", false
	}
	id, _, ok := strings.Cut(rest, "_")
	return id, ok && id != ""
}

// issue mints an access token of the family and, when the client uses
// refresh tokens, the family's next refresh token.
func issue(st *state, famID string, c *client, now time.Time) (map[string]any, error) {
	if len(st.Access) >= maxAccessTokens {
		return nil, invalid("temporarily_unavailable", "too many live access tokens; try again later")
	}
	f := st.Families[famID]
	at := secret(accessPrefix, 32)
	st.Access[hash(at)] = &access{Family: famID, Expires: now.Add(AccessTTL).UTC()}
	resp := map[string]any{
		"access_token": at,
		"token_type":   "Bearer",
		"expires_in":   int(AccessTTL / time.Second),
		"scope":        strings.Join(f.Scopes, " "),
	}
	if slices.Contains(c.GrantTypes, "refresh_token") {
		rt := secret(refreshPrefix+famID+"_", 32)
		f.RefreshHash = hash(rt)
		f.RefreshExpires = now.Add(RefreshTTL).UTC()
		resp["refresh_token"] = rt
	}
	return resp, nil
}

// revoke serves token revocation (RFC 7009). Revoking either kind of
// token revokes its whole family. Unknown tokens are answered 200 too.
func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if !s.readForm(w, r) {
		return
	}
	var member string
	err := s.cfg.Store.update(s.cfg.Now(), func(st *state) error {
		clientID, _, err := clientAuth(r, st)
		if err != nil {
			return err
		}
		tok := r.PostForm.Get("token")
		famID, ok := refreshFamily(tok)
		if !ok {
			if a := st.Access[hash(tok)]; a != nil {
				famID = a.Family
			}
		}
		f := st.Families[famID]
		if f == nil || f.ClientID != clientID {
			return errUnchanged
		}
		member = f.Member
		st.revokeFamily(famID)
		return nil
	})
	if err != nil {
		s.audit(member, "oauth:revoke", false, errDetail(err))
		s.writeError(w, err)
		return
	}
	if member != "" {
		s.audit(member, "oauth:revoke", true, "revoked at the client's request")
	}
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
}
