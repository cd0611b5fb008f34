package mcpserver_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// memoCalls are calls of the memoized tools over the seed library: names
// and topics as sent (case, space, aliases, unknown ones), at every level.
func memoCalls() []struct {
	tool string
	args map[string]any
} {
	var calls []struct {
		tool string
		args map[string]any
	}
	for _, level := range []string{"", "public", "team", "private"} {
		for _, name := range []string{"Bourdon", " bourdon ", "SecretProj", "Internal Notes", "Roadmap", "Quarterly Revenue", "nobody knows this"} {
			args := map[string]any{"name": name}
			qargs := map[string]any{"agent": "codex", "topic": name}
			if level != "" {
				args["access_level"], qargs["access_level"] = level, level
			}
			calls = append(calls, struct {
				tool string
				args map[string]any
			}{"find_entity", args}, struct {
				tool string
				args map[string]any
			}{"query_agent_memory", qargs})
		}
	}
	return calls
}

// text calls tool and returns its text content, failing on a tool error.
func text(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	s, err := mcptest.SingleText(res)
	if err != nil || res.IsError {
		t.Fatalf("%s %v: %s %v", tool, args, s, err)
	}
	return s
}

// TestMemoizedAnswersFollowTheLibrary: a call asked again answers what the
// library holds now, byte for byte what the first asking answered while
// the library is unchanged, and the new state right after a write.
func TestMemoizedAnswersFollowTheLibrary(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	calls := memoCalls()
	first := make([]string, len(calls))
	for round := range 3 {
		for i, c := range calls {
			got := text(t, cs, c.tool, c.args)
			if round == 0 {
				first[i] = got
			} else if got != first[i] {
				t.Fatalf("%s %v asked again: %s, first %s", c.tool, c.args, got, first[i])
			}
		}
	}

	text(t, cs, "commit_to_federation", map[string]any{"agent_id": "codex", "entities": []any{map[string]any{"name": "Bourdon", "summary": "Federation, rewritten by codex."}}})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"find_entity", map[string]any{"name": "Bourdon"}}, {"query_agent_memory", map[string]any{"agent": "codex", "topic": "Bourdon"}}} {
		if got := text(t, cs, c.tool, c.args); !strings.Contains(got, "rewritten by codex") || strings.Contains(got, "codex view") {
			t.Errorf("%s after the commit: %s", c.tool, got)
		}
	}

	// A second server over the same directory, which has kept nothing,
	// answers every call as the first one now does from its memo.
	other, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	fresh := mcptest.Connect(t, other.Server, "in-memory")
	for _, c := range calls {
		text(t, cs, c.tool, c.args) // kept again after the write
		if got, want := text(t, cs, c.tool, c.args), text(t, fresh, c.tool, c.args); got != want {
			t.Errorf("%s %v: memoized %s, fresh %s", c.tool, c.args, got, want)
		}
	}
}

// TestMemoizedAnswersKeepCallersApart: an answer kept for a trusted caller
// is never given to a quarantined one, whose reads are filtered to its
// grants and capped at its level, and every call is still decided and
// audited.
func TestMemoizedAnswersKeepCallersApart(t *testing.T) {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	audit := trust.OpenAudit(filepath.Join(t.TempDir(), "audit.jsonl"))
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{Audit: audit})
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("openclaw", trust.TierQuarantined, []string{"claude-code"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := registry.Add("peekaboo", trust.TierQuarantined, []string{"codex"})
	if err != nil {
		t.Fatal(err)
	}
	trusted := mcptest.Connect(t, srv.Server, "in-memory")
	quarantined := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")
	granted := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, other, "")

	for _, args := range []map[string]any{
		{"name": "Bourdon", "access_level": "private"},
		{"name": "Bourdon"},
		{"name": "SecretProj"},
		{"name": "Internal Notes", "access_level": "private"},
	} {
		for range 2 {
			text(t, trusted, "find_entity", args)
		}
		for range 2 {
			if got := text(t, quarantined, "find_entity", args); strings.Contains(got, "codex") || strings.Contains(got, "personal") {
				t.Errorf("find_entity %v as openclaw shows what it may not read: %s", args, got)
			}
		}
		if got := text(t, trusted, "find_entity", args); args["name"] != "Internal Notes" && !strings.Contains(got, "codex") {
			t.Errorf("find_entity %v as the operator after openclaw lost codex's rows: %s", args, got)
		}
		// Another quarantined member, at the same ceiling, granted
		// another namespace.
		if got := text(t, granted, "find_entity", args); strings.Contains(got, "claude-code") || args["name"] != "Internal Notes" && !strings.Contains(got, "codex") {
			t.Errorf("find_entity %v as peekaboo (granted codex) after openclaw: %s", args, got)
		}
	}
	args := map[string]any{"agent": "codex", "topic": "Bourdon"}
	text(t, trusted, "query_agent_memory", args)
	text(t, trusted, "query_agent_memory", args)
	if got := text(t, quarantined, "query_agent_memory", args); !strings.Contains(got, `"access denied"`) {
		t.Errorf("query_agent_memory on codex as openclaw after the operator: %s, want the denial", got)
	}

	entries, err := audit.Entries(trust.AuditFilter{})
	if err != nil {
		t.Fatal(err)
	}
	const calls = 4*6 + 3
	if len(entries) != calls {
		t.Errorf("%d audit entries for %d calls", len(entries), calls)
	}
}

// TestPeersAnswersAreNotMemoized: a call that asks peers is answered anew
// every time, since the peers' answers change without the library.
func TestPeersAnswersAreNotMemoized(t *testing.T) {
	var asked atomic.Int64
	remote := mcp.NewServer(&mcp.Implementation{Name: "changing-peer", Version: "1"}, nil)
	remote.AddTool(&mcp.Tool{Name: "find_entity", InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		summary := "peer answer " + string(rune('a'+asked.Add(1)))
		b, _ := json.Marshal(map[string]any{"matches": []any{map[string]any{"name": "Bourdon", "agents": []any{"codex"}, "summaries": map[string]any{"codex": summary}}}})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil
	})
	peers, _ := peersOf(t, remote)

	srv, _ := mcptest.NewServer(t, mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library")), mcpserver.Options{Peers: peers})
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	first := text(t, cs, "find_entity", map[string]any{"name": "Bourdon"})
	second := text(t, cs, "find_entity", map[string]any{"name": "Bourdon"})
	if !strings.Contains(first, "peer answer b") || !strings.Contains(second, "peer answer c") {
		t.Errorf("the peer's changing answers were not asked for anew:\n%s\n%s", first, second)
	}
	// A peer's own call (hop 1) reads the library alone, and is kept.
	hop := map[string]any{"name": "Bourdon", "federation_hop": 1}
	if a, b := text(t, cs, "find_entity", hop), text(t, cs, "find_entity", hop); a != b || strings.Contains(a, "peer answer") {
		t.Errorf("hop 1: %s then %s", a, b)
	}
}
