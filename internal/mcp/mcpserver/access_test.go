package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// The markers of the access-cap library: text that appears only in rows
// (and a doc) above public. No argument of the test carries them.
const (
	teamMarker     = "quokkateam"
	privateMarker  = "quokkaprivate"
	internalMarker = "quokkainternal"
)

// hidden are the names a quarantined member must not see either: those
// of the rows above public and of the internal doc. A name a call itself
// sends is not looked for in its answer (which may echo it).
var hidden = []string{
	teamMarker, privateMarker, internalMarker,
	"Teamy Marker", "Privy Marker", "teamy-marker", "privy-marker", "Teamy Stream", "Privy Stream",
	"Zebra runbook", "zebra-runbook",
}

func hiddenIn(text string, args map[string]any) []string {
	sent, _ := json.Marshal(args)
	var out []string
	for _, m := range hidden {
		if !strings.Contains(strings.ToLower(string(sent)), strings.ToLower(m)) && strings.Contains(strings.ToLower(text), strings.ToLower(m)) {
			out = append(out, m)
		}
	}
	return out
}

// cappedManifest is codex's memory, with a row of every kind at every
// level.
func cappedManifest(day string) string {
	return `spec_version: '0.1'
agent:
  id: codex
  type: code-assistant
last_updated: '2026-06-29T12:00:00+00:00'
known_entities:
- {name: Pubby Marker, type: project, summary: quokkapublic entity, visibility: public}
- {name: Teamy Marker, type: project, summary: quokkateam entity, visibility: team}
- {name: Privy Marker, type: project, summary: quokkaprivate entity, visibility: private}
recent_sessions:
- {date: '` + day + `', cwd: /w, project_focus: [Pubby Marker], key_actions: [quokkapublic session], visibility: public}
- {date: '` + day + `', cwd: /t, project_focus: [Teamy Marker], key_actions: [quokkateam session], visibility: team}
- {date: '` + day + `', cwd: /p, project_focus: [Privy Marker], key_actions: [quokkaprivate session], visibility: private}
known_workstreams:
- {name: Teamy Stream, status: active, summary: quokkateam stream, visibility: team}
- {name: Privy Stream, status: active, summary: quokkaprivate stream, visibility: private}
notes:
- {date: '` + day + `', text: quokkateam note, related_entities: [Teamy Marker], visibility: team}
- {date: '` + day + `', text: quokkaprivate note, related_entities: [Privy Marker], visibility: private}
`
}

const internalDoc = `---
uid: demo.docs.zebra-runbook
title: Zebra runbook
description: quokkainternal runbook for the on-call rotation.
type: how-to
owner: payments-team
visibility: internal
---

# Zebra runbook

quokkainternal steps to page the on-call engineer.
`

// accessCalls are, for every tool that takes access_level, calls that
// would reach codex's team and private rows or the internal doc at
// access_level private. reach lists the markers the operator must see
// through them (so the test is known to reach the rows); tools the
// quarantined tier may not call at all list none.
var accessCalls = map[string]struct {
	args  []map[string]any
	reach []string
}{
	"query_agent_memory": {[]map[string]any{
		{"agent": "codex", "topic": "Teamy Marker"}, {"agent": "codex", "topic": "Privy Marker"},
	}, []string{teamMarker, privateMarker}},
	"find_entity":      {[]map[string]any{{"name": "Teamy Marker"}, {"name": "Privy Marker"}}, []string{teamMarker, privateMarker}},
	"list_recent_work": {[]map[string]any{{"agent": "codex"}, {}}, []string{teamMarker, privateMarker}},
	"list_notes":       {[]map[string]any{{"agent": "codex"}, {}}, []string{teamMarker, privateMarker}},
	"list_workstreams": {[]map[string]any{{"agent": "codex"}, {}}, []string{teamMarker, privateMarker}},
	"get_cross_agent_summary": {[]map[string]any{
		{"project": "Teamy Marker"}, {"project": "Privy Marker"},
	}, nil},
	"prepare_recognition_context": {[]map[string]any{{"prompt": "what about Teamy Marker and Privy Marker"}}, nil},
	"get_deeper_context":          {[]map[string]any{{"prompt": "what about Teamy Marker and Privy Marker"}}, nil},
	"compile_codex_turn":          {[]map[string]any{{"prompt": "what about Teamy Marker and Privy Marker", "cwd": ""}}, nil},
	"docs_search": {[]map[string]any{
		{"query": "zebra runbook on-call"}, {"query": "Teamy Marker Privy Marker"},
	}, []string{internalMarker}},
	"docs_fetch": {[]map[string]any{
		{"uid": "demo.docs.zebra-runbook"}, {"uid": "bourdon.entity.codex.teamy-marker"}, {"uid": "bourdon.entity.codex.privy-marker"},
	}, []string{internalMarker, teamMarker, privateMarker}},
	"resolve_xref": {[]map[string]any{{"uid": "demo.docs.zebra-runbook"}, {"uid": "bourdon.entity.codex.privy-marker"}}, nil},
	"get_related":  {[]map[string]any{{"uid": "bourdon.agent.codex", "depth": 2}}, []string{"Teamy Marker", "Privy Marker"}},
	"query_graph": {[]map[string]any{
		{"pattern": "MATCH (n) RETURN n.summary, n.content LIMIT 1000"},
	}, []string{internalMarker, teamMarker, privateMarker}},
	"code_sample_search": {[]map[string]any{{"query": "zebra runbook quokka"}}, nil},
	"get_learning_path":  {[]map[string]any{{"targetSkill": "demo.skills.idempotent-refunds"}}, nil},
}

