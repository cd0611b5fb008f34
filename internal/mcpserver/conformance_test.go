package mcpserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/mcptest"
)

const fixtures = "../../testdata/conformance"

// snapshotTools are the mcp_snapshots this server must reproduce.
var snapshotTools = []string{
	"find_entity", "query_agent_memory", "list_recent_work",
	"list_agents", "export_agents", "get_cross_agent_summary",
	"prepare_recognition_context",
	"commit_to_federation", // last: it writes to the library
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestMCPSnapshots serves the conformance seed library, calls each tool
// through a real MCP client, and compares the normalized text payload with
// the reference's snapshot.
func TestMCPSnapshots(t *testing.T) {
	var norm mcptest.Normalizer
	readJSONFile(t, filepath.Join(fixtures, "mcp_snapshots", "_normalizer.json"), &norm)
	for _, transport := range mcptest.Transports {
		t.Run(transport, func(t *testing.T) {
			lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
			srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{Machine: "conformance-host"})
			cs := mcptest.Connect(t, srv.Server, transport)
			for _, tool := range snapshotTools {
				t.Run(tool, func(t *testing.T) {
					var req struct {
						Tool string         `json:"tool"`
						Args map[string]any `json:"args"`
					}
					readJSONFile(t, filepath.Join(fixtures, "mcp_snapshots", tool+".req.json"), &req)
					var want any
					readJSONFile(t, filepath.Join(fixtures, "mcp_snapshots", tool+".res.json"), &want)
					got, res := mcptest.CallJSON(t, cs, req.Tool, req.Args)
					if res.IsError {
						t.Fatalf("tool error: %v", got)
					}
					if diff := cmp.Diff(want, norm.Normalize(got)); diff != "" {
						t.Errorf("payload differs from the reference snapshot (-want +got):\n%s", diff)
					}
				})
			}
		})
	}
}
