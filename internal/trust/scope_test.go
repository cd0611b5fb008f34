package trust

import (
	"slices"
	"testing"
)

func TestScopeOf(t *testing.T) {
	for op := range opScopes {
		if _, ok := rules[op]; !ok {
			t.Errorf("opScopes names %q, which the policy table does not", op)
		}
	}
	cases := map[string]string{
		"find_entity":           ScopeRead,
		"resource:agent-memory": ScopeRead,
		"commit_to_federation":  ScopeWrite,
		"reload_library":        ScopeAdmin,
		"no_such_tool":          ScopeAdmin,
	}
	for op, want := range cases {
		if got := ScopeOf(op); got != want {
			t.Errorf("ScopeOf(%q) = %q, want %q", op, got, want)
		}
	}
	if got := TierQuarantined.Scopes(); slices.Contains(got, ScopeAdmin) {
		t.Errorf("quarantined scopes %v include admin", got)
	}
	if got := TierTrusted.Scopes(); !slices.Equal(got, Scopes) {
		t.Errorf("trusted scopes %v, want %v", got, Scopes)
	}
}
