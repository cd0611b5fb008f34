package authserver

import (
	"crypto/rand"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// cookiePrefix names the cookie that binds a consent form to the browser
// that opened the authorization request (double-submit CSRF token).
const cookiePrefix = "bourdon_consent_"

// authorize serves the authorization endpoint: GET starts a request and
// shows the consent page, POST is the person's answer.
func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
		s.startAuthorization(w, r)
	case http.MethodPost:
		s.consent(w, r)
	default:
		http.Error(w, "Method not allowed", http.StatusMethodNotAllowed)
	}
}

// startAuthorization checks an authorization request and shows the
// consent page. Until the client and its redirect URI are known good,
// errors are shown to the person, never redirected (RFC 6749 §4.1.2.1).
func (s *Server) startAuthorization(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	st, err := s.cfg.Store.read()
	if err != nil {
		s.cfg.Logger.Warn(err.Error())
		s.errorPage(w, http.StatusInternalServerError, "The authorization server cannot serve requests now; the operator's log says why.")
		return
	}
	clientID, redirect := q.Get("client_id"), q.Get("redirect_uri")
	c := st.Clients[clientID]
	if c == nil {
		s.audit("", "oauth:authorize", false, "unknown client "+clientID)
		s.errorPage(w, http.StatusBadRequest, "This application is not registered here. Remove the connector and add it again.")
		return
	}
	if !slices.Contains(c.RedirectURIs, redirect) {
		s.audit("", "oauth:authorize", false, "client "+clientID+": redirect_uri not registered")
		s.errorPage(w, http.StatusBadRequest, "The redirect address is not one this application registered.")
		return
	}
	fail := func(code, desc string) {
		s.audit("", "oauth:authorize", false, "client "+clientID+": "+code+": "+desc)
		http.Redirect(w, r, withParams(redirect, url.Values{"error": {code}, "error_description": {desc}, "state": {q.Get("state")}, "iss": {s.cfg.Issuer}}), http.StatusFound)
	}
	if q.Get("response_type") != "code" {
		fail("unsupported_response_type", "only response_type=code is supported")
		return
	}
	challenge := q.Get("code_challenge")
	if q.Get("code_challenge_method") != "S256" || !validChallenge(challenge) {
		fail("invalid_request", "PKCE is required: send code_challenge (43 base64url characters) with code_challenge_method=S256")
		return
	}
	if err := s.checkResource(q.Get("resource")); err != nil {
		fail("invalid_target", "this server issues tokens for "+s.cfg.Resource+" only")
		return
	}
	scopes, err := parseScopes(q.Get("scope"))
	if err != nil {
		fail("invalid_scope", err.Error())
		return
	}
	csrf := secret("", 32)
	id := requestID()
	p := &pending{
		CSRFHash: hash(csrf), ClientID: clientID, RedirectURI: redirect, State: q.Get("state"),
		Challenge: challenge, Scopes: scopes, Resource: s.cfg.Resource, Expires: s.cfg.Now().Add(PendingTTL).UTC(),
	}
	err = s.cfg.Store.update(s.cfg.Now(), func(st *state) error {
		if len(st.Pending) >= maxPending {
			return errors.New("too many authorization requests waiting")
		}
		st.Pending[id] = p
		return nil
	})
	if err != nil {
		s.cfg.Logger.Warn("oauth authorize", "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "Too many authorization requests are waiting; try again in a few minutes.")
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: cookiePrefix + id, Value: csrf, Path: AuthorizePath, MaxAge: int(PendingTTL / time.Second),
		HttpOnly: true, Secure: strings.HasPrefix(s.cfg.Issuer, "https://"), SameSite: http.SameSiteStrictMode,
	})
	s.consentPage(w, http.StatusOK, consentView{ID: id, CSRF: csrf, Client: c.Name, ClientID: clientID, Redirect: redirect, Scopes: scopes}, "")
}

