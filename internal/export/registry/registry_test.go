package registry

import (
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

func TestTableIsSortedUniqueAndValid(t *testing.T) {
	ids := []string{}
	for _, e := range All() {
		info := e.Info()
		if !l5.ValidAgentID(info.ID) {
			t.Errorf("%q is not a valid agent id", info.ID)
		}
		if !slices.Contains(l5.AgentTypes, info.Type) {
			t.Errorf("%s: agent type %q is not in the L5 schema", info.ID, info.Type)
		}
		if info.Label == "" {
			t.Errorf("%s: no label", info.ID)
		}
		if got, ok := Lookup(info.ID); !ok || got.Info().ID != info.ID {
			t.Errorf("Lookup(%q) failed", info.ID)
		}
		ids = append(ids, info.ID)
	}
	if !slices.IsSortedFunc(ids, strings.Compare) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("the table must be sorted by id without duplicates: %v", ids)
	}
	if _, ok := Lookup("no-such-agent"); ok {
		t.Error("Lookup found an unknown id")
	}
	var _ export.Exporter // the table's element type
}

func TestLabelsAreTheReferenceDisplayNames(t *testing.T) {
	for id, want := range map[string]string{
		"claude-desktop-code":   "Claude Desktop · Code",
		"claude-desktop-cowork": "Claude Desktop · Co-Work",
		"copilot-cli":           "GitHub Copilot CLI",
		"copilot-vscode":        "GitHub Copilot · VS Code",
	} {
		e, ok := Lookup(id)
		if !ok {
			t.Errorf("%s is not registered", id)
			continue
		}
		if got := e.Info(); got.Label != want || got.Type != "code-assistant" {
			t.Errorf("%s: %+v", id, got)
		}
	}
}
