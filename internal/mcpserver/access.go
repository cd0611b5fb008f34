package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/federation"
	"github.com/getbourdon/bourdon-go/internal/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/visibility"
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

// authorize decides whether the caller may do op on namespace ("" when
// the call names none), records the decision in the audit log, and
// returns it. Every tool and resource goes through here.
func (s *Server) authorize(extra *mcp.RequestExtra, op, namespace string) trust.Decision {
	d := trust.Decide(op, callerOf(extra), namespace)
	if err := s.opts.Audit.RecordDecision(d); err != nil && s.opts.Logger != nil {
		s.opts.Logger.Warn("audit record failed", "err", err)
	}
	return d
}

// reader limits a read to the namespaces the caller may read; nil (every
// agent) for trusted callers.
func reader(d trust.Decision) federation.Reader {
	if !d.Filter {
		return nil
	}
	return d.Caller.MayRead
}

// egress is the visibility a caller's exports may reach: team for trusted
// callers, public for the others (the reference's clamp).
func egress(d trust.Decision) visibility.Level {
	if d.Caller.IsTrusted() {
		return visibility.Team
	}
	return visibility.Public
}

// inBand carries another payload than the tool's usual one out of a
// handler: a refusal, or an error the reference reports in the payload.
// addTool answers with it as a normal result.
type inBand struct{ payload any }

func (e inBand) Error() string { return "in-band payload" }

// deny returns the error that makes a tool answer with d's denial.
func deny(d trust.Decision) error { return inBand{d.Denial()} }

// deref returns *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
