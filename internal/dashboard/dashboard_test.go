package dashboard

import (
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

func TestSignInIsRequired(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	for _, path := range []string{"/ui/agents", "/ui/activity", "/ui/search?q=x", "/ui/entity?name=x", "/ui/governance", "/ui/federation"} {
		if status, _, loc := b.get(path); status != http.StatusSeeOther || !strings.HasPrefix(loc, "/ui/login") {
			t.Errorf("%s without a session: %d %q, want a redirect to the sign-in page", path, status, loc)
		}
	}
	if status, _, _ := b.get("/ui/events"); status != http.StatusUnauthorized {
		t.Errorf("events without a session: %d", status)
	}
	if status := b.signIn("bdn_wrong"); status != http.StatusUnauthorized {
		t.Errorf("a wrong token: %d, want 401", status)
	}
	es, _ := f.audit.Entries(trust.AuditFilter{DenialsOnly: true})
	if len(es) == 0 || es[len(es)-1].Op != "dashboard_sign_in" {
		t.Errorf("the refused sign-in is not in the audit log: %v", es)
	}
	// A sign-in posted without the form's value (another site) is refused.
	if status, _, _ := b.post("/ui/login", url.Values{"token": {f.tokens[alice]}}); status != http.StatusForbidden {
		t.Errorf("a forged sign-in: %d, want 403", status)
	}
	if status := b.signIn(f.tokens[alice]); status != http.StatusSeeOther {
		t.Fatalf("alice's token: %d", status)
	}
	if status, page, _ := b.get("/ui/agents"); status != http.StatusOK || !strings.Contains(page, "claude-code") {
		t.Fatalf("agents after sign-in: %d", status)
	}
	// A one-time link opens one session only.
	link := f.dash.SignInLink()
	b2 := f.browser(t)
	if status, _, _ := b2.get(link); status != http.StatusSeeOther {
		t.Fatalf("link: %d", status)
	}
	if status, _, _ := f.browser(t).get(link); status != http.StatusUnauthorized {
		t.Errorf("a used link opened a second session: %d", status)
	}
}

func TestHeadersAndCookies(t *testing.T) {
	f := newFixture(t)
	res, err := http.Get(f.http.URL + "/ui/login")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP allows inline code: %q", csp)
	}
	for _, c := range res.Cookies() {
		if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/ui" {
			t.Errorf("cookie %s: HttpOnly %v SameSite %v Path %q", c.Name, c.HttpOnly, c.SameSite, c.Path)
		}
	}
	// Templates hold no inline script or style.
	for name, tpl := range f.dash.pages {
		for _, tt := range tpl.Templates() {
			if tt.Tree == nil {
				continue
			}
			src := tt.Tree.Root.String()
			if strings.Contains(src, "<script>") || strings.Contains(src, " style=") || strings.Contains(src, " onclick=") {
				t.Errorf("template %s/%s has inline script or style", name, tt.Name())
			}
		}
	}
}

func TestEveryPageRendersForTheOperator(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	b.signInOperator()
	for path, want := range map[string]string{
		"/ui/agents":                          "cursor",
		"/ui/activity?visibility=team":        "drafted the outbox schema",
		"/ui/search?q=refund":                 "Retry with an idempotency key",
		"/ui/entity?name=Payments+API":        "Neighbourhood",
		"/ui/node?uid=demo.docs.payments-api": "<svg",
		"/ui/governance":                      strings.ToLower(stagedEntity),
		"/ui/federation":                      scout,
		"/ui/governance?history=codex":        "current",
	} {
		status, page, _ := b.get(path)
		if status != http.StatusOK || !strings.Contains(page, want) {
			t.Errorf("%s: status %d, want 200 with %q", path, status, want)
		}
	}
}

func TestLinksLeadToTheirPages(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	b.signInOperator()
	_, page, _ := b.get("/ui/search?q=Payments+API")
	links := linkRE.FindAllStringSubmatch(page, -1)
	if len(links) < 3 {
		t.Fatalf("%d links to entities and nodes", len(links))
	}
	for _, m := range links {
		path := html.UnescapeString(m[1])
		status, page, _ := b.get(path)
		if status != http.StatusOK || strings.Contains(page, "(not found)") {
			t.Errorf("%s: %d, or not found", path, status)
		}
	}
}

