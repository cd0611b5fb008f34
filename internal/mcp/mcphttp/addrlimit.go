package mcphttp

import (
	"fmt"
	"math"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// AddrLimiter keeps one token bucket per client address, for what callers
// may do before they have authenticated: register OAuth clients, start
// authorizations, exchange codes, and be refused a token. The address is
// the request's RemoteAddr, which Forwarded has already set to the client
// behind a trusted proxy. IPv6 addresses count per /64, the block one host
// usually holds. The table is bounded: when it is full, the buckets that
// have refilled (addresses idle for a while) are dropped, and if none has,
// the table starts afresh. An attacker spread over many addresses is held
// by the server-wide caps instead (pending authorizations, clients).
type AddrLimiter struct {
	// OnLimited, when set, is told of each refused request.
	OnLimited func()

	limit trust.RateLimit

	mu      sync.Mutex
	buckets map[netip.Addr]*rate.Limiter
}

// maxAddrBuckets bounds the table of an AddrLimiter.
const maxAddrBuckets = 4096

// NewAddrLimiter returns a limiter giving every client address limit.
func NewAddrLimiter(limit trust.RateLimit) *AddrLimiter {
	return &AddrLimiter{limit: limit, buckets: map[netip.Addr]*rate.Limiter{}}
}

// clientAddr is the key of a request's client address.
func clientAddr(r *http.Request) netip.Addr {
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return netip.Addr{} // every unreadable address shares one bucket
	}
	a := ap.Addr().Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		a = p.Addr()
	}
	return a
}

// Allow takes one request of r's client address from its bucket. When the
// bucket is empty it returns false and how long until the next request
// would be allowed. A nil limiter allows everything.
func (l *AddrLimiter) Allow(r *http.Request, now time.Time) (bool, time.Duration) {
	if l == nil || l.limit.Unlimited() {
		return true, 0
	}
	key := clientAddr(r)
	l.mu.Lock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= maxAddrBuckets {
			l.sweep(now)
		}
		b = rate.NewLimiter(rate.Limit(l.limit.PerSecond), max(l.limit.Burst, 1))
		l.buckets[key] = b
	}
	l.mu.Unlock()
	res := b.ReserveN(now, 1)
	if delay := res.DelayFrom(now); delay > 0 {
		res.CancelAt(now)
		if l.OnLimited != nil {
			l.OnLimited()
		}
		return false, delay
	}
	return true, 0
}

// sweep drops the buckets that are full again; if none is, it drops all.
// The caller holds l.mu.
func (l *AddrLimiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.TokensAt(now) >= float64(b.Burst()) {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) >= maxAddrBuckets {
		clear(l.buckets)
	}
}

// Guard wraps next: a request over its address's rate gets 429 with
// Retry-After and an OAuth-style JSON error. CORS preflights pass: they
// change nothing.
func (l *AddrLimiter) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodOptions {
			if ok, wait := l.Allow(r, time.Now()); !ok {
				seconds := RetryAfter(w, wait)
				w.Header().Set("Cache-Control", "no-store")
				refuse(w)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusTooManyRequests)
				fmt.Fprintf(w, "{\"error\":\"too_many_requests\",\"error_description\":\"too many requests from your address; retry after %ds\"}\n", seconds)
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// RetryAfter sets the Retry-After header for wait, rounded up to whole
// seconds (at least one), and returns the seconds.
func RetryAfter(w http.ResponseWriter, wait time.Duration) int {
	seconds := max(int(math.Ceil(wait.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.Itoa(seconds))
	return seconds
}
