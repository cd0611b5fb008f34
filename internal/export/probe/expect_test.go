package probe

// The expectations below were written blind, from the behaviour spec
// (/work/shared/reference/bourdon-exporters-spec.md, sections 1-10 and 12)
// alone, before reading the exporters' code. They say what the Python
// reference writes. Where the spec is ambiguous the expectation says so in
// a Note and, when no reading is clearly better, leaves the field out of the
// comparison (Skip).
//
// Conventions: an empty string or a nil list means "absent from the row";
// {{HOME}} is the temporary HOME; HOST is the machine's host name.

import (
	"maps"
	"slices"
	"strings"
	"time"
)

type scenario struct {
	Name   string
	Env    map[string]string
	Args   []string
	Agents []agentExp
	Check  func(c *comparer, res *runResult)
}

type policy struct {
	Default string
	Private []string
	Team    []string // nil: not compared (the spec does not say)
}

type agentExp struct {
	Agent   string
	NoStore bool   // the agent has no store in this scenario
	Status  string // ok | empty (a manifest without rows) | error | skipped
	Type    string
	// Instance: "HOST" for the host name, "" for absent.
	Instance        string
	Compat          string
	Caps            []string
	Policy          *policy
	RowVis          string // the visibility every row carries ("" = none, so public at L6)
	Entities        []ent
	EntitiesOrdered bool // the order of Entities is part of the expectation
	EntitiesOpen    bool // other entities may be present
	Sessions        []sess
	SessionsOpen    bool
	Warn            []string // substrings some warning must contain
	Absent          []string // texts that must not appear anywhere in the manifest
	Skip            string   // header fields not compared
	Notes           []string
}

type ent struct {
	Name                                string
	Type, Summary, LastTouched, ValidTo string
	Vis                                 string // "" = the agent's RowVis
	Tags, Aliases                       []string
	Count                               int // rows with this name, when more than one
	Absent                              bool
	Skip                                string // fields not compared: "summary,tags"
	Note                                string
}

type sess struct {
	Key                   string // a key action (or the first file) that identifies the row
	Date, Cwd             string
	Actions, Focus, Files []string
	Absent                bool
	Skip                  string
	Note                  string
}

var six = []string{"personal", "financial", "credential", "health", "family", "legal"}

const redacted = "[redacted credential-like text]"

func (a agentExp) count() int {
	n := 1 + len(a.Warn) + len(a.Absent)
	if a.Status != "ok" {
		return n
	}
	n += 6 + 1 // header fields, policy; row visibility
	for _, e := range a.Entities {
		if e.Absent {
			n++
			continue
		}
		n += 8 - len(splitSkip(e.Skip))
	}
	for _, s := range a.Sessions {
		if s.Absent {
			n++
			continue
		}
		n += 6 - len(splitSkip(s.Skip))
	}
	if a.EntitiesOrdered {
		n++
	}
	if len(a.Sessions) > 1 {
		n++
	}
	return n
}

