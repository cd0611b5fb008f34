package dashboard

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// TestMembersPagesAreRateLimited: a member signed in with a token draws on
// the same per-caller bucket as its MCP calls, page loads and actions
// alike, and is refused with 429 and Retry-After once it is empty; the
// operator is never limited.
func TestMembersPagesAreRateLimited(t *testing.T) {
	// A rate so low that no token comes back during the test.
	limiter := mcphttp.NewLimiter(trust.RateLimit{PerSecond: 0.0001, Burst: 3})
	var refused atomic.Int32
	f := newFixture(t, func(c *Config) {
		c.Limiter = limiter
		c.OnRateLimited = func(method string) {
			if method == "dashboard" {
				refused.Add(1)
			}
		}
	})
	b := f.browser(t)
	if status := b.signIn(f.tokens[bob]); status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d (signing in is not counted)", status)
	}
	_, page, _ := b.get("/ui/agents")
	// The member's MCP calls share the bucket: one taken here.
	if ok, _ := limiter.Allow(trust.Caller{ID: bob, Tier: trust.TierTrusted}, time.Now()); !ok {
		t.Fatal("the bucket was empty too early")
	}
	// An action counts too: the third request empties the bucket.
	if status, _, _ := b.post("/ui/logout", url.Values{"csrf": {"stale"}}); status != http.StatusForbidden {
		t.Fatalf("a stale form: %d (it should reach the CSRF check)", status)
	}
	res, err := b.c.Get(f.http.URL + "/ui/activity")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("over the limit: %d, want 429", res.StatusCode)
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("Retry-After %q", res.Header.Get("Retry-After"))
	}
	if status, body, _ := b.post("/ui/governance/staging", url.Values{"csrf": {b.csrf(page)}, "agent": {scout}, "action": {"reject"}}); status != http.StatusTooManyRequests || !strings.Contains(body, "over its rate limit") {
		t.Errorf("an action over the limit: %d", status)
	}
	if n := refused.Load(); n != 2 {
		t.Errorf("OnRateLimited told of %d refusals, want 2", n)
	}
	if staged, _ := f.dash.cfg.Writer.ListStaged(); len(staged) == 0 {
		t.Error("the refused action ran")
	}

	// The operator (the one-time link) is never limited.
	op := f.browser(t)
	op.signInOperator()
	for range 6 {
		if status, _, _ := op.get("/ui/agents"); status != http.StatusOK {
			t.Fatalf("operator page: %d", status)
		}
	}
}
