package trust

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// access is how an operation treats a caller that is not trusted. Trusted
// callers and the operator are allowed every operation.
type access uint8

const (
	// anyTier: every tier may call it; a quarantined caller's results are
	// filtered to its grants.
	anyTier access = iota
	// readNamed: the operation reads one named namespace, which a
	// quarantined caller must have been granted.
	readNamed
	// readOptional: like readNamed when a namespace is named; without one
	// it reads everything, filtered to the caller's grants.
	readOptional
	// writeOwn: a quarantined caller may write only its own namespace, and
	// the write goes to staging.
	writeOwn
	// trustedOnly: a quarantined caller is refused.
	trustedOnly
)

// rule is one row of the operation table.
type rule struct {
	access access
	// page names the list of a paginated payload. A denial of such an
	// operation also carries an empty page, as the reference's
	// list_recent_work denial does.
	page string
}

// rules is the whole access policy: every tool and resource operation of
// the server and what a quarantined caller may do with it. The ops a
// quarantined caller may call at all (every row not trustedOnly) are the
// quarantined allowlist. An op missing here is refused to quarantined
// callers.
//
// The first ten tools and the three resources are the reference's; the
// rest are its later tools, placed where its idioms put them.
var rules = map[string]rule{
	"query_agent_memory":          {access: readNamed},
	"list_recent_work":            {access: readOptional, page: "sessions"},
	"find_entity":                 {access: anyTier},
	"list_agents":                 {access: anyTier},
	"export_agents":               {access: anyTier},
	"commit_to_federation":        {access: writeOwn},
	"get_cross_agent_summary":     {access: trustedOnly},
	"prepare_recognition_context": {access: trustedOnly},
	"compile_codex_turn":          {access: trustedOnly},
	"get_deeper_context":          {access: trustedOnly},
	"resource:agents":             {access: anyTier},
	"resource:agent-memory":       {access: readNamed},
	"resource:entity":             {access: anyTier},
	// Completion of the resource templates' arguments: filtered like the
	// agents and entity resources it completes.
	"completion":            {access: anyTier},
	"list_notes":            {access: readOptional, page: "notes"},
	"list_workstreams":      {access: readOptional, page: "workstreams"},
	"describe_caller":       {access: anyTier},
	"list_memory_versions":  {access: readNamed},
	"explain_memory_change": {access: readNamed},
	"rollback_agent_memory": {access: trustedOnly},
	"reload_library":        {access: trustedOnly},
	// The documentation graph: reads are open to every tier; what a
	// quarantined caller sees of the memory federation in it is filtered
	// to its grants.
	"docs_search":        {access: anyTier},
	"docs_fetch":         {access: anyTier},
	"code_sample_search": {access: anyTier},
	"get_related":        {access: anyTier},
	"get_learning_path":  {access: anyTier},
	"resolve_xref":       {access: anyTier},
	"describe_schema":    {access: anyTier},
	"query_graph":        {access: anyTier},
	"resource:node":      {access: anyTier},
	// The request lifecycle: the namespace of a request is its area; a
	// quarantined caller reads and proposes only in the areas it was
	// granted. A listing or an intake names its area; a call that names a
	// request by id names no area before the request is looked up, so it is
	// open to every tier and its lookup filtered to the caller's grants.
	// Proposals never change accepted state, whoever makes them.
	"list_requests":  {access: readNamed},
	"get_request":    {access: anyTier},
	"get_dod":        {access: anyTier},
	"request_intake": {access: readNamed},
	"advance_stage":  {access: anyTier},
}

