// Package dashboard is the web dashboard served at /ui: what the
// federation remembers (agents, activity, search, entities and docs
// nodes) and its governance (staged writes, request proposals, history
// and rollback), for the operator and the members it trusts.
//
// The dashboard has no data path of its own: every page reads by calling
// the server's MCP tools in process as the signed-in caller (see bridge),
// so the access decision, the visibility filter, redaction and the audit
// record are the tools' own. Governance actions without a tool (staging,
// proposals) call the same core functions as their command line twins,
// after the same trust decision, and are audited. Pages are html/template
// over embedded assets, with one small script and a strict
// Content-Security-Policy; live updates arrive as server-sent events fed
// by the MCP server's resource change notifications.
package dashboard

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/install/doctor"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

//go:embed assets
var assets embed.FS

// Config is what the dashboard is built from. Only MCP is required; a
// missing part hides what depends on it.
type Config struct {
	// MCP is the server whose tools the pages call.
	MCP *mcp.Server
	// Version is shown in the footer and sent as the client version.
	Version string
	// SignIn checks a token presented at the sign-in form; nil offers
	// only one-time links (SignInLink).
	SignIn SignIn
	// Audit records the governance decisions and refused sign-ins.
	Audit *trust.Audit
	// Writer promotes and rejects staged writes.
	Writer *commit.Writer
	// Requests is the request store whose proposals are decided here.
	Requests *requests.Store
	// Registry lists the federation's members.
	Registry *trust.Registry
	// Peers are the peer servers shown on the federation page, with the
	// outcome of their last call.
	Peers *peer.Set
	// Doctor runs the doctor checks.
	Doctor func(context.Context) *doctor.Report
	// SecureCookies marks cookies Secure even on plain HTTP requests (a
	// TLS-terminating proxy in front).
	SecureCookies bool
	// Limiter is the per-caller rate limit of /mcp, applied to the pages
	// and actions of members signed in with a token (never to the
	// operator); OnRateLimited is told of each refusal. Nil: no limit.
	Limiter       *mcphttp.Limiter
	OnRateLimited func(method string)
	Logger        *slog.Logger
}

// Dashboard is the http.Handler of /ui.
type Dashboard struct {
	cfg      Config
	bridge   *bridge
	sessions *sessions
	pages    map[string]*template.Template
	static   http.Handler
	events   *hub
	cache    *cache
	mux      *http.ServeMux
	stop     context.CancelFunc
	watching chan struct{} // closed when watch returns
}

// Prefix is where the dashboard is mounted.
const Prefix = "/ui/"

