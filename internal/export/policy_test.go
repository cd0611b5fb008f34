package export

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPolicyLevelFollowsTheReferenceOrder(t *testing.T) {
	p := Policy{Default: "public", PrivateTags: []string{"personal", "credential"}, TeamTags: []string{"internal-roadmap"}}
	for _, c := range []struct {
		own  string
		tags []string
		want string
	}{
		{"", nil, "public"},
		{"", []string{"internal-roadmap"}, "team"},
		{"public", []string{"internal-roadmap"}, "public"}, // own beats team tags
		{"public", []string{"personal"}, "private"},        // private tags beat everything
		{"", []string{"Personal "}, "private"},             // tags match without case
		{"Team", nil, "team"},
		{"confidential", nil, "private"}, // unknown names fail closed
	} {
		if got := p.Level(c.own, c.tags); got != c.want {
			t.Errorf("Level(%q, %v) = %q, want %q", c.own, c.tags, got, c.want)
		}
	}
	if got := (Policy{}).Level("", nil); got != "team" {
		t.Errorf("a policy without a default resolves to %q, want team", got)
	}
}

func TestStampDropsPrivateEntitiesAndStampsTheRest(t *testing.T) {
	p := Policy{Default: "team", PrivateTags: []string{"personal"}}
	in := []Entity{{Name: "a"}, {Name: "b", Tags: []string{"personal"}}, {Name: "c", Visibility: "public"}, {Name: "d", Visibility: "private"}}
	got := p.StampEntities(in)
	var names, levels []string
	for _, e := range got {
		names, levels = append(names, e.Name), append(levels, e.Visibility)
	}
	if !slices.Equal(names, []string{"a", "c"}) || !slices.Equal(levels, []string{"team", "public"}) {
		t.Errorf("kept %v with %v", names, levels)
	}
	if in[0].Visibility != "" {
		t.Error("the input was modified")
	}
	ss := p.StampSessions([]Session{{Date: "2026-11-05"}, {Date: "2026-11-06", Visibility: "private"}, {Date: "2026-11-07", Visibility: "public"}})
	if len(ss) != 2 || ss[0].Visibility != "team" || ss[1].Visibility != "public" {
		t.Errorf("sessions: %+v", ss)
	}
}

func TestExcludeMarker(t *testing.T) {
	dir := t.TempDir()
	if Excluded(dir) {
		t.Error("no marker yet")
	}
	if err := os.WriteFile(filepath.Join(dir, ExcludeMarker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !Excluded(dir) {
		t.Error("the marker is not seen")
	}
}
