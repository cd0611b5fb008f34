package commit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestCommitSweepsStaleTempFiles(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	agents := filepath.Join(w.root, "agents")
	versions := filepath.Join(w.root, "history", "a", "versions")
	old := time.Now().Add(-2 * time.Minute)
	files := map[string]bool{ // path: should survive
		filepath.Join(agents, ".a.l5.yaml.0123456789ab.tmp"):                          false,
		filepath.Join(agents, ".a.l5.yaml.fresh0000000.tmp"):                          true, // maybe a live write
		filepath.Join(agents, ".ab.l5.yaml.0123456789ab.tmp"):                         true, // another agent's
		filepath.Join(agents, ".hidden-note"):                                         true,
		filepath.Join(versions, ".20260101T000000.000000Z-abcdef01.l5.yaml.0a0b.tmp"): false,
	}
	for path, keep := range files {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte("partial"), 0o644)
		if !keep || !strings.Contains(path, "fresh") {
			os.Chtimes(path, old, old)
		}
	}
	// A fresh Writer sweeps on its first commit to an agent.
	w2 := New(w.root)
	if _, err := w2.Commit(context.Background(), Request{AgentID: "a", Entities: []any{map[string]any{"name": "Y"}}}); err != nil {
		t.Fatal(err)
	}
	for path, keep := range files {
		_, err := os.Stat(path)
		if exists := err == nil; exists != keep {
			t.Errorf("%s: exists %v, want %v", filepath.Base(path), exists, keep)
		}
	}
	// Stage sweeps the staging directory of the file it writes.
	st := filepath.Join(w.StagingDir(), "a", ".a.l5.yaml.0123456789ab.tmp")
	os.MkdirAll(filepath.Dir(st), 0o755)
	os.WriteFile(st, nil, 0o644)
	os.Chtimes(st, old, old)
	if _, err := w2.Stage(context.Background(), "a", Request{AgentID: "a", Entities: []any{map[string]any{"name": "Z"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st); !os.IsNotExist(err) {
		t.Error("stale staging temp file survived")
	}
}

func TestTornProvenanceLineLosesOnlyItself(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	path := filepath.Join(w.root, "history", "a", "provenance.jsonl")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"time":"2026-06-30T12:00:02.000000Z","op":"com`) // a writer died mid-append
	f.Close()
	commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "Y"}}})
	changes, err := w.Changes("a")
	if err != nil || len(changes) != 2 {
		t.Fatalf("the record after a torn line must survive: %d records, %v", len(changes), err)
	}
	cur, _ := w.CurrentDigest("a")
	if changes[1].Digest != cur {
		t.Error("the last record must be the current state")
	}
}

func TestRollbackRepairsACorruptManifest(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	good, _ := w.CurrentDigest("a")
	commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "Y"}}})
	os.WriteFile(w.ManifestPath("a"), []byte("agent: [torn"), 0o644)
	vs, _ := w.Versions("a", 0)
	ch, err := w.Rollback(context.Background(), "a", vs[0].VersionID, nil, Provenance{Caller: "operator"})
	if err != nil {
		t.Fatalf("rollback over a corrupt manifest: %v", err)
	}
	if cur, _ := w.CurrentDigest("a"); cur != good || ch.Digest != good || ch.ArchivedVersion == "" {
		t.Errorf("rollback: %+v", ch)
	}
	data, _ := os.ReadFile(w.versionPath("a", ch.ArchivedVersion))
	if string(data) != "agent: [torn" {
		t.Error("the corrupt bytes must be archived, so the rollback can be undone")
	}
}

// TestWriterRereadsAFileChangedByAnother pins that the parse cache is keyed
// by content: a manifest another process rewrote is read again, even when
// the Writer wrote the previous one.
func TestWriterRereadsAFileChangedByAnother(t *testing.T) {
	w := newWriter(t)
	commit(t, w, Request{AgentID: "a", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	other := New(w.root)
	if _, err := other.Commit(context.Background(), Request{AgentID: "a", Entities: []any{map[string]any{"name": "FromOther"}}}); err != nil {
		t.Fatal(err)
	}
	res := commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "Z"}}})
	if res.TotalEntities != 3 {
		t.Errorf("the other writer's entity was lost: %+v", res)
	}
	// And the cached manifest is never modified by a commit.
	for i := range 3 {
		commit(t, w, Request{AgentID: "a", Entities: []any{map[string]any{"name": "X", "tags": []any{fmt.Sprint(i)}}}})
	}
	if tags := load(t, w, "a").Entities[0].Tags; strings.Join(tags, ",") != "0,1,2" {
		t.Errorf("tags %v", tags)
	}
}
