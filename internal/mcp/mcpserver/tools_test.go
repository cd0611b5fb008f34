package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

func seedSession(t *testing.T, opts mcpserver.Options) *mcp.ClientSession {
	lib := mcptest.CopyDir(t, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(t, lib, opts)
	return mcptest.Connect(t, srv.Server, "in-memory")
}

func TestInBandErrorsKeepThePageShape(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	for _, tool := range []string{"list_recent_work", "list_notes"} {
		for args, wantErr := range map[string]string{
			`{"cursor": "xyz", "limit": 5}`:  "invalid cursor: 'xyz'",
			`{"access_level": "everything"}`: "unsupported access_level: everything",
		} {
			var a map[string]any
			if err := json.Unmarshal([]byte(args), &a); err != nil {
				t.Fatal(err)
			}
			got, res := mcptest.CallJSON(t, cs, tool, a)
			if res.IsError {
				t.Errorf("%s %s: must be an in-band error, got a tool error", tool, args)
				continue
			}
			p := got.(map[string]any)
			if e, _ := p["error"].(string); !strings.HasPrefix(e, wantErr) {
				t.Errorf("%s %s: error %q, want prefix %q", tool, args, e, wantErr)
			}
			rows := "sessions"
			if tool == "list_notes" {
				rows = "notes"
			}
			for _, key := range []string{"since", "agent", "access_level", "include_private", "limit", "cursor", rows, "next_cursor", "has_more"} {
				if _, ok := p[key]; !ok {
					t.Errorf("%s %s: error payload lacks %q: %v", tool, args, key, p)
				}
			}
			if p["has_more"] != false || p["next_cursor"] != nil || len(p[rows].([]any)) != 0 {
				t.Errorf("%s %s: error payload must be an empty last page: %v", tool, args, p)
			}
		}
	}
}

func TestToolErrorsSayWhatToSend(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"find_entity", map[string]any{"name": "x", "access_level": "secret"}, "use public, team or private"},
		{"query_agent_memory", map[string]any{"agent": "codex", "topic": "x", "access_level": "nope"}, "unsupported access_level: nope"},
		{"get_cross_agent_summary", map[string]any{"project": "x", "access_level": "x"}, "unsupported access_level"},
		{"list_workstreams", map[string]any{"status": "stalled"}, "active, paused, done, archived"},
		{"find_entity", map[string]any{}, "name"},
		{"find_entity", map[string]any{"name": 5}, "name"},
		{"list_agents", map[string]any{"surprise": true}, "surprise"},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		text, _ := mcptest.SingleText(res)
		if !res.IsError || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want an error mentioning %q", c.tool, c.args, res.IsError, text, c.want)
		}
	}
}

func TestDefaultAccessLevelFromTheEnvironment(t *testing.T) {
	team := visibility.Team
	cs := seedSession(t, mcpserver.Options{DefaultAccess: &team})
	got, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "Roadmap"})
	p := got.(map[string]any)
	if p["access_level"] != "team" || len(p["matches"].([]any)) != 1 {
		t.Errorf("with the default set to team: %v", p)
	}
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "agent-library://agents/claude-code/memory"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Contents[0].Text, "Roadmap") || strings.Contains(r.Contents[0].Text, "Quarterly Revenue") {
		t.Errorf("memory resource at team: %s", r.Contents[0].Text)
	}
}

func TestIncludePrivateAloneChangesNothing(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	got, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "Quarterly Revenue", "include_private": true})
	if m := got.(map[string]any)["matches"].([]any); len(m) != 0 {
		t.Errorf("include_private without access_level must not reveal private rows: %v", m)
	}
	got, _ = mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": "Quarterly Revenue", "access_level": "private"})
	if m := got.(map[string]any)["matches"].([]any); len(m) != 1 {
		t.Errorf("access_level private: %v", m)
	}
}

func TestListRecentWorkWalksPagesThroughTheTool(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	var dates []string
	args := map[string]any{"since": "2026-01-01", "access_level": "private", "limit": 2}
	for range 10 {
		got, _ := mcptest.CallJSON(t, cs, "list_recent_work", args)
		p := got.(map[string]any)
		for _, s := range p["sessions"].([]any) {
			dates = append(dates, s.(map[string]any)["date"].(string))
		}
		if p["has_more"] != true {
			break
		}
		args["cursor"] = p["next_cursor"]
	}
	want := []string{"2026-06-08", "2026-06-08", "2026-06-07", "2026-06-06", "2026-06-05"}
	if diff := cmp.Diff(want, dates); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestPromptContextLinesSayWhereTheyCameFrom(t *testing.T) {
	cs := seedSession(t, mcpserver.Options{})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "prepare_recognition_context", Arguments: map[string]any{"prompt": "what about Bourdon"}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res.Meta[mcpserver.LinesMetaKey])
	var lines []map[string]any
	if err := json.Unmarshal(b, &lines); err != nil || len(lines) != 5 {
		t.Fatalf("line provenance: %s (%v)", b, err)
	}
	entity := lines[3]
	if lines[0]["kind"] != "header" || entity["kind"] != "entity" || entity["entity"] != "Bourdon" ||
		fmt.Sprint(entity["agents"]) != "[claude-code codex]" || entity["summary_agent"] != "claude-code" {
		t.Errorf("line provenance: %s", b)
	}
}
