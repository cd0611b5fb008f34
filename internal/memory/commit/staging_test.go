package commit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func stage(t *testing.T, w *Writer, caller string, req Request) StageResult {
	t.Helper()
	res, err := w.Stage(context.Background(), caller, req)
	if err != nil {
		t.Fatalf("stage: %v", err)
	}
	return res
}

func readStaged(t *testing.T, path string) *yaml11.Map {
	t.Helper()
	m, _, err := readManifest(path)
	if err != nil || m == nil {
		t.Fatalf("staged file %s: %v", path, err)
	}
	return m
}

func TestStageOnlyOwnNamespace(t *testing.T) {
	w := newWriter(t)
	_, err := w.Stage(context.Background(), "openclaw", Request{AgentID: "codex", Entities: []any{map[string]any{"name": "X"}}})
	var fe *ForeignNamespaceError
	if !errors.As(err, &fe) || err.Error() != "quarantined members may only write their own namespace ('openclaw')" {
		t.Fatalf("foreign namespace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(w.root, "staging")); !os.IsNotExist(err) {
		t.Error("a refused staged write must not create the staging directory")
	}
}

func TestStageAccumulatesWithCommitMergeRules(t *testing.T) {
	w := newWriter(t)
	res := stage(t, w, "openclaw", Request{AgentID: "openclaw", AgentType: str("other"),
		Entities: []any{map[string]any{"name": "Payments API", "tags": []any{"infra"}, "summary": "first"}},
		Sessions: []any{map[string]any{"date": "2026-06-01", "cwd": "/r", "key_actions": []any{"a"}}},
	})
	want := filepath.Join(w.root, "staging", "openclaw", "openclaw.l5.yaml")
	if !res.Staged || res.Path != want || res.AgentID != "openclaw" ||
		res.Note != "quarantined write staged for review; an operator must run `bourdon staging promote openclaw` before it propagates to the federation" {
		t.Errorf("result: %+v", res)
	}
	// The reference dict.update()s a colliding staged row (tags replaced,
	// null erases the summary, no strip of the name); Stage merges as
	// Commit does.
	stage(t, w, "openclaw", Request{AgentID: "openclaw",
		Entities: []any{map[string]any{"name": " payments api ", "tags": []any{"q3"}, "summary": nil}, map[string]any{"name": "Ledger"}},
		Sessions: []any{map[string]any{"date": "2026-06-01", "cwd": "/r", "key_actions": []any{"b"}}, map[string]any{"date": "2026-06-03"}},
		Notes:    []any{map[string]any{"date": "2026-06-02", "text": "hi"}},
	})
	m := readStaged(t, want)
	ents := listOf(m, "known_entities")
	if len(ents) != 2 {
		t.Fatalf("entities: %v", ents)
	}
	e := ents[0].(*yaml11.Map)
	if tags := e.Value("tags").([]any); len(tags) != 2 || tags[0] != "infra" || tags[1] != "q3" || e.Value("summary") != "first" {
		t.Errorf("staged merge must union tags and keep the summary: %v", e.Entries())
	}
	sess := listOf(m, "recent_sessions")
	if len(sess) != 2 || sess[0].(*yaml11.Map).Value("date") != "2026-06-03" || len(sess[1].(*yaml11.Map).Value("key_actions").([]any)) != 2 {
		t.Errorf("sessions: newest first, merged: %v", sess)
	}
	if len(listOf(m, "notes")) != 1 || textOf(m.Value("agent").(*yaml11.Map).Value("type")) != "other" {
		t.Errorf("notes and agent: %v", m.Entries())
	}
	if lu, _ := m.Value("last_updated").(string); len(lu) != 20 || !strings.HasSuffix(lu, "Z") {
		t.Errorf("staged last_updated %q, want %%Y-%%m-%%dT%%H:%%M:%%SZ", lu)
	}
	// Invisible to the library, which reads only agents/.
	lib, err := library.Open(w.root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer lib.Close()
	if s := lib.Snapshot(); s.Len() != 0 || len(s.Warnings()) != 0 {
		t.Errorf("staged content visible: %v %v", s.IDs(), s.Warnings())
	}
	if _, err := os.Stat(filepath.Join(w.root, "agents")); !os.IsNotExist(err) {
		t.Error("staging must not touch agents/")
	}
}

func TestStageRefusals(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{AgentID: "openclaw", Mode: "replace", AgentType: str("other")}, "mode 'replace' is not available to a quarantined caller"},
		{Request{AgentID: "openclaw", AgentType: str("bogus")}, "agent_type 'bogus' is not in the L5 schema enum"},
		{Request{AgentID: "openclaw", Entities: []any{map[string]any{"type": "x"}}}, "entity missing non-empty 'name'"},
		{Request{AgentID: "openclaw", Sessions: []any{map[string]any{"date": "yesterday"}}}, "is not a calendar date"},
	} {
		_, err := w.Stage(ctx, "openclaw", c.req)
		var ve *ValidationError
		if !errors.As(err, &ve) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.req, err, c.want)
		}
	}
	if _, err := os.Stat(w.StagingDir()); !os.IsNotExist(err) {
		t.Error("a refused staged write must write nothing")
	}
	// agent_type is not required at staging time, and a later one wins
	// (as in Commit; the reference keeps the first).
	stage(t, w, "openclaw", Request{AgentID: "openclaw", Entities: []any{map[string]any{"name": "A"}}})
	stage(t, w, "openclaw", Request{AgentID: "openclaw", AgentType: str("other")})
	stage(t, w, "openclaw", Request{AgentID: "openclaw", AgentType: str("local-swarm"), Instance: str("box")})
	path := w.stagedPath("openclaw", "openclaw")
	agent := readStaged(t, path).Value("agent").(*yaml11.Map)
	if agent.Value("type") != "local-swarm" || agent.Value("instance") != "box" {
		t.Errorf("agent block: %v", agent.Entries())
	}
	// A staged file that cannot be read is refused, not replaced.
	os.WriteFile(path, []byte("agent: [torn"), 0o644)
	_, err := w.Stage(ctx, "openclaw", Request{AgentID: "openclaw", Entities: []any{map[string]any{"name": "B"}}})
	if err == nil || !strings.Contains(err.Error(), "bourdon staging reject openclaw") {
		t.Errorf("corrupt staged file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "agent: [torn" {
		t.Error("the corrupt staged file must be left as it was")
	}
}

// TestStagedThenPromotedEqualsCommitted pins that staging uses Commit's
// merge rules: staging writes and promoting them gives the manifest that
// committing the same writes directly gives.
func TestStagedThenPromotedEqualsCommitted(t *testing.T) {
	reqs := []Request{
		{AgentID: "openclaw", AgentType: str("other"), Entities: []any{map[string]any{"name": "X", "tags": "a", "summary": "s"}}, Sessions: []any{map[string]any{"date": "2026-06-01"}}},
		{AgentID: "openclaw", Entities: []any{map[string]any{"name": "x ", "tags": []any{"b"}, "summary": nil}, map[string]any{"name": "Y", "aliases": "why"}}},
		{AgentID: "openclaw", Workstreams: []any{map[string]any{"name": "W", "related_entities": "X"}}, Sessions: []any{map[string]any{"date": "2026-06-01", "key_actions": "k"}}},
	}
	direct, staged := newWriter(t), newWriter(t)
	for _, r := range reqs {
		commit(t, direct, r)
		stage(t, staged, "openclaw", r)
	}
	if _, err := staged.Promote(context.Background(), "openclaw", Provenance{Caller: "operator", CallerTier: "operator"}); err != nil {
		t.Fatal(err)
	}
	d1, _ := direct.CurrentDigest("openclaw")
	d2, _ := staged.CurrentDigest("openclaw")
	if d1 == "" || d1 != d2 {
		a, _ := os.ReadFile(direct.ManifestPath("openclaw"))
		b, _ := os.ReadFile(staged.ManifestPath("openclaw"))
		t.Errorf("committed:\n%s\nstaged and promoted:\n%s", a, b)
	}
}

// writeStaged puts a staged file where another tool (e.g. an exporter
// staging under its own caller id) would.
func writeStaged(t *testing.T, w *Writer, caller, id, body string) string {
	t.Helper()
	path := w.stagedPath(caller, id)
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestListStaged(t *testing.T) {
	w := newWriter(t)
	if l, err := w.ListStaged(); err != nil || len(l) != 0 {
		t.Fatalf("empty: %v %v", l, err)
	}
	stage(t, w, "openclaw", Request{AgentID: "openclaw", AgentType: str("other"), Entities: []any{map[string]any{"name": "A"}, map[string]any{"name": "B"}}, Sessions: []any{map[string]any{"date": "2026-06-01"}}})
	writeStaged(t, w, "a-b", "openclaw", "agent: {id: openclaw}\nknown_entities:\n- {name: C}\n")
	writeStaged(t, w, "zed", "broken", "agent: [torn")
	writeStaged(t, w, "zed", ".hidden", "agent: {id: x}\n")
	os.WriteFile(filepath.Join(w.StagingDir(), "zed", ".x.l5.yaml.0011aa.tmp"), []byte("partial"), 0o644)
	staged := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"openclaw/openclaw", "a-b/openclaw", "zed/broken"} {
		os.Chtimes(filepath.Join(w.StagingDir(), s+".l5.yaml"), staged, staged)
	}
	w.Now = func() time.Time { return staged.Add(36 * time.Hour) }
	list, err := w.ListStaged()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range list {
		got = append(got, s.Caller+"/"+s.AgentID)
	}
	// Path order as Python sorts paths: by caller, then file ("a-b" before
	// "openclaw", though "a-b/" > "a/" as strings).
	if strings.Join(got, " ") != "a-b/openclaw openclaw/openclaw zed/broken" {
		t.Fatalf("order: %v", got)
	}
	o := list[1]
	if o.Entities != 2 || o.Sessions != 1 || o.StagedAt != "2026-06-01T12:00:00Z" || o.AgeDays != 1.5 || o.Age() != 36*time.Hour || o.Path != w.stagedPath("openclaw", "openclaw") {
		t.Errorf("row: %+v", o)
	}
	if b := list[2]; b.Problem == "" || b.Entities != 0 {
		t.Errorf("unreadable row: %+v", b)
	}
}

func TestDiffStaged(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "openclaw", AgentType: str("other"), Entities: []any{map[string]any{"name": "Known"}}})
	before, _ := os.ReadFile(w.ManifestPath("openclaw"))
	writeStaged(t, w, "a-exporter", "openclaw", "agent: {id: openclaw}\nknown_entities:\n- {name: known, tags: [t]}\n- {name: New}\n")
	stage(t, w, "openclaw", Request{AgentID: "openclaw", Entities: []any{map[string]any{"name": "new"}, map[string]any{"name": "Newer"}}, Sessions: []any{map[string]any{"date": "2026-06-02"}}})
	writeStaged(t, w, "zz", "openclaw", "known_entities:\n- {type: concept}\n")

	diffs, err := w.DiffStaged("openclaw")
	if err != nil || len(diffs) != 3 {
		t.Fatalf("%+v %v", diffs, err)
	}
	d := diffs[0]
	if d.Caller != "a-exporter" || d.Result.EntitiesAdded != 1 || d.Result.EntitiesUpdated != 1 || d.Result.NoOp ||
		strings.Join(d.Changes["known_entities_added"], ",") != "new" || strings.Join(d.Changes["known_entities_updated"], ",") != "known" {
		t.Errorf("first: %+v", d)
	}
	// The second file is diffed against the result of the first.
	d = diffs[1]
	if d.Caller != "openclaw" || d.Result.EntitiesAdded != 1 || d.Result.EntitiesUpdated != 1 || d.Result.SessionsAdded != 1 || d.Result.TotalEntities != 3 {
		t.Errorf("second: %+v", d)
	}
	if d := diffs[2]; !strings.Contains(d.Err, "entity missing non-empty 'name'") {
		t.Errorf("third: %+v", d)
	}
	if after, _ := os.ReadFile(w.ManifestPath("openclaw")); string(after) != string(before) {
		t.Error("a diff must not write")
	}
	if l, _ := w.ListStaged(); len(l) != 3 {
		t.Error("a diff must not remove staged files")
	}
	if _, err := w.DiffStaged("nobody"); err == nil || err.Error() != "no staged writes for agent 'nobody'" {
		t.Errorf("nothing staged: %v", err)
	}
}

