package mcphttp_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// seen is what a handler behind Forwarded sees of a request.
type seen struct {
	Remote, Host, Scheme, XFF string
}

func forwardedServer(t *testing.T, proxies ...string) *httptest.Server {
	t.Helper()
	p, err := mcphttp.ParseTrustedProxies(proxies)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(p.Forwarded(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(seen{r.RemoteAddr, r.Host, mcphttp.Scheme(r), r.Header.Get("X-Forwarded-For")})
	})))
	t.Cleanup(hs.Close)
	return hs
}

func through(t *testing.T, hs *httptest.Server, header map[string]string) seen {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, hs.URL, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s seen
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

var forwarded = map[string]string{
	"X-Forwarded-For":   "203.0.113.9, 10.1.2.3",
	"X-Forwarded-Proto": "https",
	"X-Forwarded-Host":  "mem.example.com",
}

func TestForwardedHeadersFromATrustedProxy(t *testing.T) {
	// The test client is 127.0.0.1, a trusted proxy here, and so is the
	// 10.1.2.3 hop: the client is the first address before them.
	hs := forwardedServer(t, "127.0.0.0/8", "10.0.0.0/8")
	got := through(t, hs, forwarded)
	if got.Remote != "203.0.113.9:0" || got.Host != "mem.example.com" || got.Scheme != "https" {
		t.Errorf("from a trusted proxy: %+v", got)
	}
	// A hop we cannot read ends the walk: nothing before it is believed.
	got = through(t, hs, map[string]string{"X-Forwarded-For": "203.0.113.9, junk, 10.1.2.3"})
	if got.Remote != "10.1.2.3:0" {
		t.Errorf("past an unreadable hop: %+v", got)
	}
	// A proto other than http or https is ignored.
	if got := through(t, hs, map[string]string{"X-Forwarded-Proto": "gopher"}); got.Scheme != "http" {
		t.Errorf("odd proto: %+v", got)
	}
}

func TestForwardedHeadersFromAnyoneElseAreDropped(t *testing.T) {
	for _, proxies := range [][]string{nil, {"10.0.0.0/8"}, {"192.0.2.7"}} {
		hs := forwardedServer(t, proxies...)
		got := through(t, hs, forwarded)
		if got.Host == "mem.example.com" || got.Scheme != "http" || got.XFF != "" || got.Remote[:10] != "127.0.0.1:" {
			t.Errorf("trusting %v, a direct client's headers were believed: %+v", proxies, got)
		}
	}
}

func TestParseTrustedProxies(t *testing.T) {
	if _, err := mcphttp.ParseTrustedProxies([]string{"10.0.0.0/8", "::1", "192.0.2.7"}); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", ""} {
		if _, err := mcphttp.ParseTrustedProxies([]string{bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
