package docs

import (
	"errors"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

func TestMonikerRange(t *testing.T) {
	registry := []graph.Moniker{
		{Name: "yuva-1.0", Product: "yuva", Order: 100},
		{Name: "yuva-2.0", Product: "yuva", Order: 200},
		{Name: "yuva-3.0", Product: "yuva", Order: 300},
		{Name: "namzu-1.0", Product: "namzu", Order: 100},
	}
	tests := []struct {
		rng  string
		in   []string
		out  []string
		errs bool
	}{
		{rng: ">=yuva-2.0", in: []string{"yuva-2.0", "yuva-3.0"}, out: []string{"yuva-1.0", "namzu-1.0"}},
		{rng: ">= yuva-2.0 <yuva-3.0", in: []string{"yuva-2.0"}, out: []string{"yuva-1.0", "yuva-3.0"}},
		{rng: "yuva-1.0 || namzu-1.0", in: []string{"yuva-1.0", "namzu-1.0"}, out: []string{"yuva-2.0", "unknown"}},
		{rng: "<=yuva-1.0||>yuva-2.0", in: []string{"yuva-1.0", "yuva-3.0"}, out: []string{"yuva-2.0"}},
		{rng: "=namzu-1.0", in: []string{"namzu-1.0"}, out: []string{"yuva-1.0"}},
		{rng: "", errs: true},
		{rng: "yuva-1.0 ||", errs: true},
		{rng: ">=", errs: true},
		{rng: "yuva-1.0 ~ yuva-2.0", errs: true},
	}
	for _, tt := range tests {
		r, err := ParseMonikerRange(tt.rng)
		if (err != nil) != tt.errs {
			t.Errorf("ParseMonikerRange(%q): %v", tt.rng, err)
			continue
		}
		for _, m := range tt.in {
			if !r.Includes(m, registry) {
				t.Errorf("%q does not include %s", tt.rng, m)
			}
		}
		for _, m := range tt.out {
			if r.Includes(m, registry) {
				t.Errorf("%q includes %s", tt.rng, m)
			}
		}
	}
	r, _ := ParseMonikerRange(">=yuva-2.0 || cogi-1.0")
	if got := r.unknown(registry); len(got) != 1 || got[0] != "cogi-1.0" {
		t.Errorf("unknown %v", got)
	}
}

func TestContentFor(t *testing.T) {
	registry := []graph.Moniker{{Name: "yuva-1.0", Product: "yuva", Order: 100}, {Name: "yuva-2.0", Product: "yuva", Order: 200}}
	md := "intro\n::: moniker range=\">=yuva-2.0\"\nnew way\n:::\n::: moniker range=\"<yuva-2.0\"\nold way\n:::moniker-end\n```\n::: moniker range=\"<yuva-2.0\"\n```\nend\n"
	for moniker, want := range map[string]string{
		"yuva-2.0": "intro\nnew way\n```\n::: moniker range=\"<yuva-2.0\"\n```\nend\n",
		"yuva-1.0": "intro\nold way\n```\n::: moniker range=\"<yuva-2.0\"\n```\nend\n",
		"":         md,
	} {
		if got := ContentFor(md, moniker, registry); got != want {
			t.Errorf("%q:\n%q\nwant\n%q", moniker, got, want)
		}
	}
}

func TestAppliesTo(t *testing.T) {
	registry := []graph.Moniker{
		{Name: "yuva-1.0", Product: "yuva", Order: 100},
		{Name: "yuva-2.0", Product: "yuva", Order: 200},
	}
	node := func(rng string) *graph.Node {
		n := &graph.Node{UID: "d", Label: graph.Doc, Props: map[string]any{}}
		if rng != "" {
			n.Props["monikerRange"] = rng
		}
		return n
	}
	for _, ok := range []struct{ rng, moniker string }{{">=yuva-2.0", ""}, {"", "yuva-1.0"}, {">=yuva-2.0", "yuva-2.0"}} {
		if err := AppliesTo(node(ok.rng), ok.moniker, registry); err != nil {
			t.Errorf("%q in %q: %v", ok.moniker, ok.rng, err)
		}
	}
	var unknown *UnknownMonikerError
	if err := AppliesTo(node(""), "namzu-1.0", registry); !errors.As(err, &unknown) || err.Error() != `unknown moniker "namzu-1.0"; known monikers: yuva-1.0, yuva-2.0` {
		t.Errorf("unknown moniker: %v", err)
	}
	var na *NotApplicableError
	for _, rng := range []string{">=yuva-2.0", "yuva-1.0 ~"} {
		if err := AppliesTo(node(rng), "yuva-1.0", registry); !errors.As(err, &na) || na.Range != rng || err.Error() != "d does not apply to yuva-1.0 (it applies to "+rng+")" {
			t.Errorf("range %q: %v", rng, err)
		}
	}
}
