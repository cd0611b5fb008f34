//go:build unix

package commit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// libraryAndOutside returns a writer on a fresh library and an empty
// directory outside it.
func libraryAndOutside(t *testing.T) (*Writer, string) {
	t.Helper()
	base := t.TempDir()
	outside := filepath.Join(base, "elsewhere")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	w := New(filepath.Join(base, "lib"))
	tick := time.Date(2026, 6, 30, 12, 0, 0, 0, time.UTC)
	w.Now = func() time.Time { tick = tick.Add(time.Second); return tick }
	return w, outside
}

func link(t *testing.T, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

func emptyDir(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("written outside the library: %v", names)
	}
}

// TestCommitsDoNotWriteThroughLinksOutOfTheLibrary: history/<id>,
// staging/<caller>, .bourdon/exports and .locks linked to a folder outside
// the library make the write fail, naming the link, and nothing lands
// outside.
func TestCommitsDoNotWriteThroughLinksOutOfTheLibrary(t *testing.T) {
	ctx := context.Background()
	row := []any{map[string]any{"name": "X"}}

	t.Run("history", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		commit(t, w, Request{AgentID: "codex", AgentType: str("other"), Entities: row})
		os.RemoveAll(w.historyDir("codex"))
		link(t, outside, w.historyDir("codex"))
		_, err := w.Commit(ctx, Request{AgentID: "codex", Entities: []any{map[string]any{"name": "Y"}}})
		if !fsutil.IsOutside(err) {
			t.Fatalf("commit through a linked history: %v", err)
		}
		emptyDir(t, outside)
		if _, err := w.Changes("codex"); !fsutil.IsOutside(err) {
			t.Errorf("provenance read through the link: %v", err)
		}
		if _, err := w.Rollback(ctx, "codex", "20260630T120001.000000Z-00000000", nil, Provenance{Caller: "operator"}); !fsutil.IsOutside(err) {
			t.Errorf("rollback read through the link: %v", err)
		}
	})
	t.Run("staging", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		link(t, outside, filepath.Join(w.StagingDir(), "codex"))
		_, err := w.Stage(ctx, "codex", Request{AgentID: "codex", Entities: row})
		if !fsutil.IsOutside(err) {
			t.Fatalf("stage through a linked staging folder: %v", err)
		}
		emptyDir(t, outside)
	})
	t.Run("staged file read for a promote", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		doc := yaml11.NewMap(2)
		doc.Set("known_entities", []any{map[string]any{"name": "From outside"}})
		data, _ := yaml11.Encode(doc)
		os.WriteFile(filepath.Join(outside, "codex.l5.yaml"), data, 0o644)
		link(t, filepath.Join(outside, "codex.l5.yaml"), filepath.Join(w.StagingDir(), "codex", "codex.l5.yaml"))
		if _, err := w.Promote(ctx, "codex", Provenance{Caller: "operator"}); !fsutil.IsOutside(err) {
			t.Fatalf("promote of a staged link out: %v", err)
		}
		if _, err := os.Stat(w.ManifestPath("codex")); !os.IsNotExist(err) {
			t.Error("content from outside the library was promoted")
		}
	})
	t.Run("exports", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		link(t, outside, w.ExportsDir())
		doc := yaml11.NewMap(4)
		agent := yaml11.NewMap(2)
		agent.Set("id", "codex")
		agent.Set("type", "code-assistant")
		doc.Set("spec_version", "0.1")
		doc.Set("agent", agent)
		doc.Set("known_entities", row)
		_, err := w.Export(ctx, ExportRequest{AgentID: "codex", Document: doc})
		if !fsutil.IsOutside(err) {
			t.Fatalf("export with a linked exports folder: %v", err)
		}
		if err := w.WriteCache("codex", []byte("{}")); !fsutil.IsOutside(err) {
			t.Errorf("export cache through the link: %v", err)
		}
		emptyDir(t, outside)
	})
	t.Run("locks", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		link(t, outside, filepath.Join(w.root, ".locks"))
		if _, err := w.Commit(ctx, Request{AgentID: "codex", AgentType: str("other"), Entities: row}); !fsutil.IsOutside(err) {
			t.Fatalf("commit with a linked .locks: %v", err)
		}
		emptyDir(t, outside)
	})
	t.Run("manifest", func(t *testing.T) {
		w, outside := libraryAndOutside(t)
		secret := filepath.Join(outside, "secret.l5.yaml")
		os.WriteFile(secret, []byte("spec_version: '0.1'\nagent: {id: codex, type: other}\nknown_entities: [{name: Secret}]\n"), 0o644)
		link(t, secret, w.ManifestPath("codex"))
		if _, err := w.Commit(ctx, Request{AgentID: "codex", Entities: row}); !fsutil.IsOutside(err) {
			t.Fatalf("merge into a manifest linked out: %v", err)
		}
		if d, err := w.CurrentDigest("codex"); !fsutil.IsOutside(err) || d != "" {
			t.Errorf("digest of a manifest linked out: %q %v", d, err)
		}
		if data, _ := os.ReadFile(secret); string(data) == "" {
			t.Error("the target was emptied")
		}
	})
}

