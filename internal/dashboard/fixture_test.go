package dashboard

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// fixture is a demo server (the demo library and docs corpus, as serve
// --demo writes them) with registry members, a staged write of the
// quarantined member and a pending proposal, and the dashboard over it.
type fixture struct {
	dir      string
	srv      *mcpserver.Server
	auth     *mcphttp.Auth
	audit    *trust.Audit
	reqs     *requests.Store
	dash     *Dashboard
	http     *httptest.Server
	tokens   map[string]string // member id -> token
	proposal string            // the pending proposal's id
}

// The demo's members: two trusted, one quarantined granted codex.
const (
	alice = "alice" // trusted; proposed the pending request
	bob   = "bob"   // trusted
	scout = "scout" // quarantined; staged a write
)

// stagedEntity is the entity scout's staged write adds.
const stagedEntity = "Refund ledger audit"

// newFixture builds the fixture; each option adjusts the dashboard's
// configuration.
func newFixture(t testing.TB, options ...func(*Config)) *fixture {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := demo.WriteDocs(filepath.Join(dir, "docs")); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	reqs, err := requests.Open(filepath.Join(dir, "requests"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	kb, err := knowledge.Open(ctx, knowledge.Options{Dirs: []string{filepath.Join(dir, "docs")}, Store: store, Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{dir: dir, reqs: reqs, tokens: map[string]string{}}
	reg := trust.OpenRegistry(filepath.Join(dir, "federation.yaml"))
	for _, m := range []struct {
		id     string
		tier   trust.Tier
		grants []string
	}{{alice, trust.TierTrusted, nil}, {bob, trust.TierTrusted, nil}, {scout, trust.TierQuarantined, []string{"codex"}}} {
		tok, err := reg.Add(m.id, m.tier, m.grants)
		if err != nil {
			t.Fatal(err)
		}
		f.tokens[m.id] = tok
	}
	f.auth = &mcphttp.Auth{Registry: reg}
	f.audit = trust.OpenAudit(filepath.Join(dir, "audit.jsonl"))
	writer := commit.New(dir)
	f.srv = mcpserver.New(store, mcpserver.Options{Version: "test", Audit: f.audit, Writer: writer, Knowledge: kb, Requests: reqs})
	// The watchers are waited for at the end: a watcher in the middle of
	// a tick may still write the drift watermarks into dir.
	var watching sync.WaitGroup
	watching.Go(func() { f.srv.Watch(ctx) })
	watching.Go(func() { f.srv.WatchKnowledge(ctx) })
	t.Cleanup(func() { cancel(); watching.Wait() })

	// scout's write is staged; alice proposes a request.
	cs := mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[scout], "")
	if p, _ := mcptest.CallJSON(t, cs, "commit_to_federation", map[string]any{"agent_id": scout, "agent_type": "code-assistant", "entities": []any{
		map[string]any{"name": stagedEntity, "type": "project", "summary": "Nightly check that every refund is posted once.", "visibility": "public"},
	}}); mapOf(p)["staged"] != true {
		t.Fatalf("scout's commit was not staged: %v", p)
	}
	cs = mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[alice], "")
	p, _ := mcptest.CallJSON(t, cs, "request_intake", map[string]any{
		"problem": "Refunds are posted twice when the provider times out.", "desiredOutcome": "Every refund is posted exactly once.",
		"type": "fix", "area": "payments", "identity": "github:alice", "owner": "demo/payments",
	})
	f.proposal = str(mapOf(p)["id"])
	if f.proposal == "" {
		t.Fatalf("request_intake made no proposal: %v", p)
	}

	cfg := Config{MCP: f.srv.Server, Version: "test", Logger: slog.New(slog.NewTextHandler(testWriter{t}, nil)), SignIn: f.auth.Caller, Audit: f.audit, Writer: writer,
		Requests: reqs, Registry: reg}
	for _, o := range options {
		o(&cfg)
	}
	f.dash, err = New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.dash.Close)
	mux := http.NewServeMux()
	mux.Handle(Prefix, f.dash)
	f.http = httptest.NewServer(mux)
	t.Cleanup(f.http.Close)
	return f
}

// browser is a cookie-keeping HTTP client that does not follow redirects.
type browser struct {
	t *testing.T
	f *fixture
	c *http.Client
}

func (f *fixture) browser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, f: f, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// get returns the status, body and Location of a GET.
func (b *browser) get(path string) (int, string, string) {
	b.t.Helper()
	res, err := b.c.Get(b.f.http.URL + path)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header.Get("Location")
}

// post posts a form from this origin.
func (b *browser) post(path string, form url.Values) (int, string, string) {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.f.http.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.f.http.URL)
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body), res.Header.Get("Location")
}

var (
	formField = regexp.MustCompile(`name="form" value="([^"]+)"`)
	csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)
)

// signIn signs in with a token and returns the status of the answer.
func (b *browser) signIn(token string) int {
	b.t.Helper()
	_, page, _ := b.get("/ui/login")
	m := formField.FindStringSubmatch(page)
	if m == nil {
		b.t.Fatalf("no sign-in form:\n%s", page)
	}
	status, _, _ := b.post("/ui/login", url.Values{"form": {m[1]}, "token": {token}, "next": {"/ui/agents"}})
	return status
}

// signInOperator opens the one-time link.
func (b *browser) signInOperator() {
	b.t.Helper()
	if status, _, _ := b.get(b.f.dash.SignInLink()); status != http.StatusSeeOther {
		b.t.Fatalf("one-time link: status %d", status)
	}
}

// csrf returns the CSRF token of a page.
func (b *browser) csrf(page string) string {
	b.t.Helper()
	m := csrfField.FindStringSubmatch(page)
	if m == nil {
		b.t.Fatalf("no CSRF field in the page")
	}
	return m[1]
}

// testWriter sends the dashboard's log to the test's.
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
