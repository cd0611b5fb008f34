package turn

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
)

// vectors is testdata/conformance/turn_compiler_vectors.json: the
// reference's compile_codex_turn and compile_cursor_turn run over a
// two-agent seed library with the clock frozen, a synthetic non-git cwd
// and an empty Codex home.
type vectors struct {
	FrozenClock         string                     `json:"frozen_clock"`
	CodexSchemaVersion  string                     `json:"codex_schema_version"`
	CursorSchemaVersion string                     `json:"cursor_schema_version"`
	SeedLibrary         map[string]json.RawMessage `json:"seed_library"`
	CodexCases          []struct {
		Name                  string          `json:"name"`
		Prompt                string          `json:"prompt"`
		Cwd                   string          `json:"cwd"`
		AccessLevel           string          `json:"access_level"`
		RecognitionConfidence string          `json:"recognition_confidence"`
		ItemScores            []any           `json:"item_scores"`
		Brief                 json.RawMessage `json:"brief"`
	} `json:"codex_cases"`
	CursorCases []struct {
		Name                  string `json:"name"`
		Prompt                string `json:"prompt"`
		Cwd                   string `json:"cwd"`
		AccessLevel           string `json:"access_level"`
		RecognitionConfidence string `json:"recognition_confidence"`
		CwdProject            string `json:"cwd_project"`
		PromptTokens          []any  `json:"prompt_tokens"`
		MatchedEntities       []any  `json:"matched_entities"`
		Routing               any    `json:"routing"`
	} `json:"cursor_cases"`
}

func loadVectors(t testing.TB) vectors {
	t.Helper()
	b, err := os.ReadFile("../../../testdata/conformance/turn_compiler_vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// seedStore writes the vectors' seed library (JSON is YAML) into a
// temporary library and opens a store over it.
func seedStore(t testing.TB, seed map[string]json.RawMessage) *federation.Store {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, doc := range seed {
		if err := os.WriteFile(filepath.Join(dir, "agents", name), doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	return federation.New(lib)
}

func frozen(t testing.TB, day string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", day)
	if err != nil {
		t.Fatal(err)
	}
	return d.Add(12 * time.Hour)
}

func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// hermeticCwd skips when the synthetic cwds of the vectors could touch
// this machine's file system (the reference refuses to emit then, too).
func hermeticCwd(t *testing.T) {
	for _, p := range []string{"/projects", "/.git"} {
		if _, err := os.Lstat(p); err == nil {
			t.Skipf("%s exists on this machine; the vectors' synthetic cwds would not be hermetic", p)
		}
	}
}

func TestCodexVectors(t *testing.T) {
	hermeticCwd(t)
	v := loadVectors(t)
	if v.CodexSchemaVersion != SchemaVersion {
		t.Fatalf("schema %q, fixture %q", SchemaVersion, v.CodexSchemaVersion)
	}
	store := seedStore(t, v.SeedLibrary)
	now := frozen(t, v.FrozenClock)
	codexHome := t.TempDir() // empty: no threads, no state database
	c := New(store, Env{Now: func() time.Time { return now }, CodexHome: codexHome})
	for _, tc := range v.CodexCases {
		t.Run(tc.Name, func(t *testing.T) {
			cwd := tc.Cwd
			b, err := c.Compile(context.Background(), Request{
				Prompt: tc.Prompt, Cwd: &cwd, AccessLevel: tc.AccessLevel,
				MaxItems: DefaultMaxItems, MaxChars: DefaultMaxChars,
			})
			if err != nil {
				t.Fatal(err)
			}
			if b.Repo.Root != nil {
				t.Fatalf("repo root %q: cwd is not hermetic", *b.Repo.Root)
			}
			// The fixture swaps the resolved cwd back to the logical input.
			b.Cwd = &cwd
			var want any
			if err := json.Unmarshal(tc.Brief, &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, asJSON(t, b)); diff != "" {
				t.Errorf("brief differs from the reference (-want +got):\n%s", diff)
			}
			if b.Routing.Confidence != tc.RecognitionConfidence {
				t.Errorf("confidence %q, want %q", b.Routing.Confidence, tc.RecognitionConfidence)
			}
			scores := []any{}
			for _, it := range b.Items {
				scores = append(scores, map[string]any{"rank": it.Rank, "name": it.Name, "kind": it.Kind, "source": it.Source, "score": it.Score})
			}
			if diff := cmp.Diff(tc.ItemScores, asJSON(t, scores)); diff != "" {
				t.Errorf("item scores differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCursorVectors(t *testing.T) {
	v := loadVectors(t)
	if v.CursorSchemaVersion != CursorSchemaVersion {
		t.Fatalf("schema %q, fixture %q", CursorSchemaVersion, v.CursorSchemaVersion)
	}
	store := seedStore(t, v.SeedLibrary)
	now := frozen(t, v.FrozenClock)
	for _, tc := range v.CursorCases {
		t.Run(tc.Name, func(t *testing.T) {
			cwd := tc.Cwd
			b, err := CompileCursor(store.Manifests(nil), CursorRequest{
				Prompt: tc.Prompt, Cwd: &cwd, AccessLevel: tc.AccessLevel, MaxItems: DefaultMaxItems, Now: now,
			})
			if err != nil {
				t.Fatal(err)
			}
			got := asJSON(t, b).(map[string]any)
			want := map[string]any{
				"schema_version":   v.CursorSchemaVersion,
				"strategy":         Strategy,
				"prompt_tokens":    tc.PromptTokens,
				"cwd_project":      tc.CwdProject,
				"matched_entities": tc.MatchedEntities,
				"routing":          tc.Routing,
			}
			delete(got, "compile_latency_us") // runtime-dependent, dropped by the fixture
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("brief differs from the reference (-want +got):\n%s", diff)
			}
			if b.Routing.Confidence != tc.RecognitionConfidence {
				t.Errorf("confidence %q, want %q", b.Routing.Confidence, tc.RecognitionConfidence)
			}
		})
	}
}
