package dashboard

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// TestCookiesAreSecureBehindATrustedTLSProxy: a request that a trusted
// proxy says came over https gets Secure cookies; the same header from
// anyone else is ignored.
func TestCookiesAreSecureBehindATrustedTLSProxy(t *testing.T) {
	f := newFixture(t)
	secure := func(trusted string, proto string) bool {
		proxies, err := mcphttp.ParseTrustedProxies([]string{trusted})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(proxies.Forwarded(f.dash))
		defer hs.Close()
		req, _ := http.NewRequest(http.MethodGet, hs.URL+"/ui/login", nil)
		if proto != "" {
			req.Header.Set("X-Forwarded-Proto", proto)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		cs := res.Cookies()
		if len(cs) == 0 {
			t.Fatal("the sign-in page set no cookie")
		}
		for _, c := range cs[1:] {
			if c.Secure != cs[0].Secure {
				t.Errorf("cookie %s: Secure %v, unlike %s", c.Name, c.Secure, cs[0].Name)
			}
		}
		return cs[0].Secure
	}
	if !secure("127.0.0.1", "https") {
		t.Error("https from a trusted proxy: the cookie is not Secure")
	}
	if secure("127.0.0.1", "") || secure("127.0.0.1", "http") {
		t.Error("plain http: the cookie is Secure")
	}
	if secure("10.0.0.0/8", "https") {
		t.Error("X-Forwarded-Proto from an untrusted peer was believed")
	}
}
