// Package endpoint holds the rules for the servers bourdon calls out to
// (peer servers, an L2 backend): which URLs are acceptable, how a bearer
// token is attached, how a response body is bounded, and how a failed
// exchange is described without leaking addresses to callers.
package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"syscall"
)

// IsLoopbackHost reports whether host names only this machine.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// CheckURL parses an outbound endpoint and applies the policy: http or
// https with a host; https unless the host is loopback (prompts and
// memory must not cross a network unencrypted); no credentials, query or
// fragment in the URL (tokens travel in a header named by an environment
// variable). what names the setting in error messages.
func CheckURL(raw, what string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("%s %q: want an http(s) URL such as https://host:7500/mcp", what, raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("%s %q: credentials in the URL are refused; put the token in an environment variable", what, redactUser(u))
	}
	if u.RawQuery != "" || u.ForceQuery {
		return nil, fmt.Errorf("%s %q: remove the ?query; the URL must name the endpoint only", what, raw)
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return nil, fmt.Errorf("%s %q: remove the #fragment", what, raw)
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("%s %q: traffic would travel unencrypted; use https, or http on a loopback host", what, raw)
	}
	return u, nil
}

func redactUser(u *url.URL) string {
	c := *u
	c.User = url.User("REDACTED")
	return c.String()
}

// Bearer is an http.RoundTripper that adds "Authorization: Bearer
// <Token>" to every request (none when Token is empty) and bounds every
// response body to MaxBody bytes (0: no bound), so a hostile server cannot
// exhaust memory.
type Bearer struct {
	Token   string
	MaxBody int64
	Next    http.RoundTripper // nil: http.DefaultTransport
}

// RoundTrip implements http.RoundTripper.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.Token != "" {
		r = r.Clone(r.Context())
		r.Header.Set("Authorization", "Bearer "+b.Token)
	}
	next := b.Next
	if next == nil {
		next = http.DefaultTransport
	}
	resp, err := next.RoundTrip(r)
	if err == nil && b.MaxBody > 0 {
		resp.Body = &boundedBody{ReadCloser: resp.Body, left: b.MaxBody}
	}
	return resp, err
}

// ErrBodyTooLarge is returned while reading a response over the bound.
var ErrBodyTooLarge = errors.New("response body too large")

type boundedBody struct {
	io.ReadCloser
	left int64
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, ErrBodyTooLarge
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// RequestError is a failed exchange with another server. Its message
// names the kind of failure only (callers may see it); Err has the details,
// addresses included, for the server's log.
type RequestError struct {
	Kind string
	Err  error
}

func (e *RequestError) Error() string { return "request failed: " + e.Kind }

// Unwrap returns the underlying error.
func (e *RequestError) Unwrap() error { return e.Err }

// Classify wraps a transport error in a RequestError that says what kind
// of failure it was. A passed deadline is returned as it is, so callers can
// tell a timeout with errors.Is(err, context.DeadlineExceeded).
func Classify(err error) error {
	if err == nil {
		return nil
	}
	kind := "no connection"
	var dns *net.DNSError
	var op *net.OpError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return err
	case errors.Is(err, context.Canceled):
		kind = "cancelled"
	case errors.Is(err, ErrBodyTooLarge):
		kind = "response too large"
	case errors.As(err, &dns):
		kind = "host not found"
	case errors.Is(err, syscall.ECONNREFUSED):
		kind = "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		kind = "connection reset"
	case errors.As(err, &op):
		kind = "network error"
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509:"):
		kind = "TLS error"
	case strings.Contains(err.Error(), "Unauthorized") || strings.Contains(err.Error(), "401"):
		kind = "unauthorized (check the token)"
	}
	return &RequestError{Kind: kind, Err: err}
}
