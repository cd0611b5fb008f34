package mcpserver_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// TestDriftingSurfaces: a manifest that shrinks to a fraction of what it
// used to hold is reported by prepare_recognition_context; the key is
// absent while every surface is healthy.
func TestDriftingSurfaces(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	write := func(n int) {
		var b strings.Builder
		b.WriteString("spec_version: '0.1'\nagent: {id: cursor, type: code-assistant}\nlast_updated: '2026-06-30T00:00:00+00:00'\nknown_entities:\n")
		for i := range n {
			fmt.Fprintf(&b, "- {name: Thing %d}\n", i)
		}
		if err := os.WriteFile(filepath.Join(lib, "agents", "cursor.l5.yaml"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(20)
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	call := func() map[string]any {
		got, _ := mcptest.CallJSON(t, cs, "prepare_recognition_context", map[string]any{"prompt": "what about Bourdon"})
		return got.(map[string]any)
	}
	if _, present := call()["drifting_surfaces"]; present {
		t.Fatal("a healthy library must not carry drifting_surfaces")
	}
	write(2)
	got := call()
	list, _ := got["drifting_surfaces"].([]any)
	if len(list) != 1 || !strings.Contains(fmt.Sprint(list[0]), "down from 20") {
		t.Fatalf("drifting_surfaces after cursor shrank: %v", got["drifting_surfaces"])
	}
	write(20)
	if _, present := call()["drifting_surfaces"]; present {
		t.Error("a recovered surface must not be reported")
	}
}
