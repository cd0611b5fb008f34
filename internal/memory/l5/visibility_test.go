package l5

import (
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestPolicyAndPrivateTagsRaiseVisibility(t *testing.T) {
	doc, err := yaml11.Decode([]byte(`
spec_version: '0.1'
agent: {id: a, type: other}
last_updated: x
visibility_policy: {default: team, private_tags: [client-confidential], team_tags: [internal]}
known_entities:
- {name: Plain}
- {name: Open, visibility: public}
- {name: Payroll, tags: [Financial], visibility: public}
- {name: Vault, tags: [client-confidential]}
- {name: Roadmap, tags: [internal], visibility: public}
recent_sessions:
- {date: '2026-06-20', tags: [personal]}
`))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := FromValue(doc, "a")
	want := map[string]visibility.Level{
		"Plain":   visibility.Team,    // the policy's default
		"Open":    visibility.Public,  // explicit
		"Payroll": visibility.Private, // a private tag family beats the explicit value
		"Vault":   visibility.Private, // the policy's private tag
		"Roadmap": visibility.Team,    // the policy's team tag raises public
	}
	for _, e := range m.Entities {
		if e.Visibility != want[e.Name] {
			t.Errorf("%s: %v, want %v", e.Name, e.Visibility, want[e.Name])
		}
	}
	if m.Sessions[0].Visibility != visibility.Private {
		t.Errorf("a session tagged personal: %v", m.Sessions[0].Visibility)
	}
}