func TestPromote(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	stage(t, w, "openclaw", Request{AgentID: "openclaw", AgentType: str("other"), Entities: []any{map[string]any{"name": "A", "tags": []any{"x"}}}})
	// An exporter staging under its own caller id, with an unquoted date.
	writeStaged(t, w, "exporter", "openclaw", "agent: {id: openclaw, type: other}\nknown_entities:\n- {name: a, tags: [y]}\nrecent_sessions:\n- {date: 2026-06-01, cwd: /r}\n")
	op := Provenance{Caller: "operator", CallerTier: "operator"}
	prs, err := w.Promote(ctx, "openclaw", op)
	if err != nil || len(prs) != 2 {
		t.Fatalf("promote: %+v %v", prs, err)
	}
	// Path order: exporter/ before openclaw/.
	if prs[0].Caller != "exporter" || prs[0].Result.EntitiesAdded != 1 || prs[0].Result.SessionsAdded != 1 ||
		prs[1].Caller != "openclaw" || prs[1].Result.EntitiesUpdated != 1 || prs[1].Result.EntitiesAdded != 0 {
		t.Errorf("promotions: %+v", prs)
	}
	m := load(t, w, "openclaw")
	if len(m.Entities) != 1 || m.Entities[0].Name != "A" || strings.Join(m.Entities[0].Tags, ",") != "y,x" || m.Sessions[0].Date != "2026-06-01" {
		t.Errorf("live manifest: %+v %+v", m.Entities, m.Sessions)
	}
	changes, _ := w.Changes("openclaw")
	if len(changes) != 2 {
		t.Fatalf("provenance: %+v", changes)
	}
	for i, by := range []string{"exporter", "openclaw"} {
		if c := changes[i]; c.Op != "promote" || c.StagedBy != by || c.Caller != "operator" || c.CallerTier != "operator" || c.Mode != "merge" {
			t.Errorf("provenance %d: %+v", i, c)
		}
	}
	if _, err := os.Stat(w.StagingDir()); err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(w.StagingDir()); len(entries) != 0 {
		t.Errorf("promoted files and their empty caller directories must be removed: %v", entries)
	}
	_, err = w.Promote(ctx, "openclaw", op)
	var ns *NoStagedError
	if !errors.As(err, &ns) || err.Error() != "no staged writes for agent 'openclaw'" {
		t.Errorf("nothing left: %v", err)
	}
}

