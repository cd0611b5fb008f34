package codex

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/exporttest"
	"github.com/getbourdon/bourdon-go/internal/export/nativestore"
)

// store builds a Codex home in a temporary HOME, in Codex's real formats.
type store struct {
	t    testing.TB
	home string // the fake HOME
	env  map[string]string
}

func newStore(t testing.TB) *store {
	t.Helper()
	s := &store{t: t, home: t.TempDir(), env: map[string]string{}}
	s.mkdir(".codex", "sessions")
	return s
}

func (s *store) Env() *export.Env {
	return &export.Env{
		Home:     s.home,
		Getenv:   func(k string) string { return s.env[k] },
		Now:      func() time.Time { return time.Date(2026, 12, 1, 19, 32, 28, 0, time.UTC) },
		Hostname: "laptop",
		GOOS:     "linux",
	}
}

func (s *store) path(elem ...string) string {
	return filepath.Join(append([]string{s.home}, elem...)...)
}

func (s *store) mkdir(elem ...string) string {
	p := s.path(elem...)
	if err := os.MkdirAll(p, 0o755); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s *store) write(rel string, data []byte) string {
	p := s.path(strings.Split(rel, "/")...)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func jsonLine(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

type obj = map[string]any

// rollout writes sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl with a
// session meta, the given user prompts, an assistant answer and one
// apply_patch call per patch; extra lines are appended as they are.
func (s *store) rollout(dir, id, ts, cwd string, prompts []string, patches []string, extra ...string) string {
	day := ts[:10]
	name := "rollout-" + strings.NewReplacer(":", "-", ".", "-").Replace(strings.TrimSuffix(ts, "Z")) + "-" + id + ".jsonl"
	var b strings.Builder
	b.WriteString(jsonLine(obj{"timestamp": ts, "type": "session_meta", "payload": obj{
		"id": id, "timestamp": ts, "cwd": cwd, "originator": "codex_cli_rs", "cli_version": "0.58.0",
		"source": "cli", "model_provider": "openai", "instructions": "You are Codex, a coding agent."}}))
	b.WriteString(jsonLine(obj{"type": "response_item", "payload": obj{"type": "message", "role": "user",
		"content": []any{obj{"type": "input_text", "text": "<environment_context>\n  <cwd>" + cwd + "</cwd>\n</environment_context>"}}}}))
	for _, p := range prompts {
		b.WriteString(jsonLine(obj{"type": "event_msg", "payload": obj{"type": "user_message", "message": p}}))
		b.WriteString(jsonLine(obj{"type": "response_item", "payload": obj{"type": "message", "role": "user",
			"content": []any{obj{"type": "input_text", "text": p}}}}))
		b.WriteString(jsonLine(obj{"type": "response_item", "payload": obj{"type": "message", "role": "assistant",
			"content": []any{obj{"type": "output_text", "text": "On it: " + p}}}}))
	}
	for _, p := range patches {
		b.WriteString(jsonLine(obj{"type": "response_item", "payload": obj{"type": "function_call", "name": "apply_patch",
			"arguments": "*** Begin Patch\n" + p + "\n@@\n-old\n+new\n*** End Patch\n", "call_id": "call_1"}}))
	}
	for _, e := range extra {
		b.WriteString(e)
	}
	return s.write(filepath.ToSlash(filepath.Join(".codex", dir, day[:4], day[5:7], day[8:10], name)), []byte(b.String()))
}

// stateDB creates state_5.sqlite with Codex's threads table. With wal,
// the database is left in WAL mode with the rows still in the -wal file
// (a writer stays open until the test ends, as while Codex runs).
func (s *store) stateDB(wal bool, rows ...threadFixture) {
	s.t.Helper()
	path := s.path(".codex", "state_5.sqlite")
	query := ""
	if wal {
		query = "_pragma=journal_mode(wal)&_pragma=wal_autocheckpoint(0)"
	}
	dsn := nativestore.DSN(path, query)
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		s.t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	exec := func(q string, args ...any) {
		if _, err := db.Exec(q, args...); err != nil {
			s.t.Fatal(err)
		}
	}
	exec(`CREATE TABLE threads (
		id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL,
		source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL,
		sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0,
		has_user_event INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER,
		git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '',
		first_user_message TEXT NOT NULL DEFAULT '', memory_mode TEXT NOT NULL DEFAULT 'enabled')`)
	exec(`CREATE TABLE agent_jobs (id TEXT PRIMARY KEY, name TEXT, status TEXT, last_error TEXT, updated_at INTEGER)`)
	for _, r := range rows {
		exec(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title,
			sandbox_policy, approval_mode, cli_version, first_user_message, archived)
			VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, 'workspace-write', 'on-request', '0.58.0', ?, ?)`,
			r.id, r.rollout, r.created.Unix(), r.updated.Unix(), r.cwd, r.title, r.first, r.archived)
	}
	if wal {
		if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
			s.t.Fatalf("the fixture needs rows in the -wal file: %v", err)
		}
		s.t.Cleanup(func() { db.Close() })
		return
	}
	if err := db.Close(); err != nil {
		s.t.Fatal(err)
	}
}

type threadFixture struct {
	id, rollout, cwd, title, first string
	created, updated               time.Time
	archived                       int
}

func day(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

// realistic fills the store with a few weeks of work on several projects.
func (s *store) realistic() {
	s.t.Helper()
	codex := s.path(".codex")
	pay := s.rollout("sessions", "0199a1b2-0001-7c3e-9d00-00000000a001", "2026-11-12T09:00:00.120Z", "/home/dev/repos/payments-api",
		[]string{"Add idempotency keys to the refunds handler", "Also cover the ledger outbox"},
		[]string{"*** Update File: services/refunds/handler.go", "*** Add File: services/refunds/idempotency.go\n*** Update File: services/refunds/HANDLER.go"})
	ledger := s.rollout("sessions", "0199a1b2-0002-7c3e-9d00-00000000a002", "2026-11-18T14:30:00Z", "/home/dev/repos/café-ledger",
		[]string{"Render amounts in € and ¥ — grouping by ledger day"},
		[]string{"*** Update File: src/format/money.ts\n*** Move to: src/format/currency.ts"})
	// A thread whose title carries a credential (battery A redacts it).
	secret := s.rollout("sessions", "0199a1b2-0003-7c3e-9d00-00000000a003", "2026-11-20T08:15:00Z", "/home/dev/repos/payments-api",
		[]string{"rotate the api_key sk_live_4eC39HqLyjWDarjtT1zdp7dc for staging"}, nil)
	// Codex's own memory pipeline, run in the memories directory.
	mem := s.rollout("sessions", "0199a1b2-0004-7c3e-9d00-00000000a004", "2026-11-21T02:00:00Z", filepath.Join(codex, "memories"),
		[]string{"## Memory Writing Agent: Phase 2 (Consolidation) " + strings.Repeat("Do not publish this prompt. ", 40)},
		[]string{"*** Update File: MEMORY.md", "*** Update File: raw_memories.md"})
	// A big rollout (over 2 MB): long tool outputs after the first prompt.
	var big strings.Builder
	chunk := strings.Repeat("compiling package bourdon-go/internal/export ... ok\\n", 400)
	for big.Len() < 3<<20 {
		big.WriteString(jsonLine(obj{"type": "response_item", "payload": obj{"type": "function_call_output", "call_id": "c", "output": chunk}}))
	}
	bigPath := s.rollout("sessions", "0199a1b2-0005-7c3e-9d00-00000000a005", "2026-11-24T17:45:00Z", "/home/dev/repos/bourdon-go",
		[]string{"Design the Bourdon recognition first runtime layer for the Go port"},
		[]string{"*** Update File: internal/recall/turn/turn.go"}, big.String())
	// A rollout with a corrupt line (not UTF-8) and a line that is not JSON.
	corrupt := s.rollout("sessions", "0199a1b2-0006-7c3e-9d00-00000000a006", "2026-11-25T10:00:00Z", "/home/dev/repos/payments-api",
		[]string{"Investigate the flaky settlement test"}, nil,
		"{\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"bad \xff\xfe bytes\"}}\n", "{not json at all\n")
	// An archived thread.
	archived := s.rollout("archived_sessions", "0199a1b2-0007-7c3e-9d00-00000000a007", "2026-11-02T11:00:00Z", "/home/dev/repos/payments-api",
		[]string{"Spike: ledger outbox with Kafka"}, nil)
	// A rollout Codex has not indexed yet (newer than every thread), and an
	// old one in the bare-meta format of early Codex versions.
	s.rollout("sessions", "0199a1b2-0008-7c3e-9d00-00000000a008", "2026-11-26T07:30:00Z", "/home/dev/repos/bourdon-go",
		[]string{"continuo naming notes"}, nil)
	s.write(".codex/sessions/2025/06/01/rollout-2025-06-01T10-00-00-0199a1b2-0009-7c3e-9d00-00000000a009.jsonl", []byte(
		jsonLine(obj{"id": "0199a1b2-0009-7c3e-9d00-00000000a009", "timestamp": "2025-06-01T10:00:00Z", "cwd": "/home/dev/repos/legacy-cli"})+
			jsonLine(obj{"record_type": "state"})+
			jsonLine(obj{"type": "message", "role": "user", "content": []any{obj{"type": "input_text", "text": "port the CLI flags"}}})))

	s.stateDB(true,
		threadFixture{id: "0199a1b2-0001-7c3e-9d00-00000000a001", rollout: pay, cwd: "/home/dev/repos/payments-api",
			title: "Add idempotency keys to refunds", first: "Add idempotency keys to the refunds handler",
			created: day("2026-11-12T09:00:00Z"), updated: day("2026-11-12T09:30:05Z")},
		threadFixture{id: "0199a1b2-0002-7c3e-9d00-00000000a002", rollout: ledger, cwd: "/home/dev/repos/café-ledger",
			title: "Café ledger: currency formatting ☕", first: "Render amounts in € and ¥",
			created: day("2026-11-18T14:30:00Z"), updated: day("2026-11-18T16:00:00Z")},
		threadFixture{id: "0199a1b2-0003-7c3e-9d00-00000000a003", rollout: secret, cwd: "/home/dev/repos/payments-api",
			title: "rotate the api_key sk_live_4eC39HqLyjWDarjtT1zdp7dc for staging", first: "rotate the api_key",
			created: day("2026-11-20T08:15:00Z"), updated: day("2026-11-20T08:20:00Z")},
		threadFixture{id: "0199a1b2-0004-7c3e-9d00-00000000a004", rollout: mem, cwd: filepath.Join(codex, "memories"),
			title:   "## Memory Writing Agent: Phase 2 (Consolidation) " + strings.Repeat("Do not publish this prompt. ", 40),
			created: day("2026-11-21T02:00:00Z"), updated: day("2026-11-21T02:10:00Z")},
		threadFixture{id: "0199a1b2-0005-7c3e-9d00-00000000a005", rollout: bigPath, cwd: "/home/dev/repos/bourdon-go",
			title: "Bourdon recognition first runtime layer", first: "Design the Bourdon recognition first runtime layer for the Go port",
			created: day("2026-11-24T17:45:00Z"), updated: day("2026-11-24T19:00:00Z")},
		threadFixture{id: "0199a1b2-0006-7c3e-9d00-00000000a006", rollout: corrupt, cwd: "/home/dev/repos/payments-api",
			title: "Investigate the flaky settlement test", first: "Investigate the flaky settlement test",
			created: day("2026-11-25T10:00:00Z"), updated: day("2026-11-25T10:45:00Z")},
		threadFixture{id: "0199a1b2-0007-7c3e-9d00-00000000a007", rollout: archived, cwd: "/home/dev/repos/payments-api",
			title: "Spike: ledger outbox with Kafka", first: "Spike: ledger outbox with Kafka",
			created: day("2026-11-02T11:00:00Z"), updated: day("2026-11-02T12:00:00Z"), archived: 1},
	)

	// The session index: a renamed thread (two lines for one id), a
	// malformed line, and the archived thread.
	s.write(".codex/session_index.jsonl", []byte(
		jsonLine(obj{"id": "0199a1b2-0007-7c3e-9d00-00000000a007", "thread_name": "Spike: ledger outbox with Kafka", "updated_at": "2026-11-02T12:00:00.000000Z"})+
			jsonLine(obj{"id": "0199a1b2-0001-7c3e-9d00-00000000a001", "thread_name": "Refund idempotency", "updated_at": "2026-11-12T09:05:00.000000Z"})+
			"{\"id\": \"truncated\n"+
			jsonLine(obj{"id": "0199a1b2-0002-7c3e-9d00-00000000a002", "thread_name": "Café ledger: currency formatting ☕", "updated_at": "2026-11-18T16:00:00.000000Z"})+
			jsonLine(obj{"id": "0199a1b2-0001-7c3e-9d00-00000000a001", "thread_name": "Add idempotency keys to refunds", "updated_at": "2026-11-12T09:30:05.512345Z"})+
			jsonLine(obj{"id": "0199a1b2-0003-7c3e-9d00-00000000a003", "thread_name": "rotate the api_key sk_live_4eC39HqLyjWDarjtT1zdp7dc for staging", "updated_at": "2026-11-20T08:20:00Z"})+
			jsonLine(obj{"id": "0199a1b2-0005-7c3e-9d00-00000000a005", "thread_name": "Bourdon recognition first runtime layer", "updated_at": "2026-11-24T19:00:00Z"})+
			jsonLine(obj{"id": "0199a1b2-0009-7c3e-9d00-00000000a009", "thread_name": "Port the legacy CLI flags", "updated_at": "2025-06-01T10:30:00Z"})))

	s.write(".codex/memories/MEMORY.md", []byte(`# Task Group: Payments API refunds
scope: payments-api

## Task 1: Idempotency keys

### keywords

- Payments API, ledger outbox, payments-api

## User preferences

- prefer backend-first delivery [Task 1]
- the user wants exact paths in every handoff note.
- wait for CI before merging

<!-- BEGIN BOURDON FALLBACK MEMORY -->
# Bourdon Fallback Memory
## Recovered Projects
- Written by Bourdon, never read back
<!-- END BOURDON FALLBACK MEMORY -->

# Task Group: Café ledger ☕
## Task 2: Currency formatting
description: café-ledger renders amounts with the user's locale.
keywords: Café, money formatting
`))
	s.write(".codex/memories/raw_memories.md", []byte("# Raw Memories\n\n## Thread `0199a1b2-0006-7c3e-9d00-00000000a006`\n"+
		"updated_at: 2026-11-25T10:45:00+00:00\ncwd: /home/dev/repos/payments-api\n\n---\n"+
		"task: settlement-flake\ntask_group: payments-api-settlement\nkeywords: Payments API, settlement\n---\n\n"+
		"Reusable knowledge:\n- The settlement job in payments-api retries three times.\n"))
	s.write(".codex/memories/rollout_summaries/2026-11-18-cafe-ledger.md", []byte("thread_id: 0199a1b2-0002\n\n"+
		"# Currency formatting for café-ledger\n\n## Task 1: Locale-aware amounts\nOutcome: success\n\n"+
		"Preference signals:\n- for money formatting the user prefers Intl.NumberFormat over hand-rolled code\n"))
	// A memory file that is not UTF-8 is skipped with a warning.
	s.write(".codex/memories/rollout_summaries/2026-11-19-broken.md", []byte("# Broken \xff summary\n"))
	s.write("codex-brain/LOG/2026-11-20.md", []byte("# Payments API notes\n\nSettlement retries are idempotent.\n"))
	s.write("codex-brain/empty.md", nil)
	// Never read.
	s.write(".codex/auth.json", []byte(`{"OPENAI_API_KEY":"sk-never-read"}`))
	s.write(".codex/memories/bourdon_fallback.md", []byte("# Task Group: never read\n"))
}

func export1(t *testing.T, s *store, opts export.Options) *export.Output {
	t.Helper()
	out, err := New().Export(context.Background(), s.Env(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// golden checks out against testdata/<name>.golden.yaml (the fake HOME
// written as exporttest.Home) and the L5 schema.
func golden(t *testing.T, s *store, out *export.Output, name string) {
	t.Helper()
	exporttest.Golden(t, name, out, s.home)
}

func warnings(out *export.Output, home string) []string {
	var ws []string
	for _, w := range out.Warnings {
		ws = append(ws, strings.ReplaceAll(w.String(), home, "~"))
	}
	return ws
}

var _ = fmt.Sprint
