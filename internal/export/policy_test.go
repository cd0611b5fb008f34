package export

import "testing"

func TestPolicyResolvePrecedence(t *testing.T) {
	p := &Policy{Default: "team", PrivateTags: []string{"personal"}, TeamTags: []string{"workspace"}}
	for _, c := range []struct {
		own  string
		tags []string
		want string
	}{
		{"public", []string{"personal"}, "private"}, // a private tag beats the row's own level
		{"public", []string{"workspace"}, "public"}, // the row's own level beats team tags
		{"", []string{"workspace"}, "team"},
		{"", nil, "team"},
	} {
		if got := p.Resolve(c.own, c.tags); got != c.want {
			t.Errorf("Resolve(%q, %v) = %q, want %q", c.own, c.tags, got, c.want)
		}
	}
	if got := (&Policy{Default: "public"}).Resolve("", nil); got != "public" {
		t.Errorf("default: %q", got)
	}
	if got := (*Policy)(nil).Resolve("", nil); got != "team" {
		t.Errorf("no policy: %q", got)
	}
}

func TestStampDropsPrivateEntitiesAndStampsEveryRow(t *testing.T) {
	o := &Output{
		Policy:   &Policy{Default: "team", PrivateTags: []string{"credential"}},
		Entities: []Entity{{Name: "a"}, {Name: "b", Tags: []string{"credential"}}, {Name: "c", Visibility: "public"}},
		Sessions: []Session{{Date: "2026-01-02"}},
	}
	o.Stamp()
	if len(o.Entities) != 2 || o.Entities[0].Visibility != "team" || o.Entities[1].Visibility != "public" {
		t.Errorf("entities = %+v", o.Entities)
	}
	if o.Sessions[0].Visibility != "team" {
		t.Errorf("session = %+v", o.Sessions[0])
	}
}