// validChallenge reports whether a PKCE S256 challenge is well formed.
func validChallenge(c string) bool {
	if len(c) != 43 {
		return false
	}
	for _, r := range c {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// requestID returns the id of a pending request, short enough to read
// out to the operator: XXXX-XXXX in base32.
func requestID() string {
	t := rand.Text()
	return t[:4] + "-" + t[4:8]
}

// outcome is what a consent answer leads to.
type outcome struct {
	redirect string      // send the browser back to the client
	retry    string      // show the consent page again with this message
	view     consentView // the page to show again
	status   int         // an error page with this status and message
	message  string
}

// consent handles the person's answer on the consent page.
func (s *Server) consent(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusBadRequest, "The form could not be read.")
		return
	}
	id, csrf := r.PostForm.Get("request_id"), r.PostForm.Get("csrf")
	cookie, cerr := r.Cookie(cookiePrefix + id)
	var out outcome
	var member string
	err := s.cfg.Store.update(s.cfg.Now(), func(st *state) error {
		p := st.Pending[id]
		if p == nil {
			out = outcome{status: http.StatusBadRequest, message: "This authorization request expired or was already answered. Start again from your application."}
			return errUnchanged
		}
		if cerr != nil || csrf == "" || !equalSecret(csrf, cookie.Value) || !equalSecret(hash(csrf), p.CSRFHash) {
			out = outcome{status: http.StatusForbidden, message: "This form did not come from the page this browser opened. Start again from your application."}
			return errUnchanged
		}
		c := st.Clients[p.ClientID]
		view := consentView{ID: id, CSRF: csrf, ClientID: p.ClientID, Redirect: p.RedirectURI, Scopes: p.Scopes}
		if c != nil {
			view.Client = c.Name
		}
		back := func(v url.Values) string {
			v.Set("state", p.State)
			v.Set("iss", s.cfg.Issuer)
			return withParams(p.RedirectURI, v)
		}
		var caller trust.Caller
		switch r.PostForm.Get("action") {
		case "deny":
			delete(st.Pending, id)
			out = outcome{redirect: back(url.Values{"error": {"access_denied"}, "error_description": {"the person declined"}})}
			return nil
		case "approve":
			var ok bool
			if caller, ok = s.cfg.Registry.Authenticate(strings.TrimSpace(r.PostForm.Get("member_token"))); !ok {
				out = outcome{retry: "That is not the live bdn_ token of a registry member.", view: view}
				return errUnchanged
			}
		case "continue":
			var ok bool
			if p.Approved == "" {
				out = outcome{retry: "The operator has not approved request " + id + " yet.", view: view}
				return errUnchanged
			}
			if caller, _, ok = s.cfg.Registry.Lookup(p.Approved); !ok {
				out = outcome{retry: "The member the operator approved, " + p.Approved + ", is not active.", view: view}
				return errUnchanged
			}
		default:
			out = outcome{retry: "Choose approve or deny.", view: view}
			return errUnchanged
		}
		member = caller.ID
		delete(st.Pending, id)
		scopes := grantScopes(p.Scopes, caller.Tier)
		if len(scopes) == 0 || c == nil {
			member = ""
			out = outcome{redirect: back(url.Values{"error": {"invalid_scope"}, "error_description": {"member " + caller.ID + " may hold none of the requested scopes"}})}
			return nil
		}
		_, gen, _ := s.cfg.Registry.Lookup(caller.ID)
		cd := secret(codePrefix, 32)
		st.Codes[hash(cd)] = &code{
			ClientID: p.ClientID, RedirectURI: p.RedirectURI, Challenge: p.Challenge, Scopes: scopes,
			Resource: p.Resource, Member: caller.ID, Generation: gen, Expires: s.cfg.Now().Add(CodeTTL).UTC(),
		}
		out = outcome{redirect: back(url.Values{"code": {cd}})}
		return nil
	})
	if err != nil {
		s.cfg.Logger.Warn("oauth consent", "err", err)
		s.errorPage(w, http.StatusInternalServerError, "The authorization server cannot serve requests now; the operator's log says why.")
		return
	}
	switch {
	case out.status != 0:
		s.audit("", "oauth:authorize", false, out.message)
		s.errorPage(w, out.status, out.message)
	case out.retry != "":
		s.audit("", "oauth:authorize", false, "request "+id+": "+out.retry)
		s.consentPage(w, http.StatusOK, out.view, out.retry)
	default:
		if member != "" {
			s.audit(member, "oauth:authorize", true, "request "+id+" approved")
		} else {
			s.audit("", "oauth:authorize", false, "request "+id+" declined")
		}
		http.SetCookie(w, &http.Cookie{Name: cookiePrefix + id, Path: AuthorizePath, MaxAge: -1})
		http.Redirect(w, r, out.redirect, http.StatusFound)
	}
}

// withParams adds params to the query of a registered redirect URI.
func withParams(redirect string, params url.Values) string {
	u, err := url.Parse(redirect)
	if err != nil {
		return redirect
	}
	q := u.Query()
	for k, vs := range params {
		if len(vs) > 0 && vs[0] != "" {
			q.Set(k, vs[0])
		}
	}
	u.RawQuery = q.Encode()
	return u.String()
}
