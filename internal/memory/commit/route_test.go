package commit

import (
	"context"
	"errors"
	"os"
	"testing"
)

func TestSubmitRoutesByTheDecision(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	req := Request{AgentID: "openclaw", AgentType: str("other"),
		Entities:   []any{map[string]any{"name": "Payments API"}},
		Provenance: Provenance{Caller: "openclaw", CallerTier: "quarantined"}}
	out, err := w.Submit(ctx, req, true)
	if err != nil || out.Staged == nil || out.Committed != nil || !out.Staged.Staged {
		t.Fatalf("staged: %+v %v", out, err)
	}
	if _, err := os.Stat(w.ManifestPath("openclaw")); !os.IsNotExist(err) {
		t.Error("a staged write reached the live manifest")
	}
	out, err = w.Submit(ctx, req, false)
	if err != nil || out.Committed == nil || out.Staged != nil || out.Committed.AgentID != "openclaw" {
		t.Fatalf("committed: %+v %v", out, err)
	}
	// A staged write is refused for another namespace, as Stage refuses it.
	foreign := req
	foreign.AgentID = "codex"
	var fe *ForeignNamespaceError
	if _, err := w.Submit(ctx, foreign, true); !errors.As(err, &fe) {
		t.Errorf("foreign staged write: %v", err)
	}
}

func TestListedVersionsIsBounded(t *testing.T) {
	w := newWriter(t)
	ctx := context.Background()
	for i := range 3 {
		req := Request{AgentID: "codex", AgentType: str("other"), Entities: []any{map[string]any{"name": string(rune('a' + i))}}}
		if _, err := w.Commit(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	for limit, want := range map[int]int{-1: 1, 0: 1, 1: 1, 2: 2, MaxListedVersions + 1: 2} {
		if vs, err := w.ListedVersions("codex", limit); err != nil || len(vs) != want {
			t.Errorf("limit %d: %d versions, %v; want %d", limit, len(vs), err, want)
		}
	}
}