var linkRE = regexp.MustCompile(`href="(/ui/(?:entity|node)\?[^"]+)"`)

func TestQuarantinedMemberCannotGovern(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	if status := b.signIn(f.tokens[scout]); status != http.StatusSeeOther {
		t.Fatalf("scout's sign-in: %d", status)
	}
	status, page, _ := b.get("/ui/agents")
	if status != http.StatusOK || strings.Contains(page, "/ui/governance") {
		t.Errorf("scout's agents page: %d (governance linked: %v)", status, strings.Contains(page, "/ui/governance"))
	}
	// The pages show what the tools show scout: its grant, public only.
	if _, page, _ = b.get("/ui/activity?visibility=private"); strings.Contains(page, "claude-code</strong>") {
		t.Errorf("scout sees an ungranted agent's sessions")
	}
	for _, path := range []string{"/ui/governance", "/ui/federation", "/ui/governance/rollback?agent=codex&version=x"} {
		if status, _, _ := b.get(path); status != http.StatusForbidden {
			t.Errorf("scout opened %s: %d", path, status)
		}
	}
	_, page, _ = b.get("/ui/agents")
	if status, _, _ := b.post("/ui/governance/staging", url.Values{"csrf": {b.csrf(page)}, "agent": {scout}, "action": {"promote"}}); status != http.StatusForbidden {
		t.Errorf("scout promoted its own write: %d", status)
	}
	es, _ := f.audit.Entries(trust.AuditFilter{Agent: scout, DenialsOnly: true})
	if len(es) < 3 {
		t.Errorf("scout's refusals are not audited: %v", es)
	}
}

func TestPromoteMakesTheWriteVisible(t *testing.T) {
	f := newFixture(t)
	cs := mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[alice], "")
	if p, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": stagedEntity}); len(list(mapOf(p)["matches"])) != 0 {
		t.Fatalf("the staged entity is visible before promotion")
	}
	b := f.browser(t)
	b.signIn(f.tokens[bob])
	_, page, _ := b.get("/ui/governance")
	// Without the CSRF token the action is refused.
	if status, _, _ := b.post("/ui/governance/staging", url.Values{"agent": {scout}, "action": {"promote"}}); status != http.StatusForbidden {
		t.Errorf("promote without CSRF: %d", status)
	}
	status, _, loc := b.post("/ui/governance/staging", url.Values{"csrf": {b.csrf(page)}, "agent": {scout}, "action": {"promote"}})
	if status != http.StatusSeeOther || !strings.Contains(loc, "promoted+1") {
		t.Fatalf("promote: %d %q", status, loc)
	}
	if p, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": stagedEntity}); len(list(mapOf(p)["matches"])) != 1 {
		t.Errorf("the promoted entity is not visible to find_entity: %v", p)
	}
	es, _ := f.audit.Entries(trust.AuditFilter{Agent: bob})
	found := false
	for _, e := range es {
		found = found || e.Op == opStagingPromote && e.Namespace == scout
	}
	if !found {
		t.Errorf("the promotion is not audited: %v", es)
	}
}

func TestRejectProposalRecordsWho(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	b.signIn(f.tokens[bob])
	_, page, _ := b.get("/ui/governance")
	status, _, loc := b.post("/ui/governance/proposal", url.Values{"csrf": {b.csrf(page)}, "proposal": {f.proposal}, "action": {"reject"}, "reason": {"duplicate of REQ-1"}})
	if status != http.StatusSeeOther || !strings.Contains(loc, "rejected") {
		t.Fatalf("reject: %d %q", status, loc)
	}
	p, err := f.reqs.Proposal(f.proposal)
	if err != nil {
		t.Fatal(err)
	}
	if p.DecidedBy != bob || p.Reason != "duplicate of REQ-1" && p.Status != "rejected" {
		t.Errorf("the rejection records %q (%s), want bob", p.DecidedBy, p.Status)
	}
}

