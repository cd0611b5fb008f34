package peer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"
)

// Default bounds of a fan-out.
const (
	// DefaultTimeout is the per-peer timeout of the lookups and lists.
	DefaultTimeout = 2 * time.Second
	// DefaultRecognitionTimeout is the per-peer timeout of
	// prepare_recognition_context, which runs at the start of every turn
	// (the reference's 200 ms).
	DefaultRecognitionTimeout = 200 * time.Millisecond
	// DefaultDeadline bounds a whole fan-out, connecting included.
	DefaultDeadline = 3 * time.Second
)

// Options configure a Set.
type Options struct {
	// Timeout, RecognitionTimeout and Deadline bound fan-outs; zero means
	// the default.
	Timeout            time.Duration
	RecognitionTimeout time.Duration
	Deadline           time.Duration
	// Getenv reads the token variables; nil means none is set.
	Getenv  func(string) string
	Version string
	Logger  *slog.Logger
	// OnCall, when set, is told how each peer call of a fan-out went: how
	// long it took and its error (context.DeadlineExceeded for a peer
	// dropped at the deadline), for metrics.
	OnCall func(took time.Duration, err error)
}

// Set is the peers a server federates with.
type Set struct {
	clients []*Client
	opts    Options
	status  statusBoard
}

// NewSet returns the set of peers; nil when there are none, so a server
// without peers skips federation entirely.
func NewSet(peers []Peer, opts Options) *Set {
	if len(peers) == 0 {
		return nil
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.RecognitionTimeout <= 0 {
		opts.RecognitionTimeout = DefaultRecognitionTimeout
	}
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultDeadline
	}
	s := &Set{opts: opts}
	for _, p := range peers {
		c := NewClient(p, opts.Getenv, opts.Version, opts.Deadline)
		if !c.HasToken() && opts.Logger != nil {
			opts.Logger.Warn("no token for peer; it will be called without one", "peer", p.Name, "token_env", p.TokenEnv)
		}
		s.clients = append(s.clients, c)
		s.status.last = append(s.status.last, Status{Peer: p, HasToken: c.HasToken()})
	}
	return s
}

// Peers returns the configured peers.
func (s *Set) Peers() []Peer {
	out := make([]Peer, len(s.clients))
	for i, c := range s.clients {
		out[i] = c.Peer
	}
	return out
}

// Close ends the peers' sessions.
func (s *Set) Close() {
	for _, c := range s.clients {
		c.Close()
	}
}

// Report says how a fan-out went; it is added to the payload of every
// federated call. The first four keys are the reference's (of federated
// recognition); peer_errors says why each failed peer failed.
type Report struct {
	// Latencies holds each queried peer's answer time in microseconds
	// (rounded to 0.1), null for a peer that failed or timed out.
	Latencies map[string]*float64 `json:"peer_latencies_us"`
	Queried   int                 `json:"peers_queried"`
	Responded int                 `json:"peers_responded"`
	TimedOut  int                 `json:"peers_timed_out"`
	Errors    map[string]string   `json:"peer_errors,omitempty"`
}

// outcome is one peer's answer.
type outcome struct {
	peer    Peer
	payload map[string]any
}

// fanOut calls tool on every peer for which args returns arguments, in
// parallel, each within perPeer and all within the set's deadline. It
// returns the payloads of the peers that answered, in configuration
// order, and the report. A failure is never counted as an answer.
func (s *Set) fanOut(ctx context.Context, perPeer time.Duration, tool string, args func(Peer) (map[string]any, bool)) ([]outcome, Report) {
	rep := Report{Latencies: map[string]*float64{}}
	type answer struct {
		i       int
		payload map[string]any
		err     error
		took    time.Duration
	}
	// Every peer starts now, so one deadline bounds the wait for them all:
	// the per-peer timeout, or the overall deadline when that comes first.
	// The wait below ends with it even if a call is slow to notice.
	ctx, cancel := context.WithTimeout(ctx, min(perPeer, s.opts.Deadline))
	defer cancel()
	answers := make(chan answer, len(s.clients))
	pending := map[int]bool{}
	start := time.Now()
	for i, c := range s.clients {
		a, ok := args(c.Peer)
		if !ok {
			continue
		}
		pending[i] = true
		rep.Queried++
		go func() {
			began := time.Now()
			p, err := c.Call(ctx, tool, a)
			answers <- answer{i, p, err, time.Since(began)}
		}()
	}
	got := make([]map[string]any, len(s.clients))
	for len(pending) > 0 {
		select {
		case a := <-answers:
			delete(pending, a.i)
			s.observe(a.took, a.err)
			name := s.clients[a.i].Peer.Name
			if a.err != nil {
				s.status.record(a.i, tool, a.took, s.fail(&rep, name, tool, a.err, perPeer), a.err)
				continue
			}
			s.status.record(a.i, tool, a.took, "", nil)
			us := math.Round(float64(a.took.Nanoseconds())/100) / 10
			rep.Latencies[name] = &us
			rep.Responded++
			got[a.i] = a.payload
		case <-ctx.Done():
			// Time is up (or the caller gave up) with peers still out:
			// drop them.
			for i := range pending {
				took := time.Since(start)
				s.observe(took, context.DeadlineExceeded)
				reason := s.fail(&rep, s.clients[i].Peer.Name, tool, context.DeadlineExceeded, perPeer)
				s.status.record(i, tool, took, reason, context.DeadlineExceeded)
			}
			pending = nil
		}
	}
	var out []outcome
	for i, p := range got {
		if p != nil {
			out = append(out, outcome{s.clients[i].Peer, p})
		}
	}
	return out, rep
}

func (s *Set) observe(took time.Duration, err error) {
	if s.opts.OnCall != nil {
		s.opts.OnCall(took, err)
	}
}

// fail records a failed peer in rep and returns the reason it gives.
func (s *Set) fail(rep *Report, name, tool string, err error, perPeer time.Duration) string {
	rep.Latencies[name] = nil
	if rep.Errors == nil {
		rep.Errors = map[string]string{}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		rep.TimedOut++
		rep.Errors[name] = fmt.Sprintf("timed out after %v", min(perPeer, s.opts.Deadline))
	} else {
		rep.Errors[name] = err.Error()
	}
	if s.opts.Logger != nil {
		s.opts.Logger.Warn("peer call failed", "peer", name, "tool", tool, "err", detail(err), "reason", rep.Errors[name])
	}
	return rep.Errors[name]
}

// detail is the full error for the server's log, addresses included.
func detail(err error) error {
	if inner := errors.Unwrap(err); inner != nil {
		return inner
	}
	return err
}
