package main

import (
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // the fixtures' SQLite writer

	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// This file writes, into a fake HOME, the native stores of the three
// agents the end-to-end test exports: Claude Code's auto-memory notes and
// settings, Codex's session rollouts, session index and state database,
// and Cursor's state.vscdb databases, in the layouts the exporters read
// (internal/export/claudecode, codex, cursor). The three share one
// project, ledgerline, whose repository is ~/repos/ledgerline.

// Sentinels: text that must never reach the library or a payload.
const (
	// storeSecret is a GitHub token in a Claude Code note; the runner's
	// redaction battery replaces the note's summary.
	storeSecret = "ghp_" + "Q7vZ2mK9xR4tL8wN3pB6yC1dF5hJ0sA2eG4u"
	// transcriptSentinel is in a Claude Code transcript, which is not
	// read.
	transcriptSentinel = "TRANSCRIPT-NEVER-EXPORTED-7f3a"
	// personSentinel is in a note about the person (type user), which is
	// private and never written.
	personSentinel = "Zoë prefers terse answers"
)

// Thread ids of the Codex fixture.
const (
	codexRefunds = "0199c3d4-0001-7a1b-8c2d-00000000b001"
	codexOutbox  = "0199c3d4-0002-7a1b-8c2d-00000000b002"
	codexCafe    = "0199c3d4-0003-7a1b-8c2d-00000000b003"
	codexPayouts = "0199c3d4-0004-7a1b-8c2d-00000000b004" // the thread the test adds later
)

// Titles, as they appear in key actions.
const (
	codexRefundsTitle = "Add refund reversals to the Ledgerline ledger"
	codexOutboxTitle  = "Fix the Ledgerline outbox retry loop"
	codexCafeTitle    = "Render café prices in € and ¥"
	codexPayoutsTitle = "Batch the Ledgerline payouts nightly"
	cursorReconTitle  = "Ledgerline reconciliation report"
	cursorFxTitle     = "Currency rounding for ledgerline payouts"
)

// storeHome is a fake HOME being filled.
type storeHome struct {
	t    *testing.T
	home string
}

func (h storeHome) path(rel string) string {
	return filepath.Join(h.home, filepath.FromSlash(rel))
}

func (h storeHome) write(rel string, content string) string {
	h.t.Helper()
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
	return p
}

func jsonl(values ...any) string {
	var b strings.Builder
	for _, v := range values {
		line, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// sqliteFile creates a database at path and runs the statements (each
// with its arguments) in it, then closes it (journal mode DELETE, so the
// file is complete on its own).
func (h storeHome) sqliteFile(rel string, stmts ...[]any) {
	h.t.Helper()
	p := h.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		h.t.Fatal(err)
	}
	db, err := sql.Open("sqlite", nativestore.DSN(p, ""))
	if err != nil {
		h.t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := db.Exec(s[0].(string), s[1:]...); err != nil {
			h.t.Fatalf("%s: %v", s[0], err)
		}
	}
	if err := db.Close(); err != nil {
		h.t.Fatal(err)
	}
}

type jobj = map[string]any

func unixMs(s string) int64 {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UnixMilli()
}

// writeStores fills home with the three agents' stores and the clients'
// existing configuration files.
func writeStores(t *testing.T, home string) {
	h := storeHome{t: t, home: home}
	h.claudeCode()
	h.codex()
	h.cursor()
}

// ledgerline is the shared project's repository.
func (h storeHome) ledgerline() string { return h.path("repos/ledgerline") }

// slug is Claude Code's project directory name for a working directory.
func slug(dir string) string {
	return strings.NewReplacer("/", "-", ".", "-", "_", "-").Replace(dir)
}

func (h storeHome) claudeCode() {
	// The user's settings and Claude Code's own state file, as a person
	// who has used it for a while has them.
	h.write(".claude/settings.json", `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(go test:*)", "Read(~/repos/**)"]
  },
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send 'Claude is done'"}]}]
  }
}
`)
	h.write(".claude.json", `{
  "numStartups": 41,
  "theme": "dark",
  "projects": {
    "`+h.ledgerline()+`": {"allowedTools": [], "hasTrustDialogAccepted": true}
  }
}
`)
	mem := ".claude/projects/" + slug(h.ledgerline()) + "/memory/"
	h.write(mem+"MEMORY.md", "# Memory index\n\n- [Ledgerline](project_ledgerline.md) — the ledger service\n- [Testing](feedback_testing.md)\n- [About me](user_role.md)\n")
	h.write(mem+"project_ledgerline.md", `---
name: Ledgerline
description: Double-entry ledger service; refunds post reversals through the transactional outbox.
type: project
---

# Ledgerline

The ledger behind payouts. Every write goes through the outbox table.
`)
	h.write(mem+"feedback_testing.md", `---
name: CI token
description: The CI job authenticates with `+storeSecret+` until the app token lands.
type: feedback
---

Run go test -race before pushing.
`)
	h.write(mem+"user_role.md", `---
name: Zoë
description: `+personSentinel+`, works on payments.
type: user
---
`)
	cafe := ".claude/projects/" + slug(h.path("repos/café-site")) + "/memory/"
	h.write(cafe+"MEMORY.md", "- [Café site](project_cafe.md)\n")
	h.write(cafe+"project_cafe.md", "# Café site — the shop front\n\nPrices in € and ¥, rendered by the ledgerline API.\n")
	// A transcript: Claude Code keeps them beside the memory; they are
	// not read.
	h.write(".claude/projects/"+slug(h.ledgerline())+"/5d1c9a70-2b4e-4f7a-9c11-3e8d2a6b0f01.jsonl", jsonl(
		jobj{"type": "user", "sessionId": "5d1c9a70", "cwd": h.ledgerline(), "message": jobj{"role": "user", "content": transcriptSentinel}},
	))
}

func (h storeHome) codex() {
	h.write(".codex/config.toml", `model = "gpt-5-codex"
model_reasoning_effort = "high"

[projects."`+h.ledgerline()+`"]
trust_level = "trusted"
`)
	h.sqliteFile(".codex/state_5.sqlite", []any{`CREATE TABLE threads (
		id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
		source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL,
		sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0,
		has_user_event INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER,
		git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '',
		first_user_message TEXT NOT NULL DEFAULT '', memory_mode TEXT NOT NULL DEFAULT 'enabled')`})
	h.codexThread(codexRefunds, "2026-06-10T09:00:00Z", h.ledgerline(), codexRefundsTitle, "ledger/reversal.go")
	h.codexThread(codexCafe, "2026-06-11T11:15:00Z", h.path("repos/café-site"), codexCafeTitle, "web/prices.tsx")
	h.codexThread(codexOutbox, "2026-06-12T15:30:00Z", h.ledgerline(), codexOutboxTitle, "outbox/retry.go")
	// Never read by the exporter.
	h.write(".codex/auth.json", `{"OPENAI_API_KEY": "sk-proj-never-read"}`)
}

// codexThread records a Codex thread started at ts (RFC 3339, UTC) as
// Codex does: its rollout under sessions/YYYY/MM/DD/ (the session meta,
// the prompt, an answer and an apply_patch call touching file), a line in
// session_index.jsonl, and a row in state_5.sqlite's threads table.
func (h storeHome) codexThread(id, ts, cwd, title, file string) {
	h.t.Helper()
	name := "rollout-" + strings.ReplaceAll(strings.TrimSuffix(ts, "Z"), ":", "-") + "-" + id + ".jsonl"
	rel := ".codex/sessions/" + ts[:4] + "/" + ts[5:7] + "/" + ts[8:10] + "/" + name
	h.write(rel, jsonl(
		jobj{"timestamp": ts, "type": "session_meta", "payload": jobj{
			"id": id, "timestamp": ts, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.58.0",
			"source": "cli", "model_provider": "openai", "instructions": "You are Codex."}},
		jobj{"type": "event_msg", "payload": jobj{"type": "user_message", "message": title}},
		jobj{"type": "response_item", "payload": jobj{"type": "message", "role": "user",
			"content": []any{jobj{"type": "input_text", "text": title}}}},
		jobj{"type": "response_item", "payload": jobj{"type": "message", "role": "assistant",
			"content": []any{jobj{"type": "output_text", "text": "Working on it."}}}},
		jobj{"type": "response_item", "payload": jobj{"type": "function_call", "name": "apply_patch",
			"arguments": "*** Begin Patch\n*** Update File: " + file + "\n@@\n-old\n+new\n*** End Patch\n", "call_id": "call_1"}},
	))
	started, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		h.t.Fatal(err)
	}
	updated := started.Add(40 * time.Minute)
	index, err := os.OpenFile(h.path(".codex/session_index.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		h.t.Fatal(err)
	}
	_, err = index.WriteString(jsonl(jobj{"id": id, "thread_name": title, "updated_at": updated.Format("2006-01-02T15:04:05.000000Z")}))
	if cerr := index.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		h.t.Fatal(err)
	}
	h.sqliteFile(".codex/state_5.sqlite", []any{`INSERT INTO threads (id, rollout_path, created_at, updated_at, source,
		model_provider, cwd, title, sandbox_policy, approval_mode, cli_version, first_user_message)
		VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, 'workspace-write', 'on-request', '0.58.0', ?)`,
		id, h.path(rel), started.Unix(), updated.Unix(), cwd, title, title})
}

func (h storeHome) cursor() {
	// ~/.cursor holds the MCP configuration (with a server of the user's).
	h.write(".cursor/mcp.json", `{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}
  }
}
`)
	blob := func(v any) []byte {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return b
	}
	tables := [][]any{
		{"CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)"},
		{"CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)"},
	}
	// The global database keeps the composers' conversations.
	h.sqliteFile(".config/Cursor/User/globalStorage/state.vscdb", append(tables,
		[]any{"INSERT INTO ItemTable (key, value) VALUES (?, ?)", "workbench.activity.pinnedViewlets2", blob([]any{jobj{"id": "workbench.view.explorer", "pinned": true}})},
		[]any{"INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)", "composerData:cmp-0001", blob(jobj{
			"_v": 3, "composerId": "cmp-0001", "name": cursorReconTitle,
			"createdAt": unixMs("2026-06-13T08:00:00Z"), "lastUpdatedAt": unixMs("2026-06-13T10:30:00Z"),
			"conversation": []any{
				jobj{"type": 1, "bubbleId": "b1", "text": "build the nightly reconciliation report",
					"relevantFiles": []any{"reports/reconcile.go"}},
				jobj{"type": 2, "bubbleId": "b2", "text": "Added the report."}}})},
		[]any{"INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)", "composerData:cmp-0002", blob(jobj{
			"_v": 3, "composerId": "cmp-0002",
			"createdAt":    unixMs("2026-06-14T09:00:00Z"),
			"conversation": []any{jobj{"type": 1, "bubbleId": "b3", "text": cursorFxTitle}}})},
	)...)
	// The workspace's database lists its composers; workspace.json names
	// its folder.
	ws := ".config/Cursor/User/workspaceStorage/4b1f0e2a9c7d/"
	h.sqliteFile(ws+"state.vscdb", append(tables,
		[]any{"INSERT INTO ItemTable (key, value) VALUES (?, ?)", "composer.composerData", blob(jobj{
			"allComposers":        []any{jobj{"type": "head", "composerId": "cmp-0001"}, jobj{"type": "head", "composerId": "cmp-0002"}},
			"selectedComposerIds": []any{"cmp-0001"}})},
	)...)
	h.write(ws+"workspace.json", `{"folder": "file://`+h.ledgerline()+`"}`)
}
