package commit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func str(s string) *string { return &s }

func newWriter(t *testing.T) *Writer {
	t.Helper()
	w := New(t.TempDir())
	tick := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	w.Now = func() time.Time { tick = tick.Add(time.Second); return tick }
	return w
}

func load(t *testing.T, w *Writer, id string) *l5.Manifest {
	t.Helper()
	data, err := os.ReadFile(w.ManifestPath(id))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := l5.FromValue(doc, id)
	return m
}

func commit(t *testing.T, w *Writer, req Request) Result {
	t.Helper()
	res, err := w.Commit(context.Background(), req)
	if err != nil {
		t.Fatalf("commit: %v", err)
	}
	return res
}

func TestCommitCreatesThenMerges(t *testing.T) {
	w := newWriter(t)
	res := commit(t, w, Request{
		AgentID: "clyde", AgentType: str("other"),
		Entities: []any{map[string]any{"name": "SnapshotEntity", "summary": "mcp snapshot probe"}},
		Sessions: []any{map[string]any{"date": "2026-06-09"}},
	})
	if res.EntitiesAdded != 1 || res.SessionsAdded != 1 || res.TotalEntities != 1 || res.TotalSessions != 1 || res.Mode != "merge" || res.NoOp {
		t.Errorf("first commit: %+v", res)
	}
	if res.WorkstreamsAdded != nil || res.NotesAdded != nil {
		t.Errorf("workstream and note counters must be absent when none were sent or stored: %+v", res)
	}
	res = commit(t, w, Request{
		AgentID: "clyde",
		Entities: []any{
			map[string]any{"name": " snapshotentity ", "tags": "infra", "aliases": []any{"SE"}, "summary": nil},
			map[string]any{"name": "Second", "tags": "x"},
		},
		Sessions:      []any{map[string]any{"date": "2026-06-09", "key_actions": []any{"did a"}}, map[string]any{"date": "2026-06-10", "cwd": "/r"}},
		RoleNarrative: str("Writes things."),
	})
	if res.EntitiesAdded != 1 || res.EntitiesUpdated != 1 || res.SessionsAdded != 1 || res.SessionsUpdated != 1 || res.TotalEntities != 2 {
		t.Errorf("merge: %+v", res)
	}
	m := load(t, w, "clyde")
	e := m.Entities[0]
	if e.Name != " snapshotentity " || e.Summary != "mcp snapshot probe" || strings.Join(e.Tags, ",") != "infra" || strings.Join(e.Aliases, ",") != "SE" {
		t.Errorf("merged entity: %+v (name overwritten by the incoming spelling, null keeps the summary, scalar tags coerced)", e)
	}
	if m.Agent.Type != "other" || m.Agent.RoleNarrative != "Writes things." {
		t.Errorf("agent: %+v", m.Agent)
	}
	if m.Sessions[0].Date != "2026-06-10" || strings.Join(m.Sessions[1].KeyActions, ",") != "did a" {
		t.Errorf("sessions must be newest first and merged: %+v", m.Sessions)
	}
	if m.Entities[1].Tags[0] != "x" {
		t.Errorf("a new row's scalar list field becomes a list: %+v", m.Entities[1])
	}
}

func TestCommitScalarCoercionOfStoredRows(t *testing.T) {
	w := newWriter(t)
	path := w.ManifestPath("a")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("spec_version: '0.1'\nagent: {id: a, type: other}\nlast_updated: x\nrecent_sessions:\n- {date: '2026-06-09', cwd: /repo, project_focus: Bourdon}\n"), 0o644)
	res := commit(t, w, Request{AgentID: "a", Sessions: []any{map[string]any{"date": "2026-06-09", "cwd": "/repo", "project_focus": []any{"Phase 3"}, "key_actions": []any{"closed the loop"}}}})
	if res.SessionsUpdated != 1 {
		t.Errorf("%+v", res)
	}
	s := load(t, w, "a").Sessions[0]
	if strings.Join(s.ProjectFocus, "|") != "Bourdon|Phase 3" || strings.Join(s.KeyActions, "|") != "closed the loop" {
		t.Errorf("#134 merge: %+v", s)
	}
}

func TestReplaceWipes(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}, Sessions: []any{map[string]any{"date": "2026-06-01"}}, Instance: str("pc")})
	if _, err := w.Commit(context.Background(), Request{AgentID: "a", Mode: "replace", Entities: []any{map[string]any{"name": "Y"}}}); err == nil || !strings.Contains(err.Error(), "agent_type is required") {
		t.Errorf("replace without agent_type: %v", err)
	}
	res := commit(t, w, Request{AgentID: "a", Mode: "replace", AgentType: str("tutor"), Entities: []any{map[string]any{"name": "Y"}}})
	if res.TotalEntities != 1 || res.TotalSessions != 0 {
		t.Errorf("replace: %+v", res)
	}
	if m := load(t, w, "a"); m.Agent.Instance != "" || m.Entities[0].Name != "Y" {
		t.Errorf("replace keeps only what was sent: %+v", m.Agent)
	}
}