func TestPromoteKeepsWhatFails(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	op := Provenance{Caller: "operator", CallerTier: "operator"}
	// No live manifest yet, and the first file has no agent type: it
	// cannot be promoted (as in the reference), but unlike the reference
	// the second file still is, and the first stays with the reason.
	first := writeStaged(t, w, "a-first", "openclaw", "agent: {id: openclaw}\nknown_entities:\n- {name: One}\n")
	second := writeStaged(t, w, "b-second", "openclaw", "agent: {id: openclaw, type: other}\nknown_entities:\n- {name: Two}\n")
	prs, err := w.Promote(ctx, "openclaw", op)
	var pe *PromoteError
	if !errors.As(err, &pe) || len(pe.Failed) != 1 || pe.Failed[0].Path != first ||
		!strings.Contains(err.Error(), first+" (staged by a-first) was not promoted and stays staged: agent_type is required for a new manifest") {
		t.Fatalf("partial promote: %v", err)
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Error("the cause must be reachable with errors.As")
	}
	if len(prs) != 2 || prs[0].Err == nil || prs[1].Err != nil || prs[1].Result.EntitiesAdded != 1 {
		t.Errorf("promotions: %+v", prs)
	}
	if _, err := os.Stat(first); err != nil {
		t.Error("the failed file must stay staged")
	}
	if _, err := os.Stat(second); !os.IsNotExist(err) {
		t.Error("the promoted file must be removed")
	}
	// Now that the manifest exists, its type is inherited.
	if prs, err := w.Promote(ctx, "openclaw", op); err != nil || len(prs) != 1 {
		t.Fatalf("second promote: %+v %v", prs, err)
	}
	if m := load(t, w, "openclaw"); len(m.Entities) != 2 {
		t.Errorf("%+v", m.Entities)
	}
}

