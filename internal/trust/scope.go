package trust

import "slices"

// The OAuth scopes of the server. A scope caps what a token may ask for;
// the caller's tier still decides what is allowed within it.
const (
	// ScopeRead covers every read: tools that read, resources,
	// completion, subscriptions and the protocol's own requests.
	ScopeRead = "read"
	// ScopeWrite covers the tools that change the library or the request
	// lifecycle.
	ScopeWrite = "write"
	// ScopeAdmin covers the tools that rewrite history or reload state.
	ScopeAdmin = "admin"
)

// Scopes lists every scope, in increasing reach.
var Scopes = []string{ScopeRead, ScopeWrite, ScopeAdmin}

// opScopes names the ops that need more than ScopeRead. Every op of the
// policy table is a read unless listed here (a test checks that each
// listed op exists there).
var opScopes = map[string]string{
	"commit_to_federation":  ScopeWrite,
	"request_intake":        ScopeWrite,
	"advance_stage":         ScopeWrite,
	"rollback_agent_memory": ScopeAdmin,
	"reload_library":        ScopeAdmin,
}

// ScopeOf returns the scope a token needs to call op (a tool name or a
// resource op of the policy table). An op the policy does not know needs
// ScopeAdmin, so a new tool missing from the table fails closed.
func ScopeOf(op string) string {
	if s, ok := opScopes[op]; ok {
		return s
	}
	if _, ok := rules[op]; ok {
		return ScopeRead
	}
	return ScopeAdmin
}

// Scopes returns the scopes a tier may be granted: a quarantined
// member reads and writes (its own namespace, into staging), a trusted
// member and the operator may hold every scope.
func (t Tier) Scopes() []string {
	if t == TierQuarantined {
		return []string{ScopeRead, ScopeWrite}
	}
	return slices.Clone(Scopes)
}
