package mcpserver_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// TestTierMatrix runs every case of the reference's tier matrix through
// the MCP layer: the trusted operator over an in-memory session, the
// quarantined openclaw (granted claude-code only) over HTTP with its
// bearer token. Each allow must not be a denial; each deny must be the
// reference's denial payload, verbatim.
func TestTierMatrix(t *testing.T) {
	var matrix struct {
		Cases []struct {
			Tool     string         `json:"tool"`
			Tier     string         `json:"tier"`
			Args     map[string]any `json:"args"`
			Decision string         `json:"decision"`
			Denial   map[string]any `json:"denial"`
		} `json:"cases"`
	}
	readJSONFile(t, filepath.Join(fixtures, "tier_matrix.json"), &matrix)
	if len(matrix.Cases) == 0 {
		t.Fatal("no cases")
	}
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{Audit: trust.OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))})
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("openclaw", trust.TierQuarantined, []string{"claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	sessions := map[string]*mcp.ClientSession{
		"trusted":     mcptest.Connect(t, srv.Server, "in-memory"),
		"quarantined": mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, ""),
	}
	for _, c := range matrix.Cases {
		got, res := mcptest.CallJSON(t, sessions[c.Tier], c.Tool, c.Args)
		payload, _ := got.(map[string]any)
		b, _ := json.Marshal(got)
		switch {
		case res.IsError:
			t.Errorf("%s as %s: tool error %s", c.Tool, c.Tier, b)
		case c.Decision == "deny":
			if diff := cmp.Diff(c.Denial, payload); diff != "" {
				t.Errorf("%s as %s %v: denial differs (-reference +ours):\n%s", c.Tool, c.Tier, c.Args, diff)
			}
		case payload["error"] == "access denied":
			t.Errorf("%s as %s %v: denied, the reference allows: %s", c.Tool, c.Tier, c.Args, b)
		case strings.Contains(string(b), "codex") && c.Tier == "quarantined" && c.Tool != "commit_to_federation":
			t.Errorf("%s as %s: shows the ungranted codex namespace: %s", c.Tool, c.Tier, b)
		}
	}
}

// TestTheDecisionComesFirst: a call is decided and audited before its
// handler looks at its arguments, as the reference's tools check access
// first: a quarantined caller naming an ungranted agent with an access
// level that is no level gets the denial, not the level's error, and every
// call, however it ends, leaves one audit line.
func TestTheDecisionComesFirst(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	audit := trust.OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{Audit: audit})
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("openclaw", trust.TierQuarantined, []string{"claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	cs := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")
	got, res := mcptest.CallJSON(t, cs, "query_agent_memory", map[string]any{"agent": "codex", "topic": "x", "access_level": "everything"})
	if p, _ := got.(map[string]any); res.IsError || p["error"] != "access denied" {
		t.Errorf("ungranted agent with a bad level: %v (tool error %v), want the denial", got, res.IsError)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "query_agent_memory", Arguments: map[string]any{"agent": "claude-code", "topic": "x", "access_level": "everything"}})
	if err != nil || !res.IsError {
		t.Error("granted agent with a bad level: want a tool error")
	}
	entries, err := audit.Entries(trust.AuditFilter{Agent: "openclaw"})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range entries {
		lines = append(lines, e.Op+" "+e.Namespace+" "+e.Decision)
	}
	want := []string{"query_agent_memory codex deny", "query_agent_memory claude-code allow"}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("audit (-want +got):\n%s", diff)
	}
}
