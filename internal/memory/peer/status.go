package peer

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Status is how a peer's last call in a fan-out went, kept by the Set for
// the operator's view of the federation (the dashboard's Federation page).
type Status struct {
	Peer Peer
	// HasToken says whether a bearer token is sent to the peer.
	HasToken bool
	// Called is false until a fan-out has called the peer; the fields
	// below are then zero.
	Called bool
	// At is when the last call ended, Tool what it called, Latency how
	// long it took (up to the deadline for a call that timed out).
	At      time.Time
	Tool    string
	Latency time.Duration
	// Err is why it failed (redacted and bounded), empty when it answered;
	// TimedOut says it was dropped at the deadline.
	Err      string
	TimedOut bool
	// Calls and Failures count the peer's calls since the server started.
	Calls, Failures uint64
}

// maxStatusError bounds the error text kept per peer.
const maxStatusError = 300

// statusBoard holds one Status per configured peer: its memory is bounded
// by the peers file, whatever the traffic.
type statusBoard struct {
	mu   sync.Mutex
	last []Status
}

// record keeps the outcome of one call to peer i.
func (b *statusBoard) record(i int, tool string, took time.Duration, reason string, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := &b.last[i]
	st.Called, st.At, st.Tool, st.Latency = true, time.Now(), tool, took
	st.Calls++
	st.Err, st.TimedOut = "", false
	if err != nil {
		st.Failures++
		st.Err = redact.Text(reason, maxStatusError)
		st.TimedOut = errors.Is(err, context.DeadlineExceeded)
	}
}

// Statuses returns a copy of each peer's last outcome, in configuration
// order. It is safe to call while fan-outs run.
func (s *Set) Statuses() []Status {
	s.status.mu.Lock()
	defer s.status.mu.Unlock()
	out := make([]Status, len(s.status.last))
	copy(out, s.status.last)
	return out
}