// TestLinksInsideTheLibraryAreFollowed: a history folder that is a
// relative link to another folder of the library still works.
func TestLinksInsideTheLibraryAreFollowed(t *testing.T) {
	w, _ := libraryAndOutside(t)
	os.MkdirAll(filepath.Join(w.root, "archive", "codex"), 0o755)
	link(t, "../archive/codex", w.historyDir("codex"))
	commit(t, w, Request{AgentID: "codex", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	commit(t, w, Request{AgentID: "codex", Entities: []any{map[string]any{"name": "Y"}}})
	if vs, err := w.Versions("codex", 0); err != nil || len(vs) != 1 {
		t.Errorf("versions through a link inside: %v %v", vs, err)
	}
}

// TestSweepLibraryRemovesDeadWritersTempFiles: the start-up sweep removes
// old temporary files everywhere the write path writes, and young ones
// whose lock is free; a young one whose lock is held (a live write) and
// files that are not temporary stay.
func TestSweepLibraryRemovesDeadWritersTempFiles(t *testing.T) {
	w, outside := libraryAndOutside(t)
	root := w.root
	old := time.Now().Add(-2 * time.Minute)
	type file struct {
		path string
		old  bool
		keep bool
	}
	files := []file{
		{filepath.Join(root, "agents", ".codex.l5.yaml.0123456789ab.tmp"), true, false},
		{filepath.Join(root, "agents", ".codex.l5.yaml.aaaaaaaaaaaa.tmp"), false, false}, // young, lock free
		{filepath.Join(root, "agents", ".busy.l5.yaml.aaaaaaaaaaaa.tmp"), false, true},   // young, lock held
		{filepath.Join(root, "agents", ".busy.l5.yaml.bbbbbbbbbbbb.tmp"), true, false},   // old: gone whatever the lock
		{filepath.Join(root, "agents", ".notes"), true, true},
		{filepath.Join(root, "agents", "codex.l5.yaml"), true, true},
		{filepath.Join(root, "history", "codex", "versions", ".20260101T000000.000000Z-abcdef01.l5.yaml.0a0b.tmp"), false, false},
		{filepath.Join(root, "staging", "codex", ".codex.l5.yaml.0a0b0c0d0e0f.tmp"), false, false},
		{filepath.Join(root, ".bourdon", "exports", ".codex.json.0a0b0c0d0e0f.tmp"), false, false},
		{filepath.Join(root, ".bourdon", "exports", ".codex.cache.json.0a0b0c0d0e0f.tmp"), false, true}, // young, no lock guards it
		{filepath.Join(root, ".bourdon", "exports", ".codex.cache.json.111111111111.tmp"), true, false},
		{filepath.Join(root, ".bourdon", ".watermarks.json.0a0b0c0d0e0f.tmp"), true, false},
		{filepath.Join(root, "requests", ".REQ-2026-0001.yaml.0a0b0c0d0e0f.tmp"), true, false},
		{filepath.Join(root, "requests", "proposals", ".prop-0123456789ab.yaml.0a0b0c0d0e0f.tmp"), true, false},
		{filepath.Join(outside, ".x.l5.yaml.0a0b0c0d0e0f.tmp"), true, true},
	}
	for _, f := range files {
		os.MkdirAll(filepath.Dir(f.path), 0o755)
		os.WriteFile(f.path, []byte("partial"), 0o644)
		if f.old {
			os.Chtimes(f.path, old, old)
		}
	}
	link(t, outside, filepath.Join(root, "staging", "elsewhere"))
	unlock, err := fsutil.Lock(context.Background(), w.lockPath("busy"))
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	removed := w.SweepLibrary(context.Background())
	for _, f := range files {
		_, err := os.Lstat(f.path)
		if exists := err == nil; exists != f.keep {
			t.Errorf("%s: exists %v, want %v", f.path, exists, f.keep)
		}
	}
	want := 0
	for _, f := range files {
		if !f.keep {
			want++
		}
	}
	if len(removed) != want {
		t.Errorf("removed %d files, want %d: %v", len(removed), want, removed)
	}
}

// TestHistoryReadersValidateTheAgentID: every reader of an agent's
// history refuses an id that is not an agent id, whoever calls it.
func TestHistoryReadersValidateTheAgentID(t *testing.T) {
	w, _ := libraryAndOutside(t)
	for _, id := range []string{"../../elsewhere", "..", "", "A/b"} {
		var ve *ValidationError
		if _, err := w.Explain(id, "deadbeef"); !errors.As(err, &ve) {
			t.Errorf("Explain(%q): %v", id, err)
		}
		if _, err := w.Changes(id); !errors.As(err, &ve) {
			t.Errorf("Changes(%q): %v", id, err)
		}
		if _, err := w.CurrentDigest(id); !errors.As(err, &ve) {
			t.Errorf("CurrentDigest(%q): %v", id, err)
		}
		if _, err := w.Versions(id, 0); !errors.As(err, &ve) {
			t.Errorf("Versions(%q): %v", id, err)
		}
	}
}
