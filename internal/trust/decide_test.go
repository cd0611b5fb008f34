package trust

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

const conformance = "../../testdata/conformance"

type tierMatrix struct {
	Caller struct {
		Trusted struct {
			AgentID string `json:"agent_id"`
			Tier    string `json:"tier"`
		} `json:"trusted"`
		Quarantined struct {
			AgentID string   `json:"agent_id"`
			Tier    string   `json:"tier"`
			Grants  []string `json:"grants"`
		} `json:"quarantined"`
	} `json:"caller"`
	Cases []struct {
		Tool      string          `json:"tool"`
		Tier      string          `json:"tier"`
		Namespace *string         `json:"namespace"`
		Granted   *bool           `json:"granted"`
		Decision  string          `json:"decision"`
		Denial    json.RawMessage `json:"denial"`
	} `json:"cases"`
}

// TestTierMatrix runs every case of the reference's tier matrix through
// Decide: the decision, and on a denial the payload byte for byte (keys in
// the reference's order).
func TestTierMatrix(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(conformance, "tier_matrix.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m tierMatrix
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Cases) != 27 {
		t.Fatalf("%d cases, want 27", len(m.Cases))
	}
	q := m.Caller.Quarantined
	callers := map[string]Caller{
		"trusted":     Operator(),
		"quarantined": {ID: q.AgentID, Tier: TierQuarantined, Grants: q.Grants, Transport: HTTP},
	}
	if got := callers["trusted"]; got.ID != m.Caller.Trusted.AgentID || got.Tier.Wire() != m.Caller.Trusted.Tier {
		t.Fatalf("the fixture's trusted caller is %+v, Operator() is %+v", m.Caller.Trusted, got)
	}
	for _, c := range m.Cases {
		ns := ""
		if c.Namespace != nil {
			ns = *c.Namespace
		}
		caller, ok := callers[c.Tier]
		if !ok {
			t.Fatalf("unknown tier %q", c.Tier)
		}
		name := c.Tool + "/" + c.Tier + "/" + ns
		d := Decide(c.Tool, caller, ns)
		if got := map[bool]string{true: Allow, false: Deny}[d.Allowed]; got != c.Decision {
			t.Errorf("%s: decision %s, want %s (%+v)", name, got, c.Decision, d)
			continue
		}
		if c.Granted != nil {
			granted := caller.MayRead(ns)
			if c.Tool == "commit_to_federation" {
				granted = ns == caller.ID
			}
			if granted != *c.Granted {
				t.Errorf("%s: granted %v, want %v", name, granted, *c.Granted)
			}
		}
		var want bytes.Buffer
		if err := json.Compact(&want, c.Denial); err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(d.Denial())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s: denial\n got %s\nwant %s", name, got, want.Bytes())
		}
		if !slices.Contains(Ops(), c.Tool) {
			t.Errorf("%s: the policy table does not name %s", name, c.Tool)
		}
	}
}

func TestDecide(t *testing.T) {
	openclaw := Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"claude-code"}, Transport: HTTP}
	member := Caller{ID: "clyde", Tier: TierTrusted, Transport: HTTP}
	for _, c := range []struct {
		name   string
		op     string
		caller Caller
		ns     string
		want   Decision
	}{
		{"trusted member reads anything", "query_agent_memory", member, "codex",
			Decision{Namespace: "codex", Allowed: true}},
		{"trusted member calls an op the table lacks", "some_new_tool", member, "",
			Decision{Namespace: "*", Allowed: true}},
		{"trusted member writes directly", "commit_to_federation", member, "codex",
			Decision{Namespace: "codex", Allowed: true}},
		{"granted read is filtered", "query_agent_memory", openclaw, "claude-code",
			Decision{Namespace: "claude-code", Allowed: true, Filter: true}},
		{"the empty namespace is not granted", "query_agent_memory", openclaw, "",
			Decision{Namespace: "*", Detail: "namespace '' not granted"}},
		{"memory resource of an ungranted agent", "resource:agent-memory", openclaw, "codex",
			Decision{Namespace: "codex", Detail: "namespace 'codex' not granted"}},
		{"agents resource is filtered", "resource:agents", openclaw, "",
			Decision{Namespace: "*", Allowed: true, Filter: true}},
		{"entity resource is filtered", "resource:entity", openclaw, "",
			Decision{Namespace: "*", Allowed: true, Filter: true}},
		{"list_notes without agent is filtered", "list_notes", openclaw, "",
			Decision{Namespace: "*", Allowed: true, Filter: true}},
		{"list_workstreams of an ungranted agent", "list_workstreams", openclaw, "codex",
			Decision{Namespace: "codex", Detail: "namespace 'codex' not granted"}},
		{"own namespace write is staged", "commit_to_federation", openclaw, "openclaw",
			Decision{Namespace: "openclaw", Allowed: true, Staged: true}},
		{"a granted namespace is still not writable", "commit_to_federation", openclaw, "claude-code",
			Decision{Namespace: "claude-code", Detail: "quarantined members may only write their own namespace ('openclaw')"}},
		{"rollback is trusted-only", "rollback_agent_memory", openclaw, "openclaw",
			Decision{Namespace: "*", Detail: "tier 'quarantined' may not call this tool"}},
		{"describe_caller is open", "describe_caller", openclaw, "",
			Decision{Namespace: "*", Allowed: true, Filter: true}},
		{"an op the table lacks is refused", "some_new_tool", openclaw, "",
			Decision{Namespace: "*", Detail: "tier 'quarantined' may not call this tool"}},
		{"the unidentified HTTP caller reads nothing", "query_agent_memory", unidentified(), "claude-code",
			Decision{Namespace: "claude-code", Detail: "namespace 'claude-code' not granted"}},
		{"a namespace with a quote is quoted like Python", "query_agent_memory", openclaw, "it's",
			Decision{Namespace: "it's", Detail: `namespace "it's" not granted`}},
	} {
		got := Decide(c.op, c.caller, c.ns)
		got.page = "" // checked through the payloads in TestDenialPayloads
		c.want.Op, c.want.Caller = c.op, c.caller
		if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(Decision{})); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, diff)
		}
	}
}

