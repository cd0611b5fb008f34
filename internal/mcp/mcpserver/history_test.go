package mcpserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// TestExplainValidatesTheAgentID: explain_memory_change with agent_id
// ../../elsewhere must not read a provenance file outside the library; it
// answers, as list_memory_versions does, that the id is invalid.
func TestExplainValidatesTheAgentID(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	// history/../../elsewhere, seen from the library.
	outside := filepath.Join(lib, "history", "..", "..", "elsewhere")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	record := `{"time":"2026-06-30T12:00:00.000000Z","op":"commit","agent_id":"x","digest":"deadbeefdeadbeef","digest8":"deadbeef","caller":"planted-secret","caller_asserted":[]}` + "\n"
	if err := os.WriteFile(filepath.Join(outside, "provenance.jsonl"), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	for tool, args := range map[string]map[string]any{
		"explain_memory_change": {"agent_id": "../../elsewhere", "digest": "deadbeef"},
		"list_memory_versions":  {"agent_id": "../../elsewhere"},
	} {
		got, res := mcptest.CallJSON(t, cs, tool, args)
		text, _ := mcptest.SingleText(res)
		if strings.Contains(text, "planted-secret") {
			t.Fatalf("%s read a provenance file outside the library: %s", tool, text)
		}
		p, _ := got.(map[string]any)
		if e, _ := p["error"].(string); res.IsError || !strings.HasPrefix(e, "invalid agent_id '../../elsewhere'") {
			t.Errorf("%s: want the in-band invalid agent_id error, got %s", tool, text)
		}
	}
}
