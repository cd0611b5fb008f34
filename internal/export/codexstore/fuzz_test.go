package codexstore

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// codexLines are lines of the files Codex writes: rollout records of
// every kind, the bare meta of early versions, session_index.jsonl lines.
var codexLines = []string{
	`{"timestamp":"2026-11-12T09:00:00.120Z","type":"session_meta","payload":{"id":"0199a1b2-0001","timestamp":"2026-11-12T09:00:00.120Z","cwd":"/home/dev/repos/payments-api","originator":"codex_cli_rs","cli_version":"0.58.0","source":"cli","model_provider":"openai"}}`,
	`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"}]}}`,
	`{"type":"event_msg","payload":{"type":"user_message","message":"Render amounts in € and ¥"}}`,
	`{"type":"response_item","payload":{"type":"function_call","name":"apply_patch","arguments":"*** Begin Patch\n*** Update File: a.go\n*** End Patch\n","call_id":"call_1"}}`,
	`{"id":"0199a1b2-0009","timestamp":"2025-06-01T10:00:00Z","cwd":"/home/dev/repos/legacy-cli"}`,
	`{"record_type":"state"}`, `{"type":"session_meta","payload":"x"}`, `{"type":"session_meta","payload":{"id":"n","cwd":42}}`,
	`{"id":"0199a1b2-0001","thread_name":"Refund idempotency","updated_at":"2026-11-12T09:05:00.000000Z"}`,
	`{"id":"x","thread_name":"Café ☕","updated_at":1762938000}`, `{"id": "truncated`, `[1,2]`, `not json`, "",
	"{\"id\":\"a\",\"thread_name\":\"bad \xff\xfe\"}", `{"id":"\ud800","cwd":"\u0000"}`,
}

// FuzzDecodeLines decodes random lines as a rollout's records and as
// session_index.jsonl lines: every string that comes out is UTF-8 (Codex
// writes JSON, whose decoder replaces bad bytes), and a line is a record
// or an entry only when it is a JSON object.
func FuzzDecodeLines(f *testing.F) {
	for _, l := range codexLines {
		f.Add([]byte(l))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		trimmed := bytes.TrimSpace(line)
		isObject := len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed)
		m, kind := DecodeMeta(line)
		if (kind != NotRecord) != isObject {
			t.Fatalf("kind %d for %q", kind, line)
		}
		for _, s := range []string{m.ID, m.Timestamp, m.Cwd, m.ModelProvider, m.CLIVersion, m.Originator, m.Source} {
			if !utf8.ValidString(s) {
				t.Fatalf("meta field %q of %q is not UTF-8", s, line)
			}
		}
		if !m.HasCwd && m.Cwd != "" {
			t.Fatalf("a cwd without HasCwd: %+v", m)
		}
		if kind == BareMeta && m.ID == "" {
			t.Fatalf("a bare meta without id: %q", line)
		}

		e, ok, parsed := DecodeIndexLine(line)
		if ok && !parsed || ok && !isObject || parsed != json.Valid(trimmed) {
			t.Fatalf("ok %v parsed %v for %q", ok, parsed, line)
		}
		for _, s := range []string{e.ID, e.ThreadName, e.UpdatedAt} {
			if !utf8.ValidString(s) {
				t.Fatalf("index field %q of %q is not UTF-8", s, line)
			}
		}
	})
}

// FuzzPaths spells random paths for the other side of WSL and compares
// them: nothing panics, valid text stays valid, a translated path reads
// the same when translated again, and a rollout name's id candidates are
// suffixes of it.
func FuzzPaths(f *testing.F) {
	for _, p := range []string{`C:\Users\dev\.codex`, "/mnt/d/repos/x", `\\?\C:\Users\Dev\.codex\memories\`, "//?/c:/x/",
		"/home/dev/repos/café-ledger", "rollout-2026-11-12T09-00-00-ab-cd.jsonl", "rollout--.jsonl", "D:/", "/mnt/", "\xff:\\x"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, goos := range []string{"linux", "windows"} {
			l := LocalPath(p, goos)
			c := ComparePath(p, goos)
			if utf8.ValidString(p) && (!utf8.ValidString(l) || !utf8.ValidString(c)) {
				t.Fatalf("%s: %q gives %q and %q", goos, p, l, c)
			}
			if again := LocalPath(l, goos); again != l {
				t.Fatalf("%s: LocalPath(%q) = %q, then %q", goos, p, l, again)
			}
		}
		for _, id := range RolloutIDCandidates(p) {
			if id == "" || !strings.HasSuffix(strings.TrimSuffix(p, ".jsonl"), id) {
				t.Fatalf("candidate %q of %q", id, p)
			}
		}
	})
}