func splitSkip(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

func storeCount() int {
	n := 0
	for _, sc := range scenarios() {
		for _, a := range sc.Agents {
			if !a.NoStore {
				n++
			}
		}
		if sc.Check != nil {
			n++ // the empty HOME
		}
	}
	return n
}

// battery A (spec §1.4) on a text with no credential and no link.
func batteryA(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > limit {
		return strings.TrimRight(string(r[:limit-3]), " ") + "..."
	}
	return s
}

func first500(s string) string {
	r := []rune(s)
	if len(r) > 500 {
		r = r[:500]
	}
	return strings.TrimSpace(string(r))
}

var longDesc = strings.TrimSpace(strings.Repeat("Long description of the outbox pattern used by the ledger. ", 12))

var longCLI = strings.TrimSpace(strings.Repeat("Überarbeite die Rückerstattungslogik für doppelte Buchungen — ", 8))

func today() string { return time.Now().UTC().Format("2006-01-02") }

func scenarios() []scenario {
	return []scenario{mainScenario(), altScenario(), emptyScenario()}
}

func mainScenario() scenario {
	return scenario{
		Name: "main",
		Agents: []agentExp{
			{
				Agent: "claude-code", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"auto_memory", "claude_brain", "knowledge_graph"},
				Policy: &policy{"public", six, []string{"internal-roadmap"}},
				RowVis: "",
				Notes: []string{
					"§2: the reference reads only the first project directory with a memory/MEMORY.md (filesystem order); " +
						"the spec's [P] is to read every project in sorted order and merge: expected here (the -atlas project sorts first).",
					"§2: a memory/ directory without MEMORY.md (the -home-dev-scratch project) is not read by the reference; " +
						"whether the [P] 'every project' reading keeps that rule is not said: expected not read.",
				},
				EntitiesOrdered: true, // §2.4: sorted by lower-cased name
				Entities: []ent{
					{Name: "Atlas", Summary: "Tile cache for the map.", Note: "no front matter: H1 cut at ': '"},
					{Name: "Café ledger ☕", Type: "project", Summary: "Ledger entries für Zahlungen — naïve totals ≥ 0, 日本語のメモ",
						Note: "§2.1: a scalar tags value is ignored"},
					{Name: "Deploy", Summary: "--- name: Deploy checklist description: Run migrations before deploy. type: reference ---",
						Note: "§2.1 ⚠: CRLF front matter is not recognised, so the name is the body's H1 and the fences become the summary"},
					{Name: "empty", Skip: "summary", Note: "§2.1: every *.md is a candidate; the empty note is named by its stem. " +
						"Ambiguous: summary '' or absent (an empty string is not dropped by to_dict)"},
					{Name: "Grafana", Type: "tool", Summary: "Dashboards for the ledger", Tags: []string{"tool"}, Note: "a CRLF graph line"},
					{Name: "Kafka", Type: "kafka", Summary: "Event bus | Partitions: 12", Note: "non-string observations skipped; type == lower-cased name: no tag"},
					{Name: "Ledger", Type: "Concept", Tags: []string{"Concept"}, Note: "no observations: no summary"},
					{Name: "Long description", Type: "reference", Summary: first500(longDesc)},
					{Name: "malformed_fm", Summary: "--- name: [unclosed description: x --- Body paragraph here.",
						Note: "§2.1 ⚠6: a YAML error makes the whole text the body"},
					{Name: "NOHEAD", Type: "project", Summary: "Just text without a heading."},
					{Name: "Oldtool", Type: "project", Summary: "Legacy CSV importer.", Tags: []string{"archived"},
						Note: "§2.2 ⚠5: valid_to is computed then dropped by the merge"},
					{Name: "Payments API", Type: "project", Summary: "Refund and payout service with a transactional ledger outbox for every write.",
						Tags: []string{"project", "active", "shipped"}, Note: "§2.4: graph first (name, type), brain's longer summary, tags unioned"},
					{Name: "refund retries", Type: "feedback", Summary: "Refunds double-post when the processor times out; fixed by idempotency keys and a ledger outbox.",
						Tags: []string{"billing", "ledger"}, Note: "duplicate name across two projects, merged case-insensitively"},
					{Name: "Résumé parser", Type: "SoftwareApplication", Summary: "Parses CVs ✓", Tags: []string{"SoftwareApplication"}},
					{Name: "Staging access", Type: "reference", Summary: "Staging DB password is hunter2; token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
						Note: "§2.1 ⚠: auto-memory is never scrubbed; §1.4 ⚠7 no battery knows ghp_ tokens"},
					{Name: "Stripe", Type: "organization", Summary: "Payment processor | Webhooks signed", Tags: []string{"organization"}},
					{Name: "Testing style", Type: "feedback", Summary: "Prefer table-driven tests. Keep fixtures small.",
						Note: "first paragraph: headings skipped, also inside the paragraph"},
					{Name: "Dev's role", Absent: true, Note: "type user: private"},
					{Name: "Therapy schedule", Absent: true, Note: "private tag health"},
					{Name: "Alice Martin", Absent: true, Note: "person type"},
					{Name: "Vault", Absent: true, Note: "battery B on the third observation makes it private"},
					{Name: "Future record", Absent: true, Note: "only type: entity records"},
					{Name: "Stray note", Absent: true, Note: "no MEMORY.md in that memory/ directory (ambiguous, see Notes)"},
				},
				Sessions: []sess{
					{Key: "LOG/2026-11-07-empty.md", Date: "2026-11-07", Files: []string{"LOG/2026-11-07-empty.md"}, Note: "empty log: key_actions [] dropped"},
					{Key: "LOG/2026-11-06-laptop.md", Date: "2026-11-06", Actions: []string{"Reviewed ledger PR."}, Files: []string{"LOG/2026-11-06-laptop.md"}},
					{Key: "LOG/2026-11-06.md", Date: "2026-11-06", Actions: []string{"Shipped refunds v2."}, Files: []string{"LOG/2026-11-06.md"}},
					{Key: "LOG/2026-11-05-desktop-session2.md", Date: "2026-11-05", Actions: []string{"Investigated Atlas tile eviction; cache now capped at 200 MB."},
						Files: []string{"LOG/2026-11-05-desktop-session2.md"}},
				},
				Warn:   []string{"malformed_fm.md", "memory.jsonl"},
				Absent: []string{"PROBE-SENTINEL-TRANSCRIPT", "PROBE-SENTINEL-CURRENT", "Not a dated log"},
			},
			{
				Agent: "codex", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"codex_home", "memories_dir", "memory_md", "sessions_dir", "state_db"},
				Policy: &policy{"team", six, []string{"codex-memory", "workspace"}},
				RowVis: "team",
				Notes: []string{
					"§3.5: the type of memory-topic entities is not named; 'topic' assumed (as for thread topics)",
					"§3.5: a project's summary is 'the first description or task group containing the key'; descriptions assumed first",
				},
				EntitiesOrdered: true, // sorted by (type, lower-cased name)
				Entities: []ent{
					{Name: "backend-first delivery preference", Type: "preference", Summary: "User preference: prefer backend-first delivery", Tags: []string{"codex-preference"}},
					{Name: "exact-path operational guidance", Type: "preference", Summary: "User preference: The user wants exact paths in every answer", Tags: []string{"codex-preference"}},
					{Name: "short commit messages preference", Type: "preference", Summary: "User preference: Default to short commit messages; no emoji", Tags: []string{"codex-preference"},
						Note: "derived name: 'default to' stripped, cut at ';', first non-generic tokens (the generic list is not in the spec)"},
					{Name: "payments-api", Type: "project", Summary: "payments-api retries use exponential backoff", LastTouched: "2026-11-12", Tags: []string{"codex-project"},
						Note: "label: the exact spelling 'payments-api' occurs in the task group"},
					{Name: redacted, Type: "topic", Summary: "Codex thread: " + redacted, LastTouched: "2026-11-09", Tags: []string{"codex-thread"}},
					{Name: "Add idempotency keys to refunds", Type: "topic", Summary: "Codex thread: Add idempotency keys to refunds", LastTouched: "2026-11-12", Tags: []string{"codex-thread"}},
					{Name: "Codex session 2026-11-13", Type: "topic", Summary: "Codex thread: Codex session 2026-11-13", LastTouched: "2026-11-13", Tags: []string{"codex-thread"}},
					{Name: "Fix the tile cache eviction", Type: "topic", Summary: "Codex thread: Fix the tile cache eviction", LastTouched: "2026-11-10", Tags: []string{"codex-thread"}},
					{Name: "Idempotency keys", Type: "topic", Summary: "Codex memory topic: Idempotency keys", Tags: []string{"codex-memory"}},
					{Name: "Investigate flaky CI", Type: "topic", Summary: "Codex thread: Investigate flaky CI", LastTouched: "2026-11-07", Tags: []string{"codex-thread"}},
					{Name: "payments-api refunds", Type: "topic", Summary: "Codex memory topic: payments-api refunds", Tags: []string{"codex-memory"}},
					{Name: "Refund webhook retries", Type: "topic", Summary: "Codex thread: Refund webhook retries", LastTouched: "2026-11-08", Tags: []string{"codex-thread"}},
					{Name: "Review the refund idempotency PR", Type: "topic", Summary: "Codex thread: Review the refund idempotency PR", LastTouched: "2026-11-12", Tags: []string{"codex-thread"},
						Note: "added in phase 2 (not blind), from the reference's output on this fixture"},
					{Name: "Ledger Svc", Absent: true, Note: "placeholder summary only: junk-filtered"},
					{Name: "Atlas", Absent: true, Note: "placeholder summary only: junk-filtered"},
				},
				Sessions: []sess{
					{Key: "Codex session 2026-11-13", Date: "2026-11-13", Cwd: "/home/dev/repos/ledger-svc", Actions: []string{"Codex session 2026-11-13"}, Focus: []string{"Ledger Svc"},
						Note: "state path: an un-indexed rollout dated on or after the newest thread; no files"},
					{Key: "Review the refund idempotency PR", Date: "2026-11-12", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Review the refund idempotency PR"},
						Focus: []string{"payments-api"},
						Note:  "added in phase 2 (not blind): a second thread of the same day in the same cwd is its own session in the reference"},
					{Key: "Add idempotency keys to refunds", Date: "2026-11-12", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Add idempotency keys to refunds"},
						Focus: []string{"payments-api"}, Files: []string{"services/refunds/handler.go", "services/refunds/handler_test.go"},
						Note: "custom_tool_call patches yield nothing (⚠ §3.2); files deduped case-insensitively"},
					{Key: "Fix the tile cache eviction", Date: "2026-11-10", Cwd: "/home/dev/repos/atlas", Actions: []string{"Fix the tile cache eviction"}, Focus: []string{"Atlas"},
						Note: "empty title: the first user message, whitespace collapsed"},
					{Key: redacted, Date: "2026-11-09", Cwd: "/home/dev/repos/payments-api", Actions: []string{redacted}, Focus: []string{"payments-api"}},
					{Key: "Refund webhook retries", Date: "2026-11-08", Cwd: `C:\Users\dev\repos\payments-api`, Actions: []string{"Refund webhook retries"}, Focus: []string{"payments-api"},
						Note: "ISO text in updated_at, date as written; a Windows cwd's base name"},
					{Key: "Investigate flaky CI", Date: "2026-11-07", Cwd: "/home/dev/src", Actions: []string{"Investigate flaky CI"}, Skip: "project_focus",
						Note: "generic cwd: focus by 'the only project if exactly one exists' is ambiguous (keys or entities?)"},
				},
				Absent: []string{"PROBE-SENTINEL-OLD-ROLLOUT", "PROBE-SENTINEL-FALLBACK-BLOCK", "PROBE-SENTINEL-AUTH", "old-thing"},
			},
			{
				Agent: "codex-automations", Status: "ok", Type: "other", Instance: "HOST", Compat: "0.1",
				Caps:   []string{"codex-automation-memory", "run-summary-publication"},
				Policy: &policy{"team", six, nil},
				RowVis: "team",
				Notes: []string{
					"§9: the automation entity's name is not stated; the configuration's name assumed",
					"§9: the signal table's regexes are not given: only the two obvious classes are required (other entities allowed)",
				},
				EntitiesOpen: true,
				Entities: []ent{
					{Name: "Nightly triage", Type: "automation", Summary: "Codex automation 'Nightly triage' (ACTIVE). Schedule: FREQ=DAILY;BYHOUR=2.",
						Tags: []string{"codex-automation", "automation", "active"}, Skip: "last_touched"},
					{Name: "paused-one", Type: "automation", Summary: "Codex automation 'paused-one' (UNKNOWN). Schedule: unspecified.",
						Tags: []string{"codex-automation", "automation", "unknown"}, Skip: "last_touched", Note: "invalid TOML: empty config, id from the directory"},
					{Name: "billing-drift", Type: "automation-signal", Skip: "summary,tags,last_touched"},
					{Name: "human-dashboard-action", Type: "automation-signal", Skip: "summary,tags,last_touched"},
				},
				Sessions: []sess{
					{Key: "run: Nightly triage: " + redacted, Date: "2026-11-23", Cwd: "/home/dev/repos/payments-api",
						Actions: []string{"automation_id: nightly-triage", "run: Nightly triage: " + redacted, redacted},
						Files:   []string{"{{HOME}}/.codex/automations/nightly-triage/automation.toml", "{{HOME}}/.codex/automations/nightly-triage/memory.md"},
						Note:    "text after the date trimmed of spaces and '—'; battery A redacts the whole action"},
					{Key: "run: Nightly triage: Checked billing drift", Date: "2026-11-21", Cwd: "/home/dev/repos/payments-api",
						Actions: []string{"automation_id: nightly-triage", "run: Nightly triage: Checked billing drift", "Checked billing drift", "dashboard needs a manual refresh"},
						Files:   []string{"{{HOME}}/.codex/automations/nightly-triage/automation.toml", "{{HOME}}/.codex/automations/nightly-triage/memory.md"},
						Note:    "'run:' stripped, 'first run' skipped"},
					{Key: "run: Nightly triage: Triaged 4 issues; one release blocker", Date: "2026-11-20", Cwd: "/home/dev/repos/payments-api",
						Actions: []string{"automation_id: nightly-triage", "run: Nightly triage: Triaged 4 issues; one release blocker", "Triaged 4 issues; one release blocker"},
						Files:   []string{"{{HOME}}/.codex/automations/nightly-triage/automation.toml", "{{HOME}}/.codex/automations/nightly-triage/memory.md"},
						Note:    "'runtime' lines skipped; the 2026-11-22 run has no action and is dropped"},
				},
				Warn: []string{"paused-one"},
			},
			{
				Agent: "cursor", Status: "ok", Type: "code-assistant", Instance: "", Compat: "0.1",
				Caps:   []string{"composer-history", "workspace-state"},
				Policy: &policy{"team", []string{"personal", "credential", "secret"}, []string{"cursor", "workspace", "sqlite"}},
				RowVis: "",
				Notes: []string{
					"§4.2 ⚠14: a record without a date is dated today (UTC); it sorts first and makes 'atlas' last touched today",
					"§4.2: an object file entry {uri: file:///…} is assumed to give its uri text unchanged",
					"§4.3: recurring topics come out in Python set order: the entity order is not compared",
				},
				Entities: []ent{
					{Name: "payments-api", Type: "project", Summary: "Cursor workspace inferred from /home/dev/work/payments-api.", LastTouched: "2026-11-14",
						Tags: []string{"cursor", "workspace", "sqlite"}, Aliases: []string{"/home/dev/repos/payments-api", "/home/dev/work/payments-api"},
						Note: "every cwd with that base name; the summary names the cwd of the last row seen"},
					{Name: "atlas", Type: "project", Summary: "Cursor workspace inferred from /home/dev/repos/atlas.", LastTouched: today(),
						Tags: []string{"cursor", "workspace", "sqlite"}, Aliases: []string{"/home/dev/repos/atlas"}},
					{Name: "cache", Type: "topic", Summary: "Recurring topic across 3 Cursor sessions.", LastTouched: "2026-11-14", Tags: []string{"cursor", "topic", "inferred"}},
					{Name: "refactor", Type: "topic", Summary: "Recurring topic across 3 Cursor sessions.", LastTouched: "2026-11-14", Tags: []string{"cursor", "topic", "inferred"}},
					{Name: "Payments outbox", Type: "topic", Summary: "Writes go through the transactional outbox.", LastTouched: "2026-11-10", Vis: "team",
						Tags: []string{"arch", "short-index"}, Aliases: []string{"outbox"}},
					{Name: "Public docs", Type: "topic", Summary: "Docs site", Vis: "public", Tags: []string{"short-index"}},
					{Name: "None", Type: "topic", Summary: "Named by its key", Vis: "team", Tags: []string{"short-index"}, Note: "⚠ a null topic_name becomes the text None"},
					{Name: "Family calendar", Absent: true, Note: "access_level private"},
					{Name: "No key here", Absent: true, Note: "no topic_key"},
					{Name: "ledger-svc", Absent: true, Note: "§4.2 ⚠11: the reference reads no allComposers list"},
				},
				Sessions: []sess{
					{Key: "Undated scratch note", Date: today(), Cwd: "/home/dev/repos/atlas", Actions: []string{"Undated scratch note"}, Note: "⚠14 today"},
					{Key: "Refactor refund retries cache", Date: "2026-11-14", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Refactor refund retries cache"},
						Files: []string{"svc/retry.go"}, Note: "epoch seconds (< 10^10)"},
					{Key: "Cache warmup refactor for tiles", Date: "2026-11-07", Cwd: "/home/dev/repos/atlas", Actions: []string{"Cache warmup refactor for tiles"},
						Files: []string{"tiles/warm.ts"}, Note: "value stored as a BLOB; files from the messages"},
					{Key: redacted, Date: "2026-11-06", Cwd: "/home/dev/work/payments-api", Actions: []string{redacted}},
					{Key: "Refactor tile cache eviction", Date: "2026-11-05", Cwd: "/home/dev/repos/atlas", Actions: []string{"Refactor tile cache eviction"},
						Note: "ISO with an offset: the date as written; cwd from workspace.path"},
					{Key: "Add refund idempotency middleware", Date: "2025-11-04", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Add refund idempotency middleware"},
						Files: []string{"api/refunds.ts", "file:///home/dev/repos/payments-api/api/db.ts"}, Note: "epoch milliseconds"},
					{Key: "Wire ledger outbox", Absent: true, Note: "§4.2 ⚠11: list-shaped composer data is not read by the reference"},
				},
				Absent: []string{"Family calendar", "School runs"},
			},
			{
				Agent: "copilot-cli", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"terminal-agent", "file-edit", "shell-execution", "git-operations", "multi-turn-sessions", "checkpoints", "dynamic-context"},
				Policy: &policy{"team", six, []string{"copilot-cli", "copilot", "terminal", "workspace"}},
				RowVis: "team", EntitiesOrdered: true,
				Entities: []ent{
					{Name: "acme/payments-api", Type: "project", Summary: "Repository worked on via Copilot CLI.", LastTouched: "2026-11-04", Tags: []string{"copilot-cli", "project"}},
					{Name: "acme/atlas", Type: "project", Summary: "Repository worked on via Copilot CLI.", LastTouched: "2026-11-01", Tags: []string{"copilot-cli", "project"}},
					{Name: "Refund conventions", Type: "dynamic-context", Summary: "Use idempotency keys everywhere", Tags: []string{"copilot-cli", "dynamic-context", "repo-instructions"}},
					{Name: "Token handling", Type: "dynamic-context", Summary: redacted, Tags: []string{"copilot-cli", "dynamic-context", "unknown"}},
					{Name: "Home address", Absent: true, Note: "src personal is a private tag"},
				},
				Sessions: []sess{
					{Key: batteryA(longCLI, 180), Date: "2026-11-04", Cwd: "/home/dev/repos/payments-api", Actions: []string{batteryA(longCLI, 180), "turns: 1"},
						Focus: []string{"acme/payments-api"}, Note: "battery A caps the summary at 180 (177 + '...')"},
					{Key: "Explain the build script", Date: "2026-11-03", Cwd: "/tmp/scratch", Actions: []string{"Explain the build script"}, Note: "'YYYY-MM-DD hh:mm' form; no repository"},
					{Key: "Add refund idempotency keys", Date: "2026-11-02", Cwd: "/home/dev/repos/payments-api",
						Actions: []string{"Add refund idempotency keys", "checkpoint: Idempotency table migration", "checkpoint: Handler wired", "checkpoint: Tests green", "turns: 5", "commit: 3f2a9c1"},
						Focus:   []string{"acme/payments-api"}, Files: []string{"services/refunds/handler.go", "services/refunds/handler_test.go"}},
					{Key: redacted, Date: "2026-11-01", Cwd: "/home/dev/repos/atlas", Actions: []string{redacted}, Focus: []string{"acme/atlas"}},
					{Key: "Old session without a creation time", Date: "", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Old session without a creation time"},
						Focus: []string{"acme/payments-api"}, Note: "⚠9: NULL created_at gives date ''"},
				},
				Absent: []string{"PROBE-SENTINEL-TURN", "PROBE-SENTINEL-OVERVIEW", "12 Example Street"},
			},
			{
				Agent: "copilot-vscode", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"inline-completion", "chat", "plan-mode", "ask-mode", "explore-mode", "memory-tool", "workspace-scoped"},
				Policy: &policy{"team", six, nil},
				RowVis: "team",
				Entities: []ent{
					{Name: "repo/payments-api", Type: "vscode-memory", Summary: "Uses idempotency keys on refunds; Ledger outbox for writes", Count: 2,
						Tags: []string{"copilot-vscode", "memory-tool", "repo-memory"}, Note: "⚠ no dedupe across workspaces; the first (workspace a1b2c3) compared"},
					{Name: "notes", Type: "vscode-memory", Summary: redacted, Tags: []string{"copilot-vscode", "memory-tool", "repo-memory"}},
					{Name: "copilot-command:fix", Type: "vscode-capability", Summary: "VS Code Copilot command used 2 time(s).", Skip: "tags"},
					{Name: "copilot-command:explain", Type: "vscode-capability", Summary: "VS Code Copilot command used 1 time(s).", Skip: "tags"},
					{Name: "blank", Absent: true, Note: "blank memory file"},
				},
				Sessions: []sess{
					{Key: "/fix flaky test in ledger", Date: "2026-11-05", Actions: []string{"/fix flaky test in ledger", "turns: 1", "copilot: 0.34.0", "mode: copilot-agent"}, Note: "CRLF transcript"},
					{Key: "/fix the refund retry loop", Date: "2026-11-04", Actions: []string{"/fix the refund retry loop", "turns: 2", "copilot: 0.33.2", "mode: copilot-agent"}},
					{Key: "/explain the ledger outbox", Date: "", Skip: "key_actions",
						Note: "⚠9: damaged start line gives date ''; which of turns/copilot/mode lines follow is ambiguous"},
				},
				Absent: []string{"PROBE-SENTINEL-ASSISTANT", "PROBE-SENTINEL-SECOND-USER-MESSAGE"},
			},
			{
				Agent: "claude-desktop-code", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: "0.1",
				Caps:   []string{"claude-desktop-code", "mcp-tools:2"},
				Policy: &policy{"team", six, nil},
				RowVis: "team", EntitiesOrdered: true,
				Notes: []string{"§7: a Windows cwd's base name: the spec does not say which path rules; the last element (ledger-svc) expected"},
				Entities: []ent{
					{Name: "Claude Desktop Code", Type: "agent-surface", LastTouched: "2026-11-10", Skip: "summary,tags"},
					{Name: "Bourdon-notes", Type: "project", LastTouched: "2026-11-10", Skip: "summary,tags"},
					{Name: "Bourdon", Type: "project", LastTouched: "2026-11-10", Skip: "summary,tags", Note: "⚠10 hint word found in the path"},
					{Name: "payments-api", Type: "project", LastTouched: "2026-11-09", Skip: "summary,tags"},
					{Name: "ledger-svc", Type: "project", LastTouched: "2026-11-02", Skip: "summary,tags"},
				},
				Sessions: []sess{
					{Key: "(untitled conversation)", Date: "2026-11-10", Cwd: "/home/dev/Bourdon-notes", Focus: []string{"Bourdon-notes", "Bourdon"},
						Actions: []string{"(untitled conversation)", "model: claude-sonnet-4-5", "permission: default"}, Note: "createdAt a numeric string"},
					{Key: "Fix refund retries", Date: "2026-11-09", Cwd: "/home/dev/repos/payments-api", Focus: []string{"payments-api"},
						Actions: []string{"Fix refund retries", "model: claude-opus-4-5", "effort: high", "permission: acceptEdits", "mcp-tools: 2"},
						Note:    "createdAt in ms; only exactly-true tools counted"},
					{Key: "Ledger reconciliation plan", Date: "2026-11-02", Cwd: `C:\Users\dev\repos\ledger-svc`, Focus: []string{"ledger-svc"},
						Actions: []string{"Ledger reconciliation plan", "model: claude-opus-4-5", "permission: plan"}, Note: "boolean createdAt rejected: lastActivityAt"},
				},
				Absent: []string{"PROBE-SENTINEL-DESK-INITIAL", "PROBE-SENTINEL-MCQ", "plans/p.md"},
			},
			{
				Agent: "claude-desktop-cowork", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: "0.1",
				Caps:   []string{"claude-desktop-cowork", "mcp-tools:1", "tools:3", "skills:1"},
				Policy: &policy{"team", six, nil},
				RowVis: "team", EntitiesOrdered: true,
				Entities: []ent{
					{Name: "Claude Desktop Co-Work", Type: "agent-surface", LastTouched: "2026-11-13", Skip: "summary,tags"},
					{Name: "reports", Type: "project", LastTouched: "2026-11-13", Skip: "summary,tags", Note: "selected folders deduped ignoring case"},
				},
				Sessions: []sess{
					{Key: "Weekly report", Date: "2026-11-13", Focus: []string{"reports"},
						Actions: []string{"Weekly report", "model: claude-sonnet-4-5", "permission: default", "7 turns", "$0.12", "mcp-tools: 1"}},
				},
				Absent: []string{"PROBE-SENTINEL-MCP", "PROBE-SENTINEL-AUDIT-USER", "PROBE-SENTINEL-AUDIT-ASSISTANT", "PROBE-SENTINEL-AUDIT-RESULT"},
			},
			{
				Agent: "copilot", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"inline-completion", "chat", "pr-review", "convention-memory"},
				Policy: &policy{"team", six, nil},
				RowVis: "", EntitiesOrdered: true,
				Notes: []string{"§8: sessions keep the file's order (no sort is described)"},
				Entities: []ent{
					{Name: "Payments API", Type: "project", Summary: "Refunds, payouts, ledger outbox", LastTouched: "2026-11-01", Tags: []string{"project", "active"}, Aliases: []string{"payments-api"}},
					{Name: "Trimmed name", Type: "3", Summary: "A numeric type is stringified"},
					{Name: "Public thing", Type: "topic", Summary: "Explicitly public", Note: "⚠16 the row's visibility is ignored"},
					{Name: "Deploy keys", Type: "topic", Summary: redacted},
					{Name: "Single tag", Type: "topic", Summary: "A scalar tags value", Tags: []string{"s", "i", "n", "g", "l", "e"}, Note: "⚠16 a scalar is iterated by character"},
					{Name: "Home budget", Absent: true, Note: "private tag financial"},
				},
				Sessions: []sess{
					{Key: "Reviewed the refund PR", Date: "2026-11-03", Cwd: "/home/dev/repos/payments-api", Actions: []string{"Reviewed the refund PR"},
						Focus: []string{"Payments API"}, Files: []string{"refunds/retry.go"}},
					{Key: "Paired on the ledger", Date: "2026-11-04", Actions: []string{"Paired on the ledger"},
						Focus: []string{"P", "a", "y", "m", "e", "n", "t", "s", "A", "P", "I"}, Note: "⚠16 scalar project_focus split into characters, spaces dropped; an unquoted timestamp"},
					{Key: "Wrote the outbox ADR", Date: "2026-11-05", Actions: []string{"Wrote the outbox ADR"}},
					{Key: "No date, dropped", Absent: true},
				},
				Absent: []string{"PROBE-SENTINEL-BODY"},
			},
			{
				Agent: "cascade", Status: "ok", Type: "code-assistant", Instance: "", Compat: "",
				Caps:   []string{"chat", "code-editing", "terminal", "planning", "search"},
				Policy: nil, RowVis: "", EntitiesOrdered: true,
				Entities: []ent{
					{Name: "Windsurf rules", Type: "convention", Summary: "Keep the rules file under 6000 characters.", Tags: []string{"windsurf"}},
					{Name: "Test keys", Type: "topic", Summary: redacted, Note: "battery D: sk_test_"},
					{Name: "Shared secret", Type: "topic", Summary: redacted, Note: "battery D: the word secret"},
					{Name: "Private project", Absent: true},
				},
				Sessions: []sess{
					{Key: "Cascade refactored the tile loader", Date: "2026-11-06", Cwd: "/home/dev/repos/atlas", Actions: []string{"Cascade refactored the tile loader"}, Focus: []string{"Atlas"}},
				},
			},
			{Agent: "claude-code-automations", NoStore: true, Status: "error", Notes: []string{"§9: a missing directory raises"}},
			{Agent: "cursor-automations", NoStore: true, Status: "empty"},
			{Agent: "copilot-automations", NoStore: true, Status: "empty"},
		},
	}
}

