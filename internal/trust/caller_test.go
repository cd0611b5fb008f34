package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func TestTiers(t *testing.T) {
	for _, c := range []struct {
		tier       Tier
		name, wire string
	}{
		{TierQuarantined, "quarantined", "quarantined"},
		{TierTrusted, "trusted", "trusted"},
		{TierOperator, "operator", "trusted"},
		{Tier(42), "quarantined", "quarantined"},
	} {
		if c.tier.String() != c.name || c.tier.Wire() != c.wire {
			t.Errorf("tier %d: String %q Wire %q, want %q %q", c.tier, c.tier.String(), c.tier.Wire(), c.name, c.wire)
		}
	}
	var zero Caller
	if zero.IsTrusted() || zero.MayRead("codex") {
		t.Error("the zero Caller is trusted")
	}
}

func TestMayRead(t *testing.T) {
	q := Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"claude-code"}}
	for _, c := range []struct {
		caller Caller
		ns     string
		want   bool
	}{
		{Operator(), "codex", true},
		{Operator(), "", true},
		{Caller{ID: "clyde", Tier: TierTrusted}, "codex", true},
		{q, "claude-code", true},
		{q, "codex", false},
		{q, "openclaw", false}, // its own namespace is writable (staged), not readable
		{q, "", false},
		{q, "*", false},
		{unidentified(), "claude-code", false},
	} {
		if got := c.caller.MayRead(c.ns); got != c.want {
			t.Errorf("%s (%s).MayRead(%q) = %v, want %v", c.caller.ID, c.caller.Tier, c.ns, got, c.want)
		}
	}
}

// unidentified is the caller of an HTTP request that carries no
// authenticated identity, were one to reach a tool: the reference fails
// closed, an unknown quarantined caller with no grants.
func unidentified() Caller {
	return Caller{ID: UnidentifiedID, Tier: TierQuarantined, Transport: HTTP}
}

func TestOperator(t *testing.T) {
	if diff := cmp.Diff(Caller{ID: "operator", Tier: TierOperator, Transport: Stdio}, Operator()); diff != "" {
		t.Errorf("Operator (-want +got)\n%s", diff)
	}
}

func TestAuthenticateLegacy(t *testing.T) {
	for _, c := range []struct {
		configured, presented string
		ok                    bool
	}{
		{"", "", false}, // the reference lets this through when the variable is set but empty
		{"", "anything", false},
		{"s3cret", "", false},
		{"s3cret", "s3cre", false},
		{"s3cret", "s3cret ", false},
		{"s3cret", "S3CRET", false},
		{"s3cret", "s3cret", true},
	} {
		got, ok := AuthenticateLegacy(c.configured, c.presented)
		if ok != c.ok {
			t.Errorf("AuthenticateLegacy(%q, %q) = %v, want %v", c.configured, c.presented, ok, c.ok)
			continue
		}
		want := Caller{}
		if ok {
			want = Caller{ID: "operator", Tier: TierOperator, Transport: HTTP}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("caller (-want +got)\n%s", diff)
		}
	}
}

func TestAccessCapPerTier(t *testing.T) {
	quarantined := Caller{ID: "openclaw", Tier: TierQuarantined, Grants: []string{"codex"}}
	for _, c := range []struct {
		caller Caller
		max    visibility.Level
	}{
		{Operator(), visibility.Private},
		{Caller{ID: "peer", Tier: TierTrusted}, visibility.Private},
		{quarantined, visibility.Public},
		{unidentified(), visibility.Public},
		{Caller{}, visibility.Public}, // the zero value is the least privilege
	} {
		if got := c.caller.MaxAccess(); got != c.max {
			t.Errorf("%s (%s): MaxAccess %s, want %s", c.caller.ID, c.caller.Tier, got, c.max)
		}
		for _, asked := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
			got, capped := c.caller.CapAccess(asked)
			if want := min(asked, c.max); got != want || capped != (asked > c.max) {
				t.Errorf("%s asking %s: got %s capped=%v", c.caller.ID, asked, got, capped)
			}
		}
	}
}
