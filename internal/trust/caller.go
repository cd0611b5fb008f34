// Package trust is the trust boundary of the federation server, without
// any MCP inside: who is calling (Caller, Tier), which bearer tokens name
// which federation member (Registry, the reference's federation.yaml),
// whether a call is allowed (Decide, with the reference's denial payloads)
// and the append-only audit trail of every decision (Audit, the
// reference's audit.jsonl).
//
// Files written here are read by the Python reference and the other way
// round: the registry keeps the reference's YAML layout and the audit log
// its JSON line format byte for byte. Where the reference fails open, this
// package fails closed; each such choice is named on the function that
// makes it.
package trust

import (
	"crypto/sha256"
	"crypto/subtle"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Tier is how far the federation trusts a caller. The zero value is
// TierQuarantined, the least privilege, so a Caller built without a tier
// is not trusted.
type Tier uint8

// The three tiers, in increasing privilege.
const (
	// TierQuarantined callers may call an allowlist of read tools, see only
	// the namespaces they were granted, and may only write their own
	// namespace, and then only into staging.
	TierQuarantined Tier = iota
	// TierTrusted federation members may read and write every namespace.
	TierTrusted
	// TierOperator is the local operator: the stdio transport and the legacy
	// shared token. It may do everything a trusted member may. Registry
	// rows can never hold this tier; it exists only for callers that did
	// not come through the registry.
	TierOperator
)

// String returns the tier's name: quarantined, trusted or operator.
func (t Tier) String() string {
	switch t {
	case TierTrusted:
		return "trusted"
	case TierOperator:
		return "operator"
	}
	return "quarantined"
}

// Wire returns the tier as the reference writes it in payloads. The
// reference's operator identity has tier "trusted", so TierOperator is
// "trusted" on the wire; the others are their String.
func (t Tier) Wire() string {
	if t == TierOperator {
		return TierTrusted.String()
	}
	return t.String()
}

// Transport names how a caller reached the server.
type Transport string

// The two transports the server speaks.
const (
	Stdio Transport = "stdio"
	HTTP  Transport = "http"
)

// OperatorID is the caller id of the local operator, as in the reference.
const OperatorID = "operator"

// UnidentifiedID is the caller id given to an HTTP request that reached a
// tool without passing the authentication layer.
const UnidentifiedID = "unknown"

// Caller is the resolved identity of one request: never token material,
// only what the decision and the audit trail need.
type Caller struct {
	// ID is the member's agent id, or OperatorID.
	ID string
	// Tier decides what the caller may do.
	Tier Tier
	// Grants are the namespaces (agent ids) a quarantined caller may read.
	Grants []string
	// Transport is how the caller reached the server.
	Transport Transport
	// Rate is the member's own rate limit from the registry (unset for
	// everyone else).
	Rate RateOverride
}

// Operator returns the caller of the stdio transport: the local operator,
// allowed everything, as the reference treats a process without an HTTP
// request.
func Operator() Caller {
	return Caller{ID: OperatorID, Tier: TierOperator, Transport: Stdio}
}

// IsTrusted reports whether the caller is trusted or the operator.
func (c Caller) IsTrusted() bool { return c.Tier == TierTrusted || c.Tier == TierOperator }

// MayRead reports whether the caller may read one namespace (one agent's
// manifest): trusted callers and the operator read everything, a
// quarantined caller only what it was granted.
func (c Caller) MayRead(namespace string) bool {
	if c.IsTrusted() {
		return true
	}
	return slices.Contains(c.Grants, namespace)
}

// MaxAccess is the highest access level the caller may read at, whatever
// access_level it asks for: this is the one rule every read surface
// applies to the level it resolves (tools, resources, completions,
// exports). The operator and trusted members may read at any level, as in
// the reference. A quarantined caller reads at public only: its grants
// open namespaces, not levels, so a member granted one agent still does
// not see that agent's team or private rows, nor internal documentation.
// (The reference caps nothing: a quarantined caller granted an agent reads
// its private rows by asking for them.)
func (c Caller) MaxAccess() visibility.Level {
	if c.IsTrusted() {
		return visibility.Private
	}
	return visibility.Public
}

// CapAccess returns requested lowered to MaxAccess, and whether it had to
// be lowered.
func (c Caller) CapAccess(requested visibility.Level) (level visibility.Level, capped bool) {
	if ceiling := c.MaxAccess(); requested > ceiling {
		return ceiling, true
	}
	return requested, false
}

// AuthenticateLegacy checks a bearer token against the reference's legacy
// shared server token (env BOURDON_PEER_TOKEN_SERVER). It returns the
// operator, on the HTTP transport, only when both the configured and the
// presented token are non-empty and equal; the comparison takes the same
// time whatever the tokens hold. The reference lets an empty presented
// token through when the variable is set to the empty string; here an
// empty value on either side never authenticates.
func AuthenticateLegacy(configured, presented string) (Caller, bool) {
	if configured == "" || presented == "" {
		return Caller{}, false
	}
	// Comparing digests keeps the time independent of the lengths too.
	a := sha256.Sum256([]byte(configured))
	b := sha256.Sum256([]byte(presented))
	if subtle.ConstantTimeCompare(a[:], b[:]) != 1 {
		return Caller{}, false
	}
	c := Operator()
	c.Transport = HTTP
	return c, true
}
