// Package demo writes a small, believable library for a first look at the
// server: three coding agents that share a project, with sessions dated in
// the last two weeks so the default window shows them.
package demo

import (
	"os"
	"path/filepath"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Write creates dir/agents/ with the demo manifests, dating sessions
// relative to today.
func Write(dir string, today time.Time) error {
	agentsDir := filepath.Join(dir, "agents")
	if err := os.MkdirAll(agentsDir, 0o755); err != nil {
		return err
	}
	day := func(ago int) string { return today.AddDate(0, 0, -ago).Format("2006-01-02") }
	stamp := today.UTC().Format("2006-01-02T15:04:05+00:00")
	for _, a := range agents(day, stamp) {
		data, err := yaml11.Encode(a)
		if err != nil {
			return err
		}
		id, _ := a.Value("agent").(*yaml11.Map).Value("id").(string)
		if err := os.WriteFile(filepath.Join(agentsDir, id+".l5.yaml"), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// row builds a mapping from alternating keys and values.
func row(kv ...any) *yaml11.Map {
	m := yaml11.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

func list(items ...any) []any { return items }

func agents(day func(int) string, stamp string) []*yaml11.Map {
	return []*yaml11.Map{
		row(
			"spec_version", "0.1",
			"agent", row("id", "claude-code", "type", "code-assistant", "instance", "demo-laptop",
				"role_narrative", "Lead code assistant on the payments service."),
			"last_updated", stamp,
			"capabilities", list("code-read", "code-write"),
			"known_entities", list(
				row("name", "Payments API", "type", "project", "aliases", list("payments", "pay-api"),
					"summary", "Go service that settles card payments; owns the ledger tables.", "tags", list("backend"), "visibility", "public"),
				row("name", "Ledger migration", "type", "decision",
					"summary", "Move ledger writes to an outbox table before the Q3 freeze.", "tags", list("team"), "visibility", "team"),
				row("name", "Salary review", "type", "concept", "summary", "Personal note, never shared.", "visibility", "private"),
			),
			"recent_sessions", list(
				row("date", day(1), "cwd", "/home/dev/payments", "project_focus", list("Payments API"),
					"key_actions", list("added idempotency keys to the refund endpoint"), "files_touched", list("api/refund.go"), "visibility", "public"),
				row("date", day(3), "cwd", "/home/dev/payments", "project_focus", list("Ledger migration"),
					"key_actions", list("drafted the outbox schema"), "visibility", "team"),
			),
			"known_workstreams", list(
				row("name", "Outbox rollout", "status", "active", "summary", "Ship the ledger outbox behind a flag.",
					"started", day(20), "last_touched", day(1), "related_entities", list("Ledger migration"), "visibility", "team"),
			),
			"notes", list(
				row("date", day(2), "text", "Refund retries double-post when the gateway times out; idempotency keys fix it.",
					"related_entities", list("Payments API"), "tags", list("bug"), "visibility", "public"),
			),
		),
		row(
			"spec_version", "0.1",
			"agent", row("id", "codex", "type", "code-assistant", "role_narrative", "Reviewer and test writer."),
			"last_updated", stamp,
			"known_entities", list(
				row("name", "Payments API", "type", "project", "summary", "Reviewed the refund flow; tests cover partial refunds.", "visibility", "public"),
				row("name", "Flaky CI", "type", "ticket", "summary", "Integration tests time out on the shared runner.", "tags", list("ci"), "visibility", "public"),
			),
			"recent_sessions", list(
				row("date", day(1), "cwd", "/home/dev/payments", "project_focus", list("Payments API"),
					"key_actions", list("wrote table tests for partial refunds"), "visibility", "public"),
				row("date", day(5), "cwd", "/home/dev/ci", "project_focus", list("Flaky CI"),
					"key_actions", list("bisected the runner timeout"), "visibility", "public"),
			),
		),
		row(
			"spec_version", "0.1",
			"agent", row("id", "cursor", "type", "code-assistant", "role_narrative", "Front-end work in the editor."),
			"last_updated", stamp,
			"known_entities", list(
				row("name", "Checkout page", "type", "project", "aliases", list("checkout"), "summary", "React checkout that calls the Payments API.", "visibility", "public"),
			),
			"recent_sessions", list(
				row("date", day(2), "cwd", "/home/dev/web", "project_focus", list("Checkout page", "Payments API"),
					"key_actions", list("showed refund status on the order page"), "visibility", "public"),
			),
		),
	}
}
