package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/peer"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// callerOf returns who is calling: the identity the HTTP bearer check
// found, or else the operator (stdio, or HTTP without authentication,
// which the command line allows only on loopback).
func callerOf(extra *mcp.RequestExtra) trust.Caller {
	op := trust.Operator()
	if extra != nil {
		if c, ok := mcphttp.CallerOf(extra.TokenInfo); ok {
			return c
		}
		if extra.Header != nil {
			op.Transport = trust.HTTP
		}
	}
	return op
}

// decide decides whether caller may do op on namespace ("" when the call
// names none), records the decision in the audit log, and returns it. Only
// the access steps call it: addTool for every tool, resourceHandler for
// every resource read, complete and maySubscribe; handlers receive its
// decision.
func (s *Server) decide(caller trust.Caller, op, namespace string) trust.Decision {
	d := trust.Decide(op, caller, namespace)
	if err := s.opts.Audit.RecordDecision(d); err != nil && s.opts.Logger != nil {
		s.opts.Logger.Warn("audit record failed", "err", err)
	}
	return d
}

// offer records that the server answers op through an access step, so a
// test can hold the offered operations against the access rules.
func (s *Server) offer(op string) { s.surfaces = append(s.surfaces, op) }

// reader limits a read to the namespaces the caller may read; nil (every
// agent) for trusted callers.
func reader(d trust.Decision) federation.Reader {
	if !d.Filter {
		return nil
	}
	return d.Caller.MayRead
}

// egress is the visibility a caller's exports may reach: team at most
// (the reference's clamp), and never above the caller's own ceiling, so
// public for callers that are not trusted.
func egress(d trust.Decision) visibility.Level {
	return min(visibility.Team, d.Caller.MaxAccess())
}

// resourceAccess is the access level of a resource read, which takes no
// argument: the server's default, capped at the caller's ceiling.
func (s *Server) resourceAccess(d trust.Decision, def visibility.Level) visibility.Level {
	level, _ := d.Caller.CapAccess(s.defaultAccess(def))
	return level
}

// inBand carries another payload than the tool's usual one out of a
// handler: an error the reference reports in the payload, or a staged
// write's answer. addTool answers with it as a normal result.
type inBand struct{ payload any }

func (e inBand) Error() string { return "in-band payload" }

// deref returns *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// federates reports whether a call fans out to the peers: peers are
// configured, the call is not itself a peer's (federation_hop 0), and the
// caller may read every namespace (a quarantined caller never sees peer
// rows).
func (s *Server) federates(d trust.Decision, hop int) bool {
	return s.opts.Peers != nil && hop <= 0 && d.Allowed && !d.Filter
}

// peerFields are the keys a federated call adds to its payload: the
// reference's four of federated recognition, and why each failed peer
// failed. They are absent from calls that did not fan out.
type peerFields struct {
	PeerLatenciesUS map[string]*float64 `json:"peer_latencies_us,omitempty" jsonschema:"Answer time of each peer asked, in microseconds; null for a peer that failed or timed out."`
	PeersQueried    *int                `json:"peers_queried,omitempty" jsonschema:"Peers asked."`
	PeersResponded  *int                `json:"peers_responded,omitempty" jsonschema:"Peers that answered in time."`
	PeersTimedOut   *int                `json:"peers_timed_out,omitempty" jsonschema:"Peers dropped because they did not answer in time."`
	PeerErrors      map[string]string   `json:"peer_errors,omitempty" jsonschema:"Why each failed peer failed."`
}

func reported(r peer.Report) peerFields {
	return peerFields{PeerLatenciesUS: r.Latencies, PeersQueried: &r.Queried, PeersResponded: &r.Responded, PeersTimedOut: &r.TimedOut, PeerErrors: r.Errors}
}

// peerAccess is what a federated call forwards to the peers.
func peerAccess(level visibility.Level, a accessArgs) peer.Access {
	return peer.Access{Level: level.String(), IncludePrivate: a.IncludePrivate}
}