// New builds the dashboard. Close releases it.
func New(cfg Config) (*Dashboard, error) {
	if cfg.MCP == nil {
		return nil, errors.New("dashboard: no MCP server")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	d := &Dashboard{cfg: cfg, bridge: newBridge(cfg.MCP, cfg.Version), sessions: newSessions(), cache: newCache()}
	var err error
	if d.pages, err = parsePages(); err != nil {
		d.bridge.close()
		return nil, err
	}
	d.events = newHub()
	static, _ := fs.Sub(assets, "assets/static")
	d.static = http.StripPrefix("/ui/static/", http.FileServerFS(static))
	d.routes()
	var ctx context.Context
	ctx, d.stop = context.WithCancel(context.Background())
	d.watching = make(chan struct{})
	go func() {
		defer close(d.watching)
		d.watch(ctx)
	}()
	return d, nil
}

// Close stops the in-process MCP clients and event streams.
func (d *Dashboard) Close() {
	d.stop()
	d.events.close()
	<-d.watching
	d.bridge.close()
}

// InProcess reports whether ss is one of the dashboard's in-process MCP
// sessions (those its pages and event streams open), so that counts of
// the clients' sessions can leave them out.
func (d *Dashboard) InProcess(ss *mcp.ServerSession) bool { return d.bridge.inProcess(ss) }

// SignInLink returns the path of a one-time link (valid ten minutes, one
// use) that opens an operator session: what `bourdon ui` and a loopback
// server print for the person at the terminal.
func (d *Dashboard) SignInLink() string {
	return "/ui/login/link?code=" + d.sessions.newLink()
}

func (d *Dashboard) routes() {
	m := http.NewServeMux()
	m.Handle("GET /ui/static/", d.static)
	m.HandleFunc("GET /ui/login", d.loginForm)
	m.HandleFunc("POST /ui/login", d.login)
	m.HandleFunc("GET /ui/login/link", d.loginLink)
	m.HandleFunc("POST /ui/logout", d.withCaller(d.logout))
	m.HandleFunc("GET /ui/{$}", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ui/agents", http.StatusSeeOther) })
	m.HandleFunc("GET /ui/agents", d.withCaller(d.withMCP("agents", "Agents", d.agentsPage)))
	m.HandleFunc("GET /ui/activity", d.withCaller(d.withMCP("activity", "Activity", d.activityPage)))
	m.HandleFunc("GET /ui/search", d.withCaller(d.withMCP("search", "Search", d.searchPage)))
	m.HandleFunc("GET /ui/entity", d.withCaller(d.withMCP("entity", "Entity", d.entityPage)))
	m.HandleFunc("GET /ui/node", d.withCaller(d.withMCP("node", "Node", d.nodePage)))
	m.HandleFunc("GET /ui/governance", d.withCaller(d.withMCP("governance", "Governance", d.governancePage)))
	m.HandleFunc("GET /ui/governance/rollback", d.withCaller(d.withMCP("rollback", "Rollback", d.rollbackConfirm)))
	m.HandleFunc("POST /ui/governance/staging", d.withCaller(d.stagingAction))
	m.HandleFunc("POST /ui/governance/proposal", d.withCaller(d.proposalAction))
	m.HandleFunc("POST /ui/governance/rollback", d.withCaller(d.withMCP("rollback", "Rollback", d.rollback)))
	m.HandleFunc("GET /ui/federation", d.withCaller(d.federationPage))
	m.HandleFunc("POST /ui/federation/probe", d.withCaller(d.probePeers))
	m.HandleFunc("GET /ui/events", d.withCaller(d.eventStream))
	d.mux = m
}

// contentSecurityPolicy allows only the dashboard's own script, style
// sheet and images: no inline script or style, no other origin, no
// framing.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// ServeHTTP serves the dashboard with its security headers.
func (d *Dashboard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	// same-origin, not no-referrer: with no-referrer a browser posts forms
	// with "Origin: null", which the same-origin check must refuse.
	h.Set("Referrer-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	if !strings.HasPrefix(r.URL.Path, "/ui/static/") {
		h.Set("Cache-Control", "no-store")
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	d.mux.ServeHTTP(w, r)
}

// maxFormBytes bounds a posted form.
const maxFormBytes = 64 << 10

// request is one signed-in request: who is asking, and its session.
type request struct {
	*http.Request
	caller  trust.Caller
	session *session
}

// withCaller resolves the session cookie to a caller, checking a
// token-backed session's credential again, and sends anyone else to the
// sign-in page. A POST must also come from this origin and carry the
// session's CSRF token.
func (d *Dashboard) withCaller(h func(http.ResponseWriter, *request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ss, ok := d.session(r)
		if !ok {
			if r.Method == http.MethodGet && r.URL.Path != "/ui/events" {
				http.Redirect(w, r, "/ui/login?next="+urlQueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
				return
			}
			http.Error(w, "Unauthorized: sign in at /ui/login", http.StatusUnauthorized)
			return
		}
		caller := ss.caller
		if ss.credential != "" {
			c, ok := d.signIn(ss.credential)
			if !ok {
				d.sessions.close(ss.id)
				http.Redirect(w, r, "/ui/login?ended=1", http.StatusSeeOther)
				return
			}
			caller = c
			if d.limited(w, r, ss, caller) {
				return
			}
		}
		if r.Method == http.MethodPost {
			if !sameOrigin(r) || !sameToken(r.PostFormValue("csrf"), ss.csrf) {
				http.Error(w, "Forbidden: the form is stale or came from another site; reload the page and try again", http.StatusForbidden)
				return
			}
		}
		h(w, &request{Request: r, caller: caller, session: ss})
	}
}

// limited refuses, with 429 and Retry-After, a page request of a member
// over its rate: the same limiter and bucket as its MCP calls. The
// operator is never limited, as on /mcp without a token; the event stream
// is one long request (bounded per caller) and is not counted.
func (d *Dashboard) limited(w http.ResponseWriter, r *http.Request, ss *session, caller trust.Caller) bool {
	if d.cfg.Limiter == nil || caller.Tier == trust.TierOperator || r.URL.Path == "/ui/events" {
		return false
	}
	allowed, wait := d.cfg.Limiter.Allow(caller, time.Now())
	if allowed {
		return false
	}
	if d.cfg.OnRateLimited != nil {
		d.cfg.OnRateLimited(rateLimitedMethod)
	}
	seconds := mcphttp.RetryAfter(w, wait)
	d.render(w, &request{Request: r, caller: caller, session: ss}, http.StatusTooManyRequests, "limited", view{
		Title: "Too many requests", Problem: fmt.Sprintf("%s is over its rate limit; retry after %ds", caller.ID, seconds),
	})
	return true
}

// rateLimitedMethod is what OnRateLimited is told of a refused page.
const rateLimitedMethod = "dashboard"

func (d *Dashboard) session(r *http.Request) (*session, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil {
		return nil, false
	}
	return d.sessions.get(c.Value)
}

// signIn checks a credential; the caller always reached us over HTTP.
func (d *Dashboard) signIn(credential string) (trust.Caller, bool) {
	if d.cfg.SignIn == nil {
		return trust.Caller{}, false
	}
	c, ok := d.cfg.SignIn(credential)
	c.Transport = trust.HTTP
	return c, ok
}

// view is what every page template receives.
type view struct {
	Title   string
	Nav     string
	Caller  trust.Caller
	CSRF    string
	Live    bool
	Notice  string
	Problem string
	Version string
	Data    any
}

// render writes a page; status 0 means 200.
func (d *Dashboard) render(w http.ResponseWriter, r *request, status int, name string, v view) {
	t, ok := d.pages[name]
	if !ok {
		http.Error(w, "no such page", http.StatusInternalServerError)
		return
	}
	if r != nil {
		v.Caller, v.CSRF = r.caller, r.session.csrf
		if v.Notice == "" {
			v.Notice = r.URL.Query().Get("notice")
		}
	}
	v.Version = d.cfg.Version
	var b strings.Builder
	if err := t.ExecuteTemplate(&b, "layout", v); err != nil {
		d.cfg.Logger.Warn("dashboard page failed", "page", name, "err", err)
		http.Error(w, "the page could not be drawn", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status != 0 {
		w.WriteHeader(status)
	}
	_, _ = w.Write([]byte(b.String()))
}

// withMCP opens the request's in-process MCP session, as its caller, for
// h, or draws the page's error when it cannot.
func (d *Dashboard) withMCP(page, title string, h func(http.ResponseWriter, *request, *conn)) func(http.ResponseWriter, *request) {
	return func(w http.ResponseWriter, r *request) {
		ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
		c, err := d.bridge.connect(ctx, r.caller, false, nil)
		cancel()
		if err != nil {
			d.fail(w, r, page, title, err)
			return
		}
		defer c.Close()
		h(w, r, c)
	}
}

// fail draws a page's error state.
func (d *Dashboard) fail(w http.ResponseWriter, r *request, name, title string, err error) {
	d.render(w, r, http.StatusBadGateway, name, view{Title: title, Nav: name, Problem: err.Error()})
}

// forbidden draws the refusal of a page the caller may not open.
func (d *Dashboard) forbidden(w http.ResponseWriter, r *request, title, detail string) {
	d.render(w, r, http.StatusForbidden, "forbidden", view{Title: title, Problem: detail})
}

// authorize is the trust decision of a dashboard-only operation (one
// without an MCP tool: the governance pages and actions), recorded in the
// audit log like the tools' decisions.
func (d *Dashboard) authorize(caller trust.Caller, op, namespace string) trust.Decision {
	dec := trust.Decide(op, caller, namespace)
	if err := d.cfg.Audit.RecordDecision(dec); err != nil {
		d.cfg.Logger.Warn("audit record failed", "err", err)
	}
	return dec
}

// back redirects after an action, with a notice for the next page.
func back(w http.ResponseWriter, r *request, path, notice string) {
	http.Redirect(w, r.Request, path+"?notice="+urlQueryEscape(notice), http.StatusSeeOther)
}

func parsePages() (map[string]*template.Template, error) {
	base, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/templates/layout.html")
	if err != nil {
		return nil, err
	}
	names, err := fs.Glob(assets, "assets/templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, path := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(path, "assets/templates/"), ".html")
		if name == "layout" {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(assets, path)
		if err != nil {
			return nil, fmt.Errorf("dashboard template %s: %w", name, err)
		}
		pages[name] = t
	}
	return pages, nil
}