func altScenario() scenario {
	return scenario{
		Name: "alt",
		Env: map[string]string{
			"CLAUDE_BRAIN":         "~/Dropbox/brain",
			"CODEX_HOME":           "{{HOME}}/codex-alt",
			"CURSOR_DIR":           "{{HOME}}/cursor-data",
			"COPILOT_BOURDON_HOME": "{{HOME}}/cp",
			"COPILOT_CLI_HOME":     "{{HOME}}/cli",
		},
		Args: []string{"--since", "2026-11-06"},
		Agents: []agentExp{
			{
				Agent: "claude-code", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"claude_brain"},
				Policy: &policy{"public", six, []string{"internal-roadmap"}},
				Entities: []ent{
					{Name: "Atlas", Type: "project", Summary: "Map service with tile caching.", Tags: []string{"canceled"}, Note: "'Cancelled' → canceled; ⚠5 valid_to dropped"},
					{Name: "Ignored", Absent: true, Note: "CLAUDE_BRAIN wins over ~/claude-brain"},
				},
				Sessions: []sess{
					{Key: "LOG/2026-11-09-pc-late.md", Date: "2026-11-09", Actions: []string{"After the since day."}, Files: []string{"LOG/2026-11-09-pc-late.md"}},
					{Key: "LOG/2026-11-06-mac.md", Date: "2026-11-06", Actions: []string{"On the since day."}, Files: []string{"LOG/2026-11-06-mac.md"}},
					{Key: "LOG/2026-11-04.md", Absent: true, Note: "before --since"},
					{Key: "LOG/2026-13-01.md", Absent: true, Note: "with --since an unparseable date is skipped"},
				},
				Absent: []string{"PROBE-SENTINEL-DEFAULT-BRAIN"},
			},
			{
				Agent: "codex", Status: "ok", Type: "code-assistant", Instance: "HOST", Compat: ">=0.1",
				Caps:   []string{"codex_home", "memories_dir", "memory_md", "session_index", "sessions_dir"},
				Policy: &policy{"team", six, []string{"codex-memory", "workspace"}},
				RowVis: "team", EntitiesOrdered: true,
				Notes: []string{"index path (no state_5.sqlite): ⚠8 a renamed thread gives two sessions and two topics; un-indexed rollouts are invisible"},
				Entities: []ent{
					{Name: "Archived thread", Type: "topic", Summary: "Codex thread: Archived thread", LastTouched: "2026-11-08", Tags: []string{"codex-thread"}},
					{Name: "Draft ledger schema", Type: "topic", Summary: "Codex thread: Draft ledger schema", LastTouched: "2026-11-10", Tags: []string{"codex-thread"}},
					{Name: "Ledger schema v2", Type: "topic", Summary: "Codex thread: Ledger schema v2", LastTouched: "2026-11-11", Tags: []string{"codex-thread"}},
					{Name: "Ledger service", Type: "topic", Summary: "Codex memory topic: Ledger service", Tags: []string{"codex-memory"}},
					{Name: "No rollout thread", Type: "topic", Summary: "Codex thread: No rollout thread", LastTouched: "2026-11-07", Tags: []string{"codex-thread"}},
					{Name: "Before since", Absent: true},
					{Name: "Codex session 2026-11-12", Absent: true, Note: "⚠8 un-indexed rollout invisible on the index path"},
				},
				Sessions: []sess{
					{Key: "Ledger schema v2", Date: "2026-11-11", Cwd: "/home/dev/repos/ledger-svc", Actions: []string{"Ledger schema v2"}, Focus: []string{"Ledger Svc"},
						Files: []string{"db/schema.sql", "db/old.sql", "db/a.sql", "db/b.sql"}},
					{Key: "Draft ledger schema", Date: "2026-11-10", Cwd: "/home/dev/repos/ledger-svc", Actions: []string{"Draft ledger schema"}, Focus: []string{"Ledger Svc"},
						Files: []string{"db/schema.sql", "db/old.sql", "db/a.sql", "db/b.sql"}, Note: "⚠8 the renamed thread's first name"},
					{Key: "Archived thread", Date: "2026-11-08", Cwd: "/home/dev/repos/ledger-svc", Actions: []string{"Archived thread"}, Focus: []string{"Ledger Svc"},
						Note: "rollout found under archived_sessions"},
					{Key: "No rollout thread", Date: "2026-11-07", Actions: []string{"No rollout thread"}, Skip: "project_focus", Note: "no rollout: no cwd"},
					{Key: "Before since", Absent: true},
					{Key: "Speed up tile rendering", Absent: true},
					{Key: "Codex session 2026-11-12", Absent: true},
				},
			},
			{Agent: "cursor", Status: "error", Notes: []string{"§4.2 ⚠13: a workspace database that is not SQLite fails the whole Cursor export"}},
			{Agent: "cascade", Status: "empty", Notes: []string{"§8 ⚠17: the front matter ends at the '---' inside the quoted summary: YAML error, warning, file ignored"}},
			{Agent: "copilot", Status: "empty", Notes: []string{"§8: malformed front matter: warning, treated as empty"}},
			{Agent: "copilot-cli", Status: "empty", Notes: []string{"§5 ⚠13: one TEXT value that is not UTF-8 makes the sessions query fail: silently empty"}},
		},
	}
}

