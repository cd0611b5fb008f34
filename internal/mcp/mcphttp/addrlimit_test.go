package mcphttp_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// refusalServer serves the echo server behind the loopback address as a
// trusted proxy, with the legacy token as the only credential and at most
// 3 refused tokens per client address, none refilled within the test.
func refusalServer(t *testing.T) *httptest.Server {
	t.Helper()
	proxies, err := mcphttp.ParseTrustedProxies([]string{"127.0.0.1", "::1"})
	if err != nil {
		t.Fatal(err)
	}
	auth := &mcphttp.Auth{LegacyToken: legacyToken, Failures: mcphttp.NewAddrLimiter(trust.RateLimit{PerSecond: 1.0 / 3600, Burst: 3})}
	hs := httptest.NewServer(proxies.Forwarded(mcphttp.Handler(mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil), mcphttp.Options{Auth: auth})))
	t.Cleanup(hs.Close)
	return hs
}

func TestRefusedTokensAreLimitedPerClientAddress(t *testing.T) {
	hs := refusalServer(t)
	from := func(client, token string) *http.Response {
		h := map[string]string{"X-Forwarded-For": client}
		if token != "" {
			h["Authorization"] = "Bearer " + token
		}
		resp, _ := post(t, hs.URL, initialize, h)
		return resp
	}
	// Missing and wrong tokens share the address's budget of 3.
	for i, token := range []string{"", "wrong", "wrong"} {
		if resp := from("203.0.113.9", token); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("refusal %d: %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp := from("203.0.113.9", "wrong")
	if retry, err := strconv.Atoi(resp.Header.Get("Retry-After")); resp.StatusCode != http.StatusTooManyRequests || err != nil || retry < 1 {
		t.Fatalf("over the budget: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp := from("203.0.113.9", ""); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("no token over the budget: %d", resp.StatusCode)
	}
	// A valid token from the same address still passes.
	if resp := from("203.0.113.9", legacyToken); resp.StatusCode != http.StatusOK {
		t.Errorf("a valid token from a limited address: %d", resp.StatusCode)
	}
	// Another client behind the proxy has its own budget; so has every
	// address of another /64, while the same /64 shares one.
	if resp := from("198.51.100.4", "wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("another client: %d, want 401", resp.StatusCode)
	}
	for range 3 {
		from("2001:db8:1:2::1", "wrong")
	}
	if resp := from("2001:db8:1:2::ffff", "wrong"); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the same /64: %d, want 429", resp.StatusCode)
	}
	if resp := from("2001:db8:1:3::1", "wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("another /64: %d, want 401", resp.StatusCode)
	}
}

func TestGuardRefusesAnAddressOverItsRate(t *testing.T) {
	l := mcphttp.NewAddrLimiter(trust.RateLimit{PerSecond: 1.0 / 3600, Burst: 2})
	h := l.Guard(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	serve := func(method, remote string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, "/register", nil)
		r.RemoteAddr = remote
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for range 2 {
		if w := serve(http.MethodPost, "192.0.2.1:4000"); w.Code != http.StatusNoContent {
			t.Fatalf("within the burst: %d", w.Code)
		}
	}
	w := serve(http.MethodPost, "192.0.2.1:4001")
	if retry, err := strconv.Atoi(w.Header().Get("Retry-After")); w.Code != http.StatusTooManyRequests || err != nil || retry < 3000 {
		t.Fatalf("over the rate: %d, Retry-After %q, %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if w := serve(http.MethodOptions, "192.0.2.1:4001"); w.Code != http.StatusNoContent {
		t.Errorf("a preflight: %d", w.Code)
	}
	if w := serve(http.MethodPost, "192.0.2.2:4000"); w.Code != http.StatusNoContent {
		t.Errorf("another address: %d", w.Code)
	}
	// A nil limiter allows everything.
	var none *mcphttp.AddrLimiter
	if ok, _ := none.Allow(httptest.NewRequest(http.MethodGet, "/", nil), time.Now()); !ok {
		t.Error("a nil limiter refused")
	}
}
