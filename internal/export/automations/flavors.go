package automations

import (
	"path/filepath"
	"regexp"

	"github.com/getbourdon/bourdon-go/internal/export"
)

// The four agents.
var (
	ClaudeCode = Exporter{claudeCode}
	Codex      = Exporter{codex}
	Copilot    = Exporter{copilot}
	Cursor     = Exporter{cursor}
)

// flavor is what differs between the four readers.
type flavor struct {
	id, label    string
	product      string // "Claude Code", in sentences the rows carry
	tag          string // "claude-code-automation"
	narrative    string
	compat       string // agent.spec_version_compat
	teamTags     []string
	capabilities []string
	// copilot automations name a trigger and repositories instead of a
	// schedule and working directories, and keep every action line.
	copilot bool
	// ellipsis ends a cut text ("..." or "…").
	ellipsis string
	hints    []string
	signals  []signal
	// dir returns the automations directory.
	dir func(env *export.Env) string
	// format describes automation.toml, for the health's fix.
	format string
}

type signal struct {
	name string
	re   *regexp.Regexp
}

// projectHints are the project names looked for in run text (the
// reference's vocabulary, kept for parity).
var projectHints = []string{
	"ShipStable", "ILTT", "Prun", "PRUN", "OMNIvour", "Castmore", "Bourdon", "RADLAB",
	"CHIP", "Claude Brain", "Cursor", "Copilot", "Codex", "Cascade",
}

func commonSignals(ci string) []signal {
	s := []signal{
		{"human-dashboard-action", regexp.MustCompile(`(?i)\b(human|ryan|dashboard|manual)\b`)},
		{"release-gate", regexp.MustCompile(`(?i)\b(release|store|app review|play console|testflight)\b`)},
		{"billing-drift", regexp.MustCompile(`(?i)\b(billing|stripe|revenuecat|iap|subscription)\b`)},
		{"memory-coverage-gap", regexp.MustCompile(`(?i)\b(memory|l5|manifest|federated|bourdon)\b`)},
		{"launch-decision", regexp.MustCompile(`(?i)\b(launch|go-live|pricing|prod|production)\b`)},
	}
	if ci != "" {
		s = append(s, signal{"ci-signal", regexp.MustCompile(`(?i)\b(` + ci + `)\b`)})
	}
	return s
}

var privateTags = export.PrivateTags()

const scheduleFormat = "id, name, status, rrule, kind, cwds"

var claudeCode = &flavor{
	id: "claude-code-automations", label: "Claude Code Automations", product: "Claude Code", tag: "claude-code-automation",
	narrative: "Publishes read-only Claude Code automation run memory into Bourdon so " +
		"scheduled /loop continuations, CronCreate jobs, GitHub Action runs of " +
		"claude-code-action, and /schedule remote-routine summaries become " +
		"visible alongside interactive Claude Code sessions.",
	compat:       "0.1",
	teamTags:     []string{"claude-code-automation", "automation", "workspace"},
	capabilities: []string{"claude-code-automation-memory", "run-summary-publication"},
	ellipsis:     "...",
	hints:        projectHints,
	signals:      commonSignals("github action|workflow run|ci failure|gh action"),
	dir: func(env *export.Env) string {
		if v := env.Var("CLAUDE_AUTOMATIONS_DIR"); v != "" {
			return abs(env, v)
		}
		if v := env.Var("CLAUDE_HOME"); v != "" {
			return filepath.Join(abs(env, v), "automations")
		}
		return env.HomePath(".claude", "automations")
	},
	format: scheduleFormat,
}

var codex = &flavor{
	id: "codex-automations", label: "Codex Automations", product: "Codex", tag: "codex-automation",
	narrative: "Publishes read-only Codex automation run memory into Bourdon so background " +
		"monitors, digests, and recurring checks are visible alongside interactive " +
		"agent sessions.",
	compat:       "0.1",
	teamTags:     []string{"codex-automation", "automation", "workspace"},
	capabilities: []string{"codex-automation-memory", "run-summary-publication"},
	ellipsis:     "...",
	hints:        projectHints[:12], // not Codex nor Cascade
	signals:      commonSignals(""),
	dir: func(env *export.Env) string {
		if v := env.Var("CODEX_HOME"); v != "" {
			return filepath.Join(abs(env, v), "automations")
		}
		return env.HomePath(".codex", "automations")
	},
	format: scheduleFormat,
}

var cursor = &flavor{
	id: "cursor-automations", label: "Cursor Automations", product: "Cursor", tag: "cursor-automation",
	narrative: "Publishes read-only Cursor Cloud Agent automation run memory into Bourdon " +
		"so background PR reviews, code generation tasks, and scheduled agent runs " +
		"become visible alongside interactive Cursor IDE sessions.",
	compat:       "0.1",
	teamTags:     []string{"cursor-automation", "automation", "workspace"},
	capabilities: []string{"cursor-automation-memory", "run-summary-publication"},
	ellipsis:     "...",
	hints:        projectHints,
	signals:      commonSignals("github action|workflow run|ci|cd|deploy|pipeline"),
	dir: func(env *export.Env) string {
		for _, k := range []string{"CURSOR_DIR", "CURSOR_HOME"} {
			if v := env.Var(k); v != "" {
				return filepath.Join(abs(env, v), "automations")
			}
		}
		return env.HomePath(".cursor", "automations")
	},
	format: scheduleFormat,
}

var copilot = &flavor{
	id: "copilot-automations", label: "GitHub Copilot · Automations", product: "Copilot", tag: "copilot-automation",
	narrative: "Publishes read-only Copilot automation run memory into Bourdon so " +
		"GitHub Actions-triggered Copilot tasks, scheduled PR reviews, issue " +
		"triage, and other event-driven Copilot work are visible alongside " +
		"interactive agent sessions.",
	compat:       ">=0.1",
	teamTags:     []string{"copilot-automation", "automation", "github-actions", "workspace"},
	capabilities: []string{"copilot-automation-memory", "run-summary-publication"},
	copilot:      true,
	ellipsis:     "…",
	dir: func(env *export.Env) string {
		if v := env.Var("COPILOT_AUTOMATIONS_HOME"); v != "" {
			return abs(env, v)
		}
		if v := env.Var("COPILOT_BOURDON_HOME"); v != "" {
			return filepath.Join(abs(env, v), "automations")
		}
		return env.HomePath(".copilot-bourdon", "automations")
	},
	format: "id, name, status, trigger, kind, repos",
}

// abs expands "~" and makes a relative path relative to the working
// directory.
func abs(env *export.Env, p string) string {
	p = env.ExpandHome(p)
	if !filepath.IsAbs(p) && env.Cwd != "" {
		p = filepath.Join(env.Cwd, p)
	}
	return p
}
