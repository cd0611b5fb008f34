package registry

import (
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

// lookup returns the exporter of agent id.
func lookup(id string) (export.Exporter, bool) {
	i, ok := slices.BinarySearchFunc(All(), id, func(e export.Exporter, id string) int {
		return strings.Compare(e.Info().ID, id)
	})
	if !ok {
		return nil, false
	}
	return All()[i], true
}

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
		if got, ok := lookup(info.ID); !ok || got.Info().ID != info.ID {
			t.Errorf("lookup(%q) failed", info.ID)
		}
		ids = append(ids, info.ID)
	}
	if !slices.IsSortedFunc(ids, strings.Compare) || len(slices.Compact(slices.Clone(ids))) != len(ids) {
		t.Errorf("the table must be sorted by id without duplicates: %v", ids)
	}
	if _, ok := lookup("no-such-agent"); ok {
		t.Error("lookup found an unknown id")
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
		e, ok := lookup(id)
		if !ok {
			t.Errorf("%s is not registered", id)
			continue
		}
		if got := e.Info(); got.Label != want || got.Type != "code-assistant" {
			t.Errorf("%s: %+v", id, got)
		}
	}
}
