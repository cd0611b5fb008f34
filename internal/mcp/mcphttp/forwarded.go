package mcphttp

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"strings"
)

// TrustedProxies are the addresses of the reverse proxies in front of the
// server (--trusted-proxy). Only a request whose peer is one of them may
// say, with X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host, who
// the client is and which URL it used.
type TrustedProxies []netip.Prefix

// ParseTrustedProxies reads CIDR prefixes (10.0.0.0/8) and single
// addresses (192.0.2.7).
func ParseTrustedProxies(specs []string) (TrustedProxies, error) {
	var out TrustedProxies
	for _, s := range specs {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: use an address (192.0.2.7) or a CIDR prefix (10.0.0.0/8)", s)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

func (p TrustedProxies) trusts(a netip.Addr) bool {
	a = a.Unmap()
	for _, prefix := range p {
		if prefix.Contains(a) {
			return true
		}
	}
	return false
}

// The forwarded headers.
const (
	forwardedFor   = "X-Forwarded-For"
	forwardedProto = "X-Forwarded-Proto"
	forwardedHost  = "X-Forwarded-Host"
)

type schemeKey struct{}

// Forwarded wraps next. On a request from a trusted proxy, RemoteAddr
// becomes the client's address (the last X-Forwarded-For entry that is
// not itself a trusted proxy), Host the X-Forwarded-Host the proxy set,
// and Scheme its X-Forwarded-Proto. Every other request has those headers
// removed, so that nothing after this can be fooled by them.
func (p TrustedProxies) Forwarded(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, err := netip.ParseAddrPort(r.RemoteAddr)
		if err != nil || !p.trusts(peer.Addr()) {
			for _, h := range []string{forwardedFor, forwardedProto, forwardedHost} {
				r.Header.Del(h)
			}
			next.ServeHTTP(w, r)
			return
		}
		r = r.Clone(r.Context())
		if client, ok := p.client(r.Header.Values(forwardedFor)); ok {
			r.RemoteAddr = netip.AddrPortFrom(client, 0).String()
		}
		if host := lastValue(r.Header.Values(forwardedHost)); host != "" && !strings.ContainsAny(host, " /\\@") {
			r.Host = host
		}
		if proto := strings.ToLower(lastValue(r.Header.Values(forwardedProto))); proto == "http" || proto == "https" {
			r = r.WithContext(context.WithValue(r.Context(), schemeKey{}, proto))
		}
		next.ServeHTTP(w, r)
	})
}

// client walks X-Forwarded-For from the nearest hop back, past the
// trusted proxies, to the first address that is not one.
func (p TrustedProxies) client(values []string) (netip.Addr, bool) {
	var hops []string
	for _, v := range values {
		hops = append(hops, strings.Split(v, ",")...)
	}
	var last netip.Addr
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break // a hop we cannot read: believe nothing before it
		}
		last = a.Unmap()
		if !p.trusts(last) {
			return last, true
		}
	}
	return last, last.IsValid()
}

// lastValue is the last comma-separated element of a header: the one the
// nearest proxy wrote.
func lastValue(values []string) string {
	if len(values) == 0 {
		return ""
	}
	v := values[len(values)-1]
	if i := strings.LastIndexByte(v, ','); i >= 0 {
		v = v[i+1:]
	}
	return strings.TrimSpace(v)
}

// Scheme returns the scheme the client used: https on a TLS connection,
// else what a trusted proxy said (see Forwarded), else http.
func Scheme(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	if s, ok := r.Context().Value(schemeKey{}).(string); ok {
		return s
	}
	return "http"
}