// emptyScenario: a HOME with nothing in it. The spec (§1.6, §11.2 ⚠2): the
// agents whose store is missing raise (an error row) or write an empty
// manifest.
func emptyScenario() scenario {
	want := map[string]string{
		"claude-code": "error", "codex": "error", "claude-desktop-code": "error", "claude-desktop-cowork": "error",
		"claude-code-automations": "error",
		"cursor":                  "empty", "copilot-cli": "empty", "copilot-vscode": "empty", "copilot": "empty", "cascade": "empty",
		"codex-automations": "empty", "cursor-automations": "empty", "copilot-automations": "empty",
	}
	return scenario{
		Name: "empty",
		Check: func(c *comparer, res *runResult) {
			var exp, got []string
			for _, id := range slices.Sorted(maps.Keys(want)) {
				exp = append(exp, id+"="+want[id])
				st := res.rows[id].Status
				if st == "ok" {
					st = "empty"
					if m, ok := res.manifests[id]; ok && (len(rowsOf(m, "known_entities")) > 0 || len(rowsOf(m, "recent_sessions")) > 0) {
						st = "ok"
					}
				}
				got = append(got, id+"="+st)
			}
			if !slices.Equal(exp, got) {
				c.add("statuses on an empty HOME", strings.Join(exp, " "), strings.Join(got, " "))
			}
		},
	}
}