// Ops returns every operation the policy table names, sorted. A server
// can check in a test that each of its tools is among them.
func Ops() []string {
	ops := make([]string, 0, len(rules))
	for op := range rules {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	return ops
}

// AnyNamespace is the audit namespace of a call that names none.
const AnyNamespace = "*"

// The audit decisions.
const (
	Allow = "allow"
	Deny  = "deny"
)

// Decision is the outcome of Decide for one call.
type Decision struct {
	// Op is the tool or resource operation, e.g. "query_agent_memory" or
	// "resource:agent-memory".
	Op string
	// Caller is who asked.
	Caller Caller
	// Namespace is the namespace the call named, or AnyNamespace; it is
	// what the audit line records.
	Namespace string
	// Allowed reports whether the call may proceed.
	Allowed bool
	// Staged reports that an allowed write must go to staging rather than
	// to the live library (a quarantined caller's own namespace).
	Staged bool
	// Filter reports that an allowed read must drop every row of a
	// namespace the caller may not read (Caller.MayRead).
	Filter bool
	// Detail is the reason of a denial, verbatim as the reference words
	// it; empty when allowed.
	Detail string

	page string
}

// Decide is the one access decision of the server: may caller perform op
// on namespace? namespace is the agent id the call names (the agent
// argument of query_agent_memory or list_recent_work, the agent_id of
// commit_to_federation or of the memory resource), or "" when it names
// none. For operations that always name a namespace an empty one is
// checked like any other, so a quarantined caller is refused it.
//
// Trusted callers and the operator are allowed everything. For a
// quarantined caller the rules table decides; an op it does not list is
// refused.
func Decide(op string, caller Caller, namespace string) Decision {
	r, known := rules[op]
	d := Decision{Op: op, Caller: caller, Namespace: namespace, page: r.page}
	if d.Namespace == "" {
		d.Namespace = AnyNamespace
	}
	if caller.IsTrusted() {
		d.Allowed = true
		return d
	}
	if !known {
		r.access = trustedOnly
	}
	switch r.access {
	case anyTier:
		d.Allowed, d.Filter = true, true
	case readOptional:
		if namespace == "" || caller.MayRead(namespace) {
			d.Allowed, d.Filter = true, true
		} else {
			d.Detail = "namespace " + pyfmt.Quote(namespace) + " not granted"
		}
	case readNamed:
		if caller.MayRead(namespace) {
			d.Allowed, d.Filter = true, true
		} else {
			d.Detail = "namespace " + pyfmt.Quote(namespace) + " not granted"
		}
	case writeOwn:
		if namespace == caller.ID {
			d.Allowed, d.Staged = true, true
		} else {
			d.Detail = "quarantined members may only write their own namespace (" + pyfmt.Quote(caller.ID) + ")"
		}
	default:
		d.Namespace = AnyNamespace
		d.Detail = "tier " + pyfmt.Quote(caller.Tier.Wire()) + " may not call this tool"
	}
	return d
}

// Denial returns the payload a denied call answers with, or nil when the
// call is allowed.
func (d Decision) Denial() *Denial {
	if d.Allowed {
		return nil
	}
	return &Denial{
		Op:      d.Op,
		Agent:   d.Caller.ID,
		Tier:    d.Caller.Tier.Wire(),
		Detail:  d.Detail,
		PageKey: d.page,
	}
}

// Entry returns the audit entry of the decision (without a timestamp;
// Audit.Record adds it). An allowed staged write is recorded with the
// detail "staged"; the reference records it only once staging succeeded.
func (d Decision) Entry() Entry {
	e := Entry{Agent: d.Caller.ID, Op: d.Op, Namespace: d.Namespace, Decision: Allow}
	switch {
	case !d.Allowed:
		e.Decision, e.Detail = Deny, d.Detail
	case d.Staged:
		e.Detail = "staged"
	}
	return e
}

// Denial is the reference's in-band refusal:
//
//	{"error": "access denied", "op": ..., "agent": ..., "tier": ..., "detail": ...}
//
// A denial of a paginated list also carries an empty page: the list under
// PageKey, "next_cursor": null and "has_more": false.
type Denial struct {
	// Op is the refused operation.
	Op string
	// Agent is the caller's id.
	Agent string
	// Tier is the caller's tier as the reference names it.
	Tier string
	// Detail is the reason.
	Detail string
	// PageKey, when set, names the empty list of the page the denial
	// carries ("sessions" for list_recent_work).
	PageKey string
}

// MarshalJSON writes the denial with the reference's key order.
func (d Denial) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"error":"access denied"`)
	for _, kv := range [...][2]string{{"op", d.Op}, {"agent", d.Agent}, {"tier", d.Tier}, {"detail", d.Detail}} {
		v, err := json.Marshal(kv[1])
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `,%q:%s`, kv[0], v)
	}
	if d.PageKey != "" {
		k, err := json.Marshal(d.PageKey)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `,%s:[],"next_cursor":null,"has_more":false`, k)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
