package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

var update = flag.Bool("update", false, "rewrite the golden tool schemas in testdata/tool_schemas")

// wantTools is the tool inventory of the full server, in name order.
var wantTools = []string{
	"advance_stage", "code_sample_search", "commit_to_federation", "compile_codex_turn", "describe_caller",
	"describe_schema", "docs_fetch", "docs_search", "explain_memory_change", "export_agents", "find_entity",
	"get_cross_agent_summary", "get_deeper_context", "get_dod", "get_learning_path", "get_related", "get_request",
	"list_agents", "list_memory_versions", "list_notes", "list_recent_work", "list_requests", "list_workstreams",
	"prepare_recognition_context", "query_agent_memory", "query_graph", "reload_library", "request_intake",
	"resolve_xref", "rollback_agent_memory",
}

// memoryTools counts the tools of a server without docs and requests.
const memoryTools = 17

// TestToolSchemasAreStable pins every tool's description, annotations,
// input schema and output schema, on the full server (memory, docs and
// requests). Run with -update after an intended change and review the
// diff.
func TestToolSchemasAreStable(t *testing.T) {
	srv, _, _ := graphServer(t)
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
		checkGolden(t, tool)
	}
	slices.Sort(names)
	if !slices.Equal(names, wantTools) {
		t.Errorf("tools %v, want %v", names, wantTools)
	}
}

func checkGolden(t *testing.T, tool *mcp.Tool) {
	t.Helper()
	if tool.OutputSchema == nil {
		t.Errorf("%s has no output schema", tool.Name)
	}
	got, err := json.MarshalIndent(map[string]any{
		"description":  tool.Description,
		"annotations":  tool.Annotations,
		"inputSchema":  tool.InputSchema,
		"outputSchema": tool.OutputSchema,
	}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "tool_schemas", tool.Name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%s: %v (run go test -run TestToolSchemasAreStable -update to create it)", tool.Name, err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s schema changed (-golden +now); rerun with -update if intended:\n%s", tool.Name, diff)
	}
}

// TestAccessRulesMatchTheSurfaces: the operations the full server offers
// through its access steps (every tool, resource read and the completion)
// are exactly the operations of the access rules table (trust.Ops), so no
// surface lacks a rule and no rule is left for something gone or
// misspelt; and the server without docs or requests offers a subset.
func TestAccessRulesMatchTheSurfaces(t *testing.T) {
	srv, _, _ := graphServer(t)
	if diff := cmp.Diff(trust.Ops(), mcpserver.Surfaces(srv)); diff != "" {
		t.Errorf("access rules (-) and surfaces of the full server (+) differ:\n%s", diff)
	}
	for _, tool := range wantTools {
		if !slices.Contains(mcpserver.Surfaces(srv), tool) {
			t.Errorf("tool %s is not offered through the access step", tool)
		}
	}
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	small, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	for _, op := range mcpserver.Surfaces(small) {
		if !slices.Contains(trust.Ops(), op) {
			t.Errorf("the memory server offers %s, which has no access rule", op)
		}
	}
}
