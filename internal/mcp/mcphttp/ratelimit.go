package mcphttp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// Limiter keeps one token bucket per authenticated caller: a caller over
// its rate is refused at once (never queued), so its refused calls cost
// the server next to nothing and other callers' calls are not slowed. The
// limit of a caller is its registry override over Default. Buckets are
// kept per caller id, so they are as many as the registry's members, and
// in memory: each server process (each replica) counts on its own.
type Limiter struct {
	Default trust.RateLimit

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	limit trust.RateLimit
	*rate.Limiter
}

// NewLimiter returns a limiter whose callers get def unless the registry
// gives them their own limit.
func NewLimiter(def trust.RateLimit) *Limiter {
	return &Limiter{Default: def, buckets: map[string]*bucket{}}
}

// Allow takes one call from c's bucket. When the bucket is empty it
// returns false and how long until the next call would be allowed.
func (l *Limiter) Allow(c trust.Caller, now time.Time) (bool, time.Duration) {
	limit := c.Rate.Over(l.Default)
	if limit.Unlimited() {
		return true, 0
	}
	l.mu.Lock()
	b := l.buckets[c.ID]
	if b == nil || b.limit != limit {
		// A new caller, or its limit changed in the registry: a full
		// bucket at the new rate.
		b = &bucket{limit, rate.NewLimiter(rate.Limit(limit.PerSecond), max(limit.Burst, 1))}
		l.buckets[c.ID] = b
	}
	l.mu.Unlock()
	r := b.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return false, delay
	}
	return true, 0
}

// limitedMethods are the JSON-RPC methods a rate limit counts: the ones
// that do work for the caller. Handshakes, listings, pings and
// notifications always pass, so a limited caller's session keeps working.
var limitedMethods = map[string]bool{"tools/call": true, "resources/read": true}

// rpcHead is what the limiter reads of a request body.
type rpcHead struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// limit refuses a request over its caller's rate with 429, a Retry-After
// header and a JSON-RPC error for the request's id (the SDK's clients
// treat 429 as a failure of that one call, not of the session). It
// reports whether the request was refused.
func (h *handler) limit(w http.ResponseWriter, r *http.Request, body []byte) bool {
	c, ok := r.Context().Value(callerKey{}).(trust.Caller)
	if h.opts.Limiter == nil || !ok || c.Rate.Over(h.opts.Limiter.Default).Unlimited() {
		// An unlimited caller's body is not even decoded.
		return false
	}
	var head rpcHead
	if json.Unmarshal(body, &head) != nil || !limitedMethods[head.Method] {
		return false
	}
	allowed, wait := h.opts.Limiter.Allow(c, time.Now())
	if allowed {
		return false
	}
	if h.opts.OnRateLimited != nil {
		h.opts.OnRateLimited(head.Method)
	}
	seconds := RetryAfter(w, wait)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusTooManyRequests)
	id := head.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	_ = json.NewEncoder(w).Encode(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error": map[string]any{
			"code":    rateLimitedCode,
			"message": fmt.Sprintf("Too Many Requests: %s is over its rate limit; retry after %ds", head.Method, seconds),
			"data":    map[string]any{"retryAfterSeconds": seconds},
		},
	})
	return true
}

// rateLimitedCode is the JSON-RPC error code of a refused call, in the
// range JSON-RPC leaves to servers.
const rateLimitedCode = -32029
