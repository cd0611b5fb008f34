package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/platform/endpoint"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// opsFlags are serve's operational settings over HTTP: how clients reach
// it (public URL, TLS, proxies), per-caller limits, metrics and logs.
type opsFlags struct {
	publicURL      string
	tlsCert        string
	tlsKey         string
	trustedProxies []string
	rateLimit      string
	rateBurst      int
	metricsListen  string
	logFormat      string
}

// Defaults of the per-caller rate limit.
const (
	defaultRateLimit = "300/m"
	defaultRateBurst = 60
)

func (f *opsFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.publicURL, "public-url", "", "the server's address as clients reach it (behind a TLS proxy), such as https://mcp.example.com; the MCP endpoint is its /mcp (default http://HOST:PORT); its host is accepted in Host headers")
	fl.StringVar(&f.tlsCert, "tls-cert", "", "serve HTTPS with this certificate (PEM; with --tls-key)")
	fl.StringVar(&f.tlsKey, "tls-key", "", "private key of --tls-cert (PEM)")
	fl.StringSliceVar(&f.trustedProxies, "trusted-proxy", nil, "address or CIDR prefix of a reverse proxy whose X-Forwarded-For/-Proto/-Host headers are believed; repeatable")
	fl.StringVar(&f.rateLimit, "rate-limit", defaultRateLimit, "each HTTP caller's rate of tool calls and resource reads: N/s, N/m or N/h, or off; a registry member's rate_limit overrides it (per server process)")
	fl.IntVar(&f.rateBurst, "rate-burst", defaultRateBurst, "calls an HTTP caller may make at once before --rate-limit applies; a member's rate_burst overrides it")
	fl.StringVar(&f.metricsListen, "metrics-listen", "", "also serve /metrics without authentication on this loopback address (host:port); /metrics on the main address needs the operator token")
	fl.StringVar(&f.logFormat, "log-format", "text", "log format on stderr: text or json")
}

// opsConfig is the resolved form of opsFlags.
type opsConfig struct {
	// publicURL is the MCP endpoint as clients see it; nil when not given.
	publicURL *url.URL
	// certs are the certificate files to serve HTTPS with (reloaded when
	// they change); nil for plain HTTP.
	certs   *mcphttp.CertFiles
	proxies mcphttp.TrustedProxies
	rate    trust.RateLimit
}

// resolve checks the operational flags and loads the TLS certificate.
func (f opsFlags) resolve() (opsConfig, error) {
	var c opsConfig
	var err error
	if f.logFormat != "text" && f.logFormat != "json" {
		return c, fmt.Errorf("--log-format must be text or json, not %q", f.logFormat)
	}
	if f.publicURL != "" {
		if c.publicURL, err = parsePublicURL(f.publicURL); err != nil {
			return c, err
		}
	}
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return c, errors.New("--tls-cert and --tls-key go together: give both, or neither behind a TLS proxy")
	}
	if f.tlsCert != "" {
		if c.certs, err = mcphttp.LoadCertFiles(f.tlsCert, f.tlsKey); err != nil {
			return c, err
		}
	}
	if c.proxies, err = mcphttp.ParseTrustedProxies(f.trustedProxies); err != nil {
		return c, fmt.Errorf("--trusted-proxy: %w", err)
	}
	if c.rate.PerSecond, err = trust.ParseRate(f.rateLimit); err != nil {
		return c, fmt.Errorf("--rate-limit: %w", err)
	}
	if err := trust.CheckBurst(f.rateBurst); err != nil {
		return c, fmt.Errorf("--rate-burst: %w", err)
	}
	c.rate.Burst = f.rateBurst
	if f.metricsListen != "" {
		host, _, err := net.SplitHostPort(f.metricsListen)
		if err != nil || !endpoint.IsLoopbackHost(host) {
			return c, fmt.Errorf("--metrics-listen %q: use a loopback host:port such as 127.0.0.1:9464 (it has no authentication); elsewhere scrape /metrics on the main address with the operator token", f.metricsListen)
		}
	}
	return c, nil
}

// parsePublicURL checks --public-url, the server's address as clients
// use it: https (http on a loopback host only), a host, no credentials,
// query or fragment, and no path but an optional /mcp (the server answers
// at the root of its host). It returns the MCP endpoint, the URL's /mcp.
func parsePublicURL(raw string) (*url.URL, error) {
	u, err := endpoint.CheckURL(raw, "--public-url")
	if err != nil {
		return nil, err
	}
	if p := strings.TrimSuffix(strings.TrimRight(u.Path, "/"), "/mcp"); p != "" {
		return nil, fmt.Errorf("--public-url %q: the server answers at the root of its host (/mcp); a path prefix %q is not supported", raw, p)
	}
	u.Path = "/mcp"
	return u, nil
}

// origin is scheme://host[:port] of u.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }
