// Package registry lists the exporters bourdon ships, in agent-id order:
// the order every loop over agents (export-all, doctor, setup) uses, as
// the reference's sorted discovery does.
package registry

import (
	"slices"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/automations"
	"github.com/getbourdon/bourdon-go/internal/export/claudecode"
	"github.com/getbourdon/bourdon-go/internal/export/claudedesktop"
	"github.com/getbourdon/bourdon-go/internal/export/codex"
	"github.com/getbourdon/bourdon-go/internal/export/convention"
	"github.com/getbourdon/bourdon-go/internal/export/copilotcli"
	"github.com/getbourdon/bourdon-go/internal/export/copilotvscode"
	"github.com/getbourdon/bourdon-go/internal/export/cursor"
)

// all is the static table of exporters. Keep it sorted by agent id (a test
// checks it).
var all = []export.Exporter{
	convention.Cascade,       // cascade
	claudecode.Exporter{},    // claude-code
	automations.ClaudeCode,   // claude-code-automations
	claudedesktop.Code,       // claude-desktop-code
	claudedesktop.Cowork,     // claude-desktop-cowork
	codex.New(),              // codex
	automations.Codex,        // codex-automations
	convention.Copilot,       // copilot
	automations.Copilot,      // copilot-automations
	copilotcli.Exporter{},    // copilot-cli
	copilotvscode.Exporter{}, // copilot-vscode
	cursor.New(),             // cursor
	automations.Cursor,       // cursor-automations
}

// All returns every exporter, sorted by agent id.
func All() []export.Exporter { return slices.Clone(all) }