func TestDenialPayloads(t *testing.T) {
	openclaw := Caller{ID: "openclaw", Tier: TierQuarantined, Transport: HTTP}
	for _, c := range []struct {
		op, ns, want string
	}{
		{"list_notes", "codex", `{"error":"access denied","op":"list_notes","agent":"openclaw","tier":"quarantined","detail":"namespace 'codex' not granted","notes":[],"next_cursor":null,"has_more":false}`},
		{"list_workstreams", "codex", `{"error":"access denied","op":"list_workstreams","agent":"openclaw","tier":"quarantined","detail":"namespace 'codex' not granted","workstreams":[],"next_cursor":null,"has_more":false}`},
		{"resource:agent-memory", "codex", `{"error":"access denied","op":"resource:agent-memory","agent":"openclaw","tier":"quarantined","detail":"namespace 'codex' not granted"}`},
		{"query_agent_memory", `<"\>`, `{"error":"access denied","op":"query_agent_memory","agent":"openclaw","tier":"quarantined","detail":"namespace '\u003c\"\\\\\u003e' not granted"}`},
	} {
		got, err := json.Marshal(Decide(c.op, openclaw, c.ns).Denial())
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != c.want {
			t.Errorf("%s: got  %s\nwant %s", c.op, got, c.want)
		}
	}
	if d := Decide("find_entity", openclaw, "").Denial(); d != nil {
		t.Errorf("allowed call has a denial: %+v", d)
	}
}

func TestDecisionEntries(t *testing.T) {
	openclaw := Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"claude-code"}, Transport: HTTP}
	for _, c := range []struct {
		d    Decision
		want Entry
	}{
		{Decide("find_entity", openclaw, ""), Entry{Agent: "openclaw", Op: "find_entity", Namespace: "*", Decision: "allow"}},
		{Decide("query_agent_memory", openclaw, "codex"), Entry{Agent: "openclaw", Op: "query_agent_memory", Namespace: "codex", Decision: "deny", Detail: "namespace 'codex' not granted"}},
		{Decide("commit_to_federation", openclaw, "openclaw"), Entry{Agent: "openclaw", Op: "commit_to_federation", Namespace: "openclaw", Decision: "allow", Detail: "staged"}},
		{Decide("commit_to_federation", Operator(), "clyde"), Entry{Agent: "operator", Op: "commit_to_federation", Namespace: "clyde", Decision: "allow"}},
		{Decide("get_cross_agent_summary", openclaw, ""), Entry{Agent: "openclaw", Op: "get_cross_agent_summary", Namespace: "*", Decision: "deny", Detail: "tier 'quarantined' may not call this tool"}},
	} {
		if diff := cmp.Diff(c.want, c.d.Entry()); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", c.d.Op, diff)
		}
	}
}

// quarantinedMayCall reports whether op is on the quarantined allowlist:
// a quarantined caller may call it at all (perhaps only for granted or own
// namespaces).
func quarantinedMayCall(op string) bool {
	r, ok := rules[op]
	return ok && r.access != trustedOnly
}

func TestQuarantinedAllowlist(t *testing.T) {
	var allowed []string
	for _, op := range Ops() {
		if quarantinedMayCall(op) {
			allowed = append(allowed, op)
		}
	}
	want := []string{
		"advance_stage", "code_sample_search", "commit_to_federation", "completion", "describe_caller", "describe_schema",
		"docs_fetch", "docs_search", "explain_memory_change", "export_agents",
		"find_entity", "get_dod", "get_learning_path", "get_related", "get_request", "list_agents", "list_memory_versions",
		"list_notes", "list_recent_work", "list_requests", "list_workstreams", "query_agent_memory", "query_graph",
		"request_intake", "resolve_xref", "resource:agent-memory", "resource:agents", "resource:entity", "resource:node",
	}
	if diff := cmp.Diff(want, allowed); diff != "" {
		t.Errorf("allowlist (-want +got)\n%s", diff)
	}
	if quarantinedMayCall("no_such_tool") {
		t.Error("an unknown op is on the allowlist")
	}
}

func TestPyRepr(t *testing.T) {
	// Expected values are Python 3's repr().
	for in, want := range map[string]string{
		"codex":                `'codex'`,
		"it's":                 `"it's"`,
		`say "hi"`:             `'say "hi"'`,
		`both ' "`:             `'both \' "'`,
		"nl\n":                 `'nl\n'`,
		"\x00\x7f\u0085\u00a0": `'\x00\x7f\x85\xa0'`,
		"\u200b":               `'\u200b'`,
		"\U000e0001":           `'\U000e0001'`,
		"é":                    `'é'`,
		`back\slash`:           `'back\\slash'`,
	} {
		if got := pyfmt.Quote(in); got != want {
			t.Errorf("pyfmt.Quote(%q) = %s, want %s", in, got, want)
		}
	}
}