func TestReject(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	stage(t, w, "openclaw", Request{AgentID: "openclaw", Entities: []any{map[string]any{"name": "A"}}})
	writeStaged(t, w, "exporter", "openclaw", "agent: [torn")
	writeStaged(t, w, "exporter", "other", "agent: {id: other}\n")
	n, err := w.Reject(ctx, "openclaw")
	if err != nil || n != 2 {
		t.Fatalf("reject: %d %v", n, err)
	}
	list, _ := w.ListStaged()
	if len(list) != 1 || list[0].AgentID != "other" {
		t.Errorf("only the other agent's write must remain: %+v", list)
	}
	if _, err := os.Stat(filepath.Join(w.StagingDir(), "openclaw")); !os.IsNotExist(err) {
		t.Error("an emptied caller directory must be pruned")
	}
	if _, err := w.Reject(ctx, "openclaw"); err == nil || err.Error() != "no staged writes for agent 'openclaw'" {
		t.Errorf("again: %v", err)
	}
	if _, err := w.Reject(ctx, "../x"); err == nil || !strings.Contains(err.Error(), "invalid agent_id") {
		t.Errorf("bad id: %v", err)
	}
	if _, err := os.Stat(w.ManifestPath("openclaw")); !os.IsNotExist(err) {
		t.Error("reject must not write the live manifest")
	}
}

// readManifest reads any manifest, wherever it is (the tests' view, not
// confined to a library).
func readManifest(path string) (*yaml11.Map, []byte, error) { return New("/").readManifest(path) }
