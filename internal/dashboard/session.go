package dashboard

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// SignIn checks a credential a person presents at the sign-in form (a
// bdn_ token) and returns the caller it names. The HTTP transport's bearer
// check is one (mcphttp.Auth.Caller); another sign-in, such as OAuth, can
// be added as another SignIn, and the session will hold its credential
// the same way.
type SignIn func(credential string) (trust.Caller, bool)

// Session bounds.
const (
	sessionIdle     = 2 * time.Hour
	sessionAbsolute = 12 * time.Hour
	linkLifetime    = 10 * time.Minute
	maxSessions     = 1024
	maxLinks        = 16
	cookieName      = "bourdon_ui"
	loginCookieName = "bourdon_ui_login"
)

// session is one signed-in browser.
type session struct {
	id   string
	csrf string
	// credential is what was presented at sign-in; every request checks
	// it again, so a revoked token or a changed tier takes effect on the
	// next page. Empty for a session opened by a one-time link, whose
	// caller is fixed.
	credential string
	caller     trust.Caller
	created    time.Time
	seen       time.Time
}

// sessions holds the signed-in browsers and the unused one-time links,
// in memory only: a restart signs everyone out.
type sessions struct {
	mu    sync.Mutex
	byID  map[string]*session
	links map[string]time.Time // code -> expiry
	now   func() time.Time
}

func newSessions() *sessions {
	return &sessions{byID: map[string]*session{}, links: map[string]time.Time{}, now: time.Now}
}

// open starts a session, evicting the oldest when the table is full.
func (s *sessions) open(credential string, caller trust.Caller) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.expireLocked(now)
	if len(s.byID) >= maxSessions {
		var oldest *session
		for _, x := range s.byID {
			if oldest == nil || x.seen.Before(oldest.seen) {
				oldest = x
			}
		}
		delete(s.byID, oldest.id)
	}
	ss := &session{id: randomToken(), csrf: randomToken(), credential: credential, caller: caller, created: now, seen: now}
	s.byID[ss.id] = ss
	return ss
}

// get returns the live session of id and marks it seen.
func (s *sessions) get(id string) (*session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss, ok := s.byID[id]
	now := s.now()
	if !ok || now.Sub(ss.seen) > sessionIdle || now.Sub(ss.created) > sessionAbsolute {
		delete(s.byID, id)
		return nil, false
	}
	ss.seen = now
	return ss, true
}

func (s *sessions) close(id string) {
	s.mu.Lock()
	delete(s.byID, id)
	s.mu.Unlock()
}

func (s *sessions) expireLocked(now time.Time) {
	for id, x := range s.byID {
		if now.Sub(x.seen) > sessionIdle || now.Sub(x.created) > sessionAbsolute {
			delete(s.byID, id)
		}
	}
	for code, exp := range s.links {
		if now.After(exp) {
			delete(s.links, code)
		}
	}
}

// newLink returns a one-time sign-in code, valid for linkLifetime.
func (s *sessions) newLink() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	s.expireLocked(now)
	for len(s.links) >= maxLinks {
		for code := range s.links {
			delete(s.links, code)
			break
		}
	}
	code := randomToken()
	s.links[code] = now.Add(linkLifetime)
	return code
}

// useLink consumes a one-time code.
func (s *sessions) useLink(code string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.links[code]
	delete(s.links, code)
	return ok && !s.now().After(exp)
}

// sameToken compares two secrets in constant time.
func sameToken(a, b string) bool {
	return a != "" && subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// setCookie writes a cookie scoped to the dashboard: HttpOnly,
// SameSite=Strict, and Secure when the request came over TLS, directly or
// through a trusted proxy (mcphttp.Scheme), or the server says it sits
// behind a TLS proxy.
func (d *Dashboard) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     "/ui",
		MaxAge:   maxAge,
		HttpOnly: true,
		Secure:   mcphttp.Scheme(r) == "https" || d.cfg.SecureCookies,
		SameSite: http.SameSiteStrictMode,
	})
}

// sameOrigin reports whether a state-changing request comes from a page
// of this server: a browser sends Origin (and Sec-Fetch-Site) with every
// POST, and neither may name another site.
func sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	return err == nil && u.Host == r.Host
}
