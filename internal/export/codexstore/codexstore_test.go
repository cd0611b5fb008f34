package codexstore

import (
	"slices"
	"testing"
)

func TestDecodeMeta(t *testing.T) {
	for _, c := range []struct {
		line string
		kind Kind
		id   string
		cwd  string
	}{
		{`{"timestamp":"t","type":"session_meta","payload":{"id":"a1","cwd":"/w/é","timestamp":"2026-11-12T09:00:00Z"}}`, SessionMeta, "a1", "/w/é"},
		{`{"id":"old","timestamp":"2025-01-02T03:04:05Z","cwd":"/w/old"}`, BareMeta, "old", "/w/old"},
		{`{"type":"session_meta","payload":"x"}`, Record, "", ""},
		{`{"type":"event_msg","payload":{}}`, Record, "", ""},
		{`{"type":"session_meta","payload":{"id":"n","cwd":42}}`, SessionMeta, "n", ""},
		{`[1,2]`, NotRecord, "", ""},
		{`{broken`, NotRecord, "", ""},
	} {
		m, k := DecodeMeta([]byte(c.line))
		if k != c.kind || m.ID != c.id || m.Cwd != c.cwd {
			t.Errorf("%s: got %+v kind %d", c.line, m, k)
		}
	}
}

func TestIndexLinesAndRolloutNames(t *testing.T) {
	e, ok, parsed := DecodeIndexLine([]byte(`{"id":"x","thread_name":"Café ☕","updated_at":"2026-11-12T09:30:05Z"}`))
	if !ok || !parsed || e.ThreadName != "Café ☕" || e.UpdatedAt != "2026-11-12T09:30:05Z" {
		t.Errorf("entry %+v %v %v", e, ok, parsed)
	}
	if _, ok, parsed := DecodeIndexLine([]byte(`{"id":7}`)); ok || !parsed {
		t.Error("a numeric id is not an entry")
	}
	if _, ok, parsed := DecodeIndexLine([]byte(`not json`)); ok || parsed {
		t.Error("garbage")
	}
	got := RolloutIDCandidates("rollout-2026-11-12T09-00-00-ab-cd.jsonl")
	if !slices.Contains(got, "ab-cd") || !slices.Contains(got, "cd") {
		t.Errorf("candidates %v", got)
	}
	if RolloutIDCandidates("notes.jsonl") != nil {
		t.Error("not a rollout")
	}
}

func TestLocalPath(t *testing.T) {
	if got := LocalPath(`C:\Users\dev\.codex`, "linux"); got != "/mnt/c/Users/dev/.codex" {
		t.Errorf("linux: %q", got)
	}
	if got := LocalPath("/mnt/d/repos/x", "windows"); got != `D:\repos\x` {
		t.Errorf("windows: %q", got)
	}
	if got := ComparePath(`\\?\C:\Users\Dev\.codex\memories\`, "linux"); got != "/mnt/c/users/dev/.codex/memories" {
		t.Errorf("compare: %q", got)
	}
}