func TestValidationMessages(t *testing.T) {
	w := newWriter(t)
	cases := []struct {
		req  Request
		want string
	}{
		{Request{AgentID: "Invalid Agent ID"}, "invalid agent_id 'Invalid Agent ID': must match ^[a-z0-9][a-z0-9_-]*$"},
		{Request{AgentID: ""}, "invalid agent_id ''"},
		{Request{AgentID: "-lead"}, "invalid agent_id"},
		{Request{AgentID: "abc\n"}, "invalid agent_id"},
		{Request{AgentID: "a", Mode: "upsert"}, "invalid mode 'upsert': must be 'merge' or 'replace'"},
		{Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"type": "concept"}}}, "entity missing non-empty 'name': {'type': 'concept'}"},
		{Request{AgentID: "a", AgentType: str("other"), Entities: []any{"just text"}}, "entity is not a dict: 'just text'"},
		{Request{AgentID: "a", AgentType: str("other"), Sessions: []any{map[string]any{"cwd": "/no/date"}}}, "session missing non-empty 'date': {'cwd': '/no/date'}"},
		{Request{AgentID: "a", AgentType: str("other"), Sessions: []any{map[string]any{"date": "yesterday"}}}, "session date 'yesterday' is not a calendar date"},
		{Request{AgentID: "newagent"}, "agent_type is required for a new manifest (agent_id='newagent', mode='merge')"},
		{Request{AgentID: "a", AgentType: str("bogus-category")}, "agent_type 'bogus-category' is not in the L5 schema enum: ['code-assistant', 'creative-collaborator', 'customer-support', 'local-swarm', 'note-capture', 'other', 'project-manager', 'research-assistant', 'tutor']"},
		{Request{AgentID: "a", AgentType: str("other"), Workstreams: []any{map[string]any{"name": "w", "status": "stalled"}}}, "workstream status 'stalled' is not one of active, paused, done, archived"},
		{Request{AgentID: "a", AgentType: str("other"), Notes: []any{map[string]any{"date": "2026-06-01"}}}, "note missing non-empty 'date' and 'text'"},
	}
	for _, c := range cases {
		_, err := w.Commit(context.Background(), c.req)
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want it to contain %q", c.req, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(w.root, "agents")); !os.IsNotExist(err) {
		t.Error("a refused commit must write nothing")
	}
}

func TestWorkstreamsAndNotes(t *testing.T) {
	w := newWriter(t)
	res := commit(t, w, Request{AgentID: "a", AgentType: str("other"),
		Workstreams: []any{map[string]any{"name": "Outbox", "related_entities": "Ledger"}},
		Notes:       []any{map[string]any{"date": "2026-06-01", "text": "remember"}, map[string]any{"date": "", "text": "undated"}},
	})
	if *res.WorkstreamsAdded != 1 || *res.NotesAdded != 2 || *res.TotalNotes != 2 {
		t.Errorf("%+v", res)
	}
	res = commit(t, w, Request{AgentID: "a", Workstreams: []any{map[string]any{"name": "outbox", "status": "done", "tags": []any{"q3"}}}})
	if *res.WorkstreamsUpdated != 1 || *res.TotalWorkstreams != 1 || *res.NotesAdded != 0 {
		t.Errorf("%+v", res)
	}
	ws := load(t, w, "a").Workstreams[0]
	if ws.Status != "done" || ws.RelatedEntities[0] != "Ledger" || ws.Tags[0] != "q3" {
		t.Errorf("workstream: %+v", ws)
	}
}

func TestNoOpAndExpectedDigest(t *testing.T) {
	w := newWriter(t)
	req := Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X", "tags": []any{"t"}}}}
	commit(t, w, req)
	before, _ := os.ReadFile(w.ManifestPath("a"))
	res := commit(t, w, req)
	if !res.NoOp || len(res.Digest) != 64 || res.EntitiesUpdated != 1 {
		t.Errorf("same content again: %+v", res)
	}
	after, _ := os.ReadFile(w.ManifestPath("a"))
	if string(before) != string(after) {
		t.Error("a no-op must not touch the file (not even last_updated)")
	}
	if v, _ := w.Versions("a", 0); len(v) != 0 {
		t.Errorf("a no-op must not archive a version: %v", v)
	}
	stale := "0123456789abcdef"
	_, err := w.Commit(context.Background(), Request{AgentID: "a", Entities: []any{map[string]any{"name": "Y"}}, ExpectedDigest: &stale})
	var se *StaleDigestError
	if !errors.As(err, &se) || se.Current != res.Digest {
		t.Errorf("stale digest: %v", err)
	}
	digest8 := res.Digest[:8]
	if r := commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "Y"}}, ExpectedDigest: &digest8}); r.NoOp {
		t.Error("a commit with the current digest8 must go through")
	}
}

