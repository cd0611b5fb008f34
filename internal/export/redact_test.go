package export

import (
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// TestRedactDocumentReachesEveryString: a credential in any string of a
// manifest (an alias, a session's cwd, key actions and files, the role
// narrative, a policy tag) is replaced, and the output is a copy.
func TestRedactDocumentReachesEveryString(t *testing.T) {
	secret := "ghp_" + strings.Repeat("a1B2", 9) // a GitHub token: the server's battery knows its shape
	out := &Output{
		Agent:        Agent{ID: "alpha", Type: "code-assistant", Instance: "host", RoleNarrative: "token " + secret},
		SpecVersion:  "0.1",
		Capabilities: []string{"chat"},
		Entities:     []Entity{{Name: "N", Aliases: []string{secret}, Tags: []string{"ok"}, Visibility: "team"}},
		Sessions:     []Session{{Date: "2026-06-01", Cwd: "/home/" + secret, KeyActions: []string{"pushed with " + secret}, FilesTouched: []string{secret}}},
		Policy:       &Policy{Default: "team", TeamTags: []string{secret}},
	}
	doc := RedactDocument(out.Manifest("2026-06-30T12:00:00+00:00")).(*yaml11.Map)
	data, _ := yaml11.Encode(doc)
	if strings.Contains(string(data), secret) || strings.Count(string(data), redact.Sentinel) != 6 {
		t.Errorf("%s", data)
	}
	original, _ := yaml11.Encode(out.Manifest("x"))
	if !strings.Contains(string(original), secret) {
		t.Error("RedactDocument must copy, not modify")
	}
}