// accessCapServer serves codex's memory and the demo corpus with an
// internal doc, with BOURDON_DEFAULT_ACCESS_LEVEL=private, so that every
// default is above public too.
func accessCapServer(t *testing.T) *mcpserver.Server {
	t.Helper()
	dir := t.TempDir()
	day := time.Now().UTC().AddDate(0, 0, -1).Format("2006-01-02")
	if err := os.MkdirAll(filepath.Join(dir, "agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agents", "codex.l5.yaml"), []byte(cappedManifest(day)), 0o644); err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "docs")
	if err := demo.WriteDocs(corpus); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "docs", "zebra-runbook.md"), []byte(internalDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: []string{corpus}, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	private := visibility.Private
	return mcpserver.New(store, mcpserver.Options{Knowledge: kb, DefaultAccess: &private, TurnEnv: turn.Env{CodexHome: "-"}})
}

// TestAccessLevelIsCappedByTier: a quarantined member granted codex asks
// every tool that takes access_level for private (and team) rows, and
// relies on the defaults too; it never sees a row above public, nor an
// internal doc, and the level each payload echoes is public. The operator,
// asking the same, sees them. A tool that takes access_level and is not
// in accessCalls fails the test.
func TestAccessLevelIsCappedByTier(t *testing.T) {
	srv := accessCapServer(t)
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("visitor", trust.TierQuarantined, []string{"codex"})
	if err != nil {
		t.Fatal(err)
	}
	operator := mcptest.Connect(t, srv.Server, "in-memory")
	quarantined := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")

	var tools []string
	hasIncludePrivate := map[string]bool{}
	for tool, err := range operator.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Properties map[string]any `json:"properties"`
		}
		json.Unmarshal(b, &schema)
		if _, ok := schema.Properties["access_level"]; ok {
			tools = append(tools, tool.Name)
		}
		_, hasIncludePrivate[tool.Name] = schema.Properties["include_private"]
	}
	slices.Sort(tools)
	if len(tools) < 10 {
		t.Fatalf("only %d tools take access_level: %v", len(tools), tools)
	}
	for _, tool := range tools {
		c, ok := accessCalls[tool]
		if !ok {
			t.Errorf("%s takes access_level but has no case in accessCalls: add one", tool)
			continue
		}
		seen := map[string]bool{}
		for _, base := range c.args {
			for _, level := range []any{"private", "PRIVATE", "team", nil} {
				args := map[string]any{}
				for k, v := range base {
					args[k] = v
				}
				if level != nil {
					args["access_level"] = level
					if hasIncludePrivate[tool] {
						args["include_private"] = true
					}
				}
				text := callText(t, quarantined, tool, args)
				if strings.Contains(text, `validating \"arguments\"`) {
					t.Fatalf("%s %v: the arguments are refused, the case tests nothing: %s", tool, args, text)
				}
				if leaked := hiddenIn(text, args); len(leaked) > 0 {
					t.Errorf("%s %v as a quarantined member: shows what is above public (%v): %s", tool, args, leaked, text)
				}
				var p map[string]any
				if json.Unmarshal([]byte(text), &p) == nil {
					if echo, ok := p["access_level"]; ok && echo != "public" {
						t.Errorf("%s %v as a quarantined member: echoes access_level %v, want public", tool, args, echo)
					}
				}
				if level == "private" {
					op := callText(t, operator, tool, args)
					for _, m := range c.reach {
						seen[m] = seen[m] || strings.Contains(op, m)
					}
				}
			}
		}
		for _, m := range c.reach {
			if !seen[m] {
				t.Errorf("%s: the operator never saw %s at private; the case does not reach the rows it tests", tool, m)
			}
		}
	}

	// The resources read at the server's default level (private here),
	// capped too.
	for _, uri := range []string{"agent-library://agents/codex/memory", "cogitave://doc/demo.docs.zebra-runbook", "cogitave://entity/bourdon.entity.codex.privy-marker"} {
		res, err := quarantined.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err == nil {
			b, _ := json.Marshal(res)
			if leaked := hiddenIn(string(b), map[string]any{"uri": uri}); len(leaked) > 0 {
				t.Errorf("resource %s as a quarantined member shows %v: %s", uri, leaked, b)
			}
		}
	}
	got, _ := mcptest.CallJSON(t, quarantined, "describe_caller", map[string]any{})
	if p, _ := got.(map[string]any); p["max_access_level"] != "public" {
		t.Errorf("describe_caller for a quarantined member: %v", got)
	}
	got, _ = mcptest.CallJSON(t, operator, "describe_caller", map[string]any{})
	if p, _ := got.(map[string]any); p["max_access_level"] != "private" {
		t.Errorf("describe_caller for the operator: %v", got)
	}
}

// callText calls a tool and returns its text content (the payload's
// JSON, or the error text).
func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	text, _ := mcptest.SingleText(res)
	return text
}