func TestHistoryExplainAndRollback(t *testing.T) {
	w := newWriter(t)
	p := Provenance{Caller: "operator", CallerTier: "operator", SessionID: "s-1", TranscriptRef: "t.jsonl"}
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "One"}}, Provenance: p})
	first, _ := w.CurrentDigest("a")
	p.SessionID = "s-2"
	commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "Two"}}, Provenance: p})
	second, _ := w.CurrentDigest("a")

	versions, err := w.Versions("a", 0)
	if err != nil || len(versions) != 1 || versions[0].Digest8 != first[:8] || versions[0].Entities != 1 {
		t.Fatalf("versions: %+v %v", versions, err)
	}
	if rb := versions[0].ReplacedBy; rb == nil || rb.SessionID != "s-2" || rb.Digest != second {
		t.Errorf("replaced_by: %+v", rb)
	}
	ch, err := w.Explain("a", first[:8])
	if err != nil || ch == nil || ch.SessionID != "s-1" || ch.Caller != "operator" || strings.Join(ch.CallerAsserted, ",") != "session_id,transcript_ref" {
		t.Errorf("explain first: %+v %v", ch, err)
	}
	if got := strings.Join(ch.Changes["known_entities_added"], ","); got != "one" {
		t.Errorf("what changed: %v", ch.Changes)
	}

	stale := first
	if _, err := w.Rollback(context.Background(), "a", versions[0].VersionID, &stale, p); err == nil {
		t.Error("a rollback against a stale digest must be refused")
	}
	rb, err := w.Rollback(context.Background(), "a", versions[0].VersionID, &second, Provenance{Caller: "operator"})
	if err != nil || rb.Op != "rollback" || rb.RolledBackTo != versions[0].VersionID {
		t.Fatalf("rollback: %+v %v", rb, err)
	}
	if now, _ := w.CurrentDigest("a"); now != first {
		t.Error("the rollback must restore the archived state")
	}
	versions, _ = w.Versions("a", 0)
	if len(versions) != 2 || versions[0].Digest8 != second[:8] {
		t.Fatalf("the state a rollback replaced must be archived: %+v", versions)
	}
	// And the rollback can be undone.
	if _, err := w.Rollback(context.Background(), "a", versions[0].VersionID, nil, Provenance{Caller: "operator"}); err != nil {
		t.Fatal(err)
	}
	if now, _ := w.CurrentDigest("a"); now != second {
		t.Error("undoing the rollback must bring back the second state")
	}
	for _, bad := range []string{"../../etc/passwd", "", ".hidden", "nope"} {
		if _, err := w.Rollback(context.Background(), "a", bad, nil, p); err == nil {
			t.Errorf("version %q accepted", bad)
		}
	}
}

func TestCorruptManifestIsNotMergedInto(t *testing.T) {
	w := newWriter(t)
	path := w.ManifestPath("a")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("agent: [unclosed\n"), 0o644)
	_, err := w.Commit(context.Background(), Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	if err == nil || !strings.Contains(err.Error(), "cannot be read") {
		t.Fatalf("merge into a corrupt file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "agent: [unclosed\n" {
		t.Error("the corrupt file must be left as it was")
	}
	if _, err := w.Commit(context.Background(), Request{AgentID: "a", Mode: "replace", AgentType: str("other")}); err != nil {
		t.Errorf("replace over a corrupt file: %v", err)
	}
}

func TestMergeIntoAManifestWithYAMLDates(t *testing.T) {
	w := newWriter(t)
	path := w.ManifestPath("a")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte("spec_version: '0.1'\nagent: {id: a, type: other}\nlast_updated: 2026-06-08T10:00:00Z\nrecent_sessions:\n- {date: 2026-06-08, cwd: /r}\n"), 0o644)
	res := commit(t, w, Request{AgentID: "a", Sessions: []any{map[string]any{"date": "2026-06-09", "cwd": "/r"}}})
	if res.SessionsAdded != 1 || res.TotalSessions != 2 {
		t.Fatalf("%+v", res)
	}
	if s := load(t, w, "a").Sessions; s[0].Date != "2026-06-09" || s[1].Date != "2026-06-08" {
		t.Errorf("sessions: %+v", s)
	}
}