func TestRevokedTokenEndsTheSession(t *testing.T) {
	f := newFixture(t)
	b := f.browser(t)
	b.signIn(f.tokens[alice])
	if err := f.auth.Registry.Revoke(alice); err != nil {
		t.Fatal(err)
	}
	if status, _, loc := b.get("/ui/agents"); status != http.StatusSeeOther || !strings.Contains(loc, "ended") {
		t.Errorf("a revoked member's session goes on: %d %q", status, loc)
	}
}

func TestRollbackNeedsTheDigestItShowed(t *testing.T) {
	f := newFixture(t)
	cs := mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[alice], "")
	for _, s := range []string{"first", "second"} {
		mcptest.CallJSON(t, cs, "commit_to_federation", map[string]any{"agent_id": "codex", "entities": []any{map[string]any{"name": "Flaky CI", "summary": s}}})
	}
	p, _ := mcptest.CallJSON(t, cs, "list_memory_versions", map[string]any{"agent_id": "codex"})
	versions := list(mapOf(p)["versions"])
	oldest := str(versions[len(versions)-1]["version_id"])
	b := f.browser(t)
	b.signInOperator()
	status, page, _ := b.get("/ui/governance/rollback?agent=codex&version=" + url.QueryEscape(oldest))
	if status != http.StatusOK || !strings.Contains(page, "What this discards") || !strings.Contains(page, "known_entities_updated") {
		t.Fatalf("confirmation: %d\n%s", status, page)
	}
	form := url.Values{"csrf": {b.csrf(page)}, "agent": {"codex"}, "version": {oldest}, "expected_digest": {"0000"}}
	if _, _, loc := b.post("/ui/governance/rollback", form); !strings.Contains(loc, "refused") {
		t.Errorf("a rollback with a stale digest was not refused: %q", loc)
	}
	form.Set("expected_digest", str(mapOf(p)["current_digest"]))
	if _, _, loc := b.post("/ui/governance/rollback", form); !strings.Contains(loc, "rolled+codex+back") {
		t.Errorf("rollback: %q", loc)
	}
}

func TestLiveStreamsAreBoundedPerCaller(t *testing.T) {
	h := newHub()
	for i := range maxStreamsPerCaller {
		if _, ok := h.join(alice); !ok {
			t.Fatalf("stream %d refused", i)
		}
	}
	if _, ok := h.join(alice); ok {
		t.Errorf("a stream over the per-caller bound was accepted")
	}
	done, ok := h.join(bob)
	if !ok {
		t.Fatalf("another caller's stream was refused")
	}
	h.leave(done)
	h.close()
	if _, ok := h.join(bob); ok {
		t.Errorf("a stream joined a closed hub")
	}
}

func TestActivityPagesWithTheToolsCursors(t *testing.T) {
	f := newFixture(t)
	cs := mcptest.ConnectAs(t, f.srv.Server, f.auth, f.tokens[alice], "")
	var sessions []any
	for i := range 30 {
		sessions = append(sessions, map[string]any{"date": time.Now().Format("2006-01-02"), "cwd": fmt.Sprintf("/w/%02d", i), "key_actions": []any{fmt.Sprintf("step %02d", i)}, "visibility": "public"})
	}
	mcptest.CallJSON(t, cs, "commit_to_federation", map[string]any{"agent_id": "codex", "sessions": sessions})
	b := f.browser(t)
	b.signInOperator()
	seen := map[string]int{}
	path := "/ui/activity?agent=codex"
	for pages := 0; path != "" && pages < 10; pages++ {
		_, page, _ := b.get(path)
		for _, m := range stepRE.FindAllString(page, -1) {
			seen[m]++
		}
		path = ""
		if m := olderRE.FindStringSubmatch(page); m != nil {
			path = html.UnescapeString(m[1])
		}
	}
	if len(seen) != 30 {
		t.Errorf("%d distinct sessions over the pages, want 30", len(seen))
	}
	for s, n := range seen {
		if n != 1 {
			t.Errorf("%s shown %d times", s, n)
		}
	}
}

var (
	stepRE  = regexp.MustCompile(`step \d\d`)
	olderRE = regexp.MustCompile(`href="(/ui/activity\?[^"]+)">Older`)
)
