package mcphttp

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

func TestTheAddressTableIsBoundedAndKeepsTheLimited(t *testing.T) {
	l := NewAddrLimiter(trust.RateLimit{PerSecond: 1, Burst: 1})
	at := func(i int) string { return fmt.Sprintf("10.%d.%d.%d:1", i>>16&255, i>>8&255, i&255) }
	allow := func(addr string, now time.Time) bool {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = addr
		ok, _ := l.Allow(r, now)
		return ok
	}
	t0 := time.Unix(1_000_000, 0)
	for i := range maxAddrBuckets - 1 {
		allow(at(i), t0)
	}
	// The attacker empties its bucket once the others have refilled.
	attacker := "192.0.2.66:1"
	t1 := t0.Add(2 * time.Second)
	allow(attacker, t1)
	if allow(attacker, t1) {
		t.Fatal("the attacker's second request passed")
	}
	// A new address fills the table: the idle buckets go, the
	// attacker's stays and it is still refused.
	t2 := t1.Add(500 * time.Millisecond)
	allow("192.0.2.1:1", t2)
	if n := len(l.buckets); n != 2 {
		t.Errorf("%d buckets after the sweep, want 2", n)
	}
	if allow(attacker, t2) {
		t.Error("the sweep forgot the limited address")
	}
	// A table of addresses all still limited starts afresh.
	for i := range maxAddrBuckets {
		allow(at(i), t2)
	}
	if n := len(l.buckets); n > maxAddrBuckets {
		t.Errorf("%d buckets, over the bound %d", n, maxAddrBuckets)
	}
}
