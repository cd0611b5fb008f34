package dashboard

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// loginView is the sign-in form's data.
type loginView struct {
	Form    string // the form's anti-forgery value, also in a cookie
	Next    string
	HasForm bool // a token can be presented (SignIn is configured)
}

// loginForm shows the sign-in form. The form carries a random value that
// is also set as a cookie, so that another site cannot post a sign-in
// (SameSite=Strict keeps the cookie off its request).
func (d *Dashboard) loginForm(w http.ResponseWriter, r *http.Request) {
	form := randomToken()
	d.setCookie(w, r, loginCookieName, form, 600)
	v := view{Title: "Sign in", Data: loginView{Form: form, Next: safeNext(r.URL.Query().Get("next")), HasForm: d.cfg.SignIn != nil}}
	if r.URL.Query().Get("ended") != "" {
		v.Problem = "Your session ended: the token it was opened with no longer signs in (revoked or rotated)."
	}
	d.renderPublic(w, http.StatusOK, v)
}

// login checks the presented token with SignIn and opens a session.
func (d *Dashboard) login(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(loginCookieName)
	if err != nil || !sameOrigin(r) || !sameToken(r.PostFormValue("form"), c.Value) {
		http.Error(w, "Forbidden: the sign-in form is stale or came from another site; reload it", http.StatusForbidden)
		return
	}
	token := strings.TrimSpace(r.PostFormValue("token"))
	caller, ok := d.signIn(token)
	if !ok || token == "" {
		_ = d.cfg.Audit.Record(trust.Entry{Agent: trust.UnidentifiedID, Op: "dashboard_sign_in", Decision: trust.Deny, Detail: "invalid or revoked token"})
		form := randomToken()
		d.setCookie(w, r, loginCookieName, form, 600)
		d.renderPublic(w, http.StatusUnauthorized, view{Title: "Sign in", Problem: "That token was refused: it is not a registered member's token, or it was revoked.",
			Data: loginView{Form: form, Next: safeNext(r.PostFormValue("next")), HasForm: d.cfg.SignIn != nil}})
		return
	}
	_ = d.cfg.Audit.Record(trust.Entry{Agent: caller.ID, Op: "dashboard_sign_in", Decision: trust.Allow})
	d.open(w, r, token, caller, safeNext(r.PostFormValue("next")))
}

// loginLink consumes a one-time link and opens an operator session.
func (d *Dashboard) loginLink(w http.ResponseWriter, r *http.Request) {
	if !d.sessions.useLink(r.URL.Query().Get("code")) {
		d.renderPublic(w, http.StatusUnauthorized, view{Title: "Sign in", Problem: "That sign-in link was already used or has expired; ask the server for a new one (restart `bourdon ui`), or sign in with a token.",
			Data: loginView{HasForm: false}})
		return
	}
	op := trust.Operator()
	op.Transport = trust.HTTP
	_ = d.cfg.Audit.Record(trust.Entry{Agent: op.ID, Op: "dashboard_sign_in", Decision: trust.Allow, Detail: "one-time link"})
	d.open(w, r, "", op, "/ui/agents")
}

func (d *Dashboard) open(w http.ResponseWriter, r *http.Request, credential string, caller trust.Caller, next string) {
	ss := d.sessions.open(credential, caller)
	d.setCookie(w, r, cookieName, ss.id, int(sessionAbsolute.Seconds()))
	d.setCookie(w, r, loginCookieName, "", -1)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (d *Dashboard) logout(w http.ResponseWriter, r *request) {
	d.sessions.close(r.session.id)
	d.setCookie(w, r.Request, cookieName, "", -1)
	http.Redirect(w, r.Request, "/ui/login", http.StatusSeeOther)
}

// renderPublic draws a page for someone not signed in.
func (d *Dashboard) renderPublic(w http.ResponseWriter, status int, v view) {
	d.render(w, nil, status, "login", v)
}

// safeNext keeps a post-sign-in redirect on the dashboard.
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.IsAbs() || u.Host != "" || !strings.HasPrefix(u.Path, "/ui/") || strings.HasPrefix(next, "//") {
		return "/ui/agents"
	}
	return u.RequestURI()
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
