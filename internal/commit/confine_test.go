//go:build unix

package commit

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/fsutil"
	"github.com/getbourdon/bourdon-go/internal/yaml11"
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
		link(t, outside, filepath.Join(w.Root(), ".locks"))
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
	os.MkdirAll(filepath.Join(w.Root(), "archive", "codex"), 0o755)
	link(t, "../archive/codex", w.historyDir("codex"))
	commit(t, w, Request{AgentID: "codex", AgentType: str("other"), Entities: []any{map[string]any{"name": "X"}}})
	commit(t, w, Request{AgentID: "codex", Entities: []any{map[string]any{"name": "Y"}}})
	if vs, err := w.Versions("codex", 0); err != nil || len(vs) != 1 {
		t.Errorf("versions through a link inside: %v %v", vs, err)
	}
}
