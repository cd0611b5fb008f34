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
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// graphServer serves the demo library with the demo corpus and a request
// store, everything joined in the knowledge graph and watched; it returns
// the server, the corpus directory and the request store.
func graphServer(t *testing.T) (*mcpserver.Server, string, *requests.Store) {
	t.Helper()
	return graphServerOn(t, func(_ *testing.T, lib string) store.Documents { return store.NewDirDocuments(lib, 0o644) })
}

// graphServerOn is graphServer with the requests kept in the documents
// docs returns for the library directory lib.
func graphServerOn(t *testing.T, docs func(t *testing.T, lib string) store.Documents) (*mcpserver.Server, string, *requests.Store) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "docs")
	if err := demo.WriteDocs(corpus); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	reqs := requests.OpenDocuments(docs(t, dir))
	fed := federation.New(lib)
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: []string{corpus}, Store: fed, Requests: reqs, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(fed, mcpserver.Options{Machine: "test", Knowledge: kb, Requests: reqs, Writer: commit.New(dir), TurnEnv: turn.Env{CodexHome: "-"}})
	ctx, cancel := context.WithCancel(context.Background())
	watching := make(chan struct{})
	go func() {
		defer close(watching)
		srv.WatchKnowledge(ctx)
	}()
	// The watcher reads the store, which writes its drift watermarks into
	// the library (.bourdon) when it builds a view: it stops before the
	// test's directory is removed.
	t.Cleanup(func() {
		cancel()
		<-watching
	})
	return srv, corpus, reqs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		return nil, res
	}
	m, _ := mcptest.Payload(t, cs, tool, res).(map[string]any)
	return m, res
}

func errText(res *mcp.CallToolResult) string {
	if !res.IsError {
		return ""
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func uids(rows any, key string) []string {
	var out []string
	for _, r := range rows.([]any) {
		out = append(out, r.(map[string]any)[key].(string))
	}
	return out
}

func TestDocsTools(t *testing.T) {
	srv, _, _ := graphServer(t)
	cs := mcptest.Connect(t, srv.Server, "in-memory")

	got, res := call(t, cs, "docs_search", map[string]any{"query": "retry a refund after a timeout"})
	if res.IsError || uids(got["results"], "uid")[0] != "demo.docs.retry-a-refund-safely" {
		t.Fatalf("docs_search: %v %s", got, errText(res))
	}
	first := got["results"].([]any)[0].(map[string]any)
	if sig, _ := first["signals"].(map[string]any); sig["rrf"] == nil || sig["bm25"] == nil || sig["final"] == nil {
		t.Errorf("no per-signal scores: %v", first)
	}

	got, res = call(t, cs, "docs_fetch", map[string]any{"uid": "@demo.docs.payments-api"})
	if res.IsError || got["title"] != "Payments API" || len(got["contentHash"].(string)) != 64 || got["lastModified"] == "" || got["content"] == "" {
		t.Fatalf("docs_fetch: %v %s", got, errText(res))
	}
	v1, _ := call(t, cs, "docs_fetch", map[string]any{"uid": "demo.docs.retry-a-refund-safely", "moniker": "payments-1.0"})
	v2, _ := call(t, cs, "docs_fetch", map[string]any{"uid": "demo.docs.retry-a-refund-safely", "moniker": "payments-2.0"})
	if v1 == nil || v2 == nil || v1["content"] == v2["content"] || strings.Contains(v2["content"].(string), "moniker range") {
		t.Errorf("moniker blocks are not rendered per version:\n%v\n%v", v1["content"], v2["content"])
	}
	_, res = call(t, cs, "docs_fetch", map[string]any{"uid": "demo.docs.payment-api"})
	if msg := errText(res); !strings.Contains(msg, "Closest: demo.docs.payments-api") {
		t.Errorf("unknown uid: %q", msg)
	}

	got, res = call(t, cs, "resolve_xref", map[string]any{"uid": "<xref:demo.decisions.post-ledger-entries-from-handlers>"})
	if res.IsError || got["supersededBy"] == nil || got["supersededBy"].(map[string]any)["title"] != "Ledger migration" {
		t.Errorf("resolve_xref: %v %s", got, errText(res))
	}

	got, res = call(t, cs, "get_related", map[string]any{"uid": "demo.docs.payments-api", "direction": "in", "edgeTypes": []string{"xref"}})
	if res.IsError || len(got["results"].([]any)) == 0 {
		t.Errorf("get_related: %v %s", got, errText(res))
	}
	for _, r := range got["results"].([]any) {
		if r := r.(map[string]any); r["edgeType"] != "xref" || r["direction"] != "in" {
			t.Errorf("get_related row %v", r)
		}
	}
	_, res = call(t, cs, "get_related", map[string]any{"uid": "demo.docs.payments-api", "depth": 5})
	if !res.IsError {
		t.Error("depth 5 accepted")
	}

	got, res = call(t, cs, "get_learning_path", map[string]any{"targetSkill": "demo.skills.replay-ledger-events"})
	if res.IsError || len(got["steps"].([]any)) != 2 || len(got["skills"].([]any)) != 4 {
		t.Fatalf("get_learning_path: %v %s", got, errText(res))
	}
	skills := uids(got["skills"], "uid")
	if skills[len(skills)-1] != "demo.skills.replay-ledger-events" {
		t.Errorf("the target comes last, after its prerequisites: %v", skills)
	}
	got, _ = call(t, cs, "get_learning_path", map[string]any{"targetSkill": "demo.skills.replay-ledger-events", "knownSkills": []string{skills[len(skills)-2]}})
	if len(got["steps"].([]any)) != 1 {
		t.Errorf("known skills are not taught again: %v", got["steps"])
	}

	got, res = call(t, cs, "describe_schema", map[string]any{"type": "ADR"})
	if res.IsError || len(got["nodes"].([]any)) != 1 || len(got["monikers"].([]any)) != 2 || got["search"].(map[string]any)["dim"] != float64(128) {
		t.Errorf("describe_schema: %v %s", got, errText(res))
	}

	got, res = call(t, cs, "code_sample_search", map[string]any{"query": "refund idempotency key"})
	if res.IsError || len(got["results"].([]any)) == 0 {
		t.Errorf("code_sample_search: %v %s", got, errText(res))
	}
}

func TestQueryGraphCrossesMemoryAndDocsWithinVisibility(t *testing.T) {
	srv, _, _ := graphServer(t)
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	q := "MATCH (e:Entity)-[:xref]->(d:Doc) RETURN e.title AS entity, d.uid AS doc ORDER BY doc"
	got, res := call(t, cs, "query_graph", map[string]any{"pattern": q})
	if res.IsError {
		t.Fatal(errText(res))
	}
	rows := got["rows"].([]any)
	var entities []string
	for _, r := range rows {
		entities = append(entities, r.([]any)[0].(string))
	}
	if !slices.Contains(entities, "Payments API") || slices.Contains(entities, "Ledger migration") {
		t.Errorf("public rows %v: Payments API links its doc; the team-only Ledger migration stays hidden", entities)
	}
	got, _ = call(t, cs, "query_graph", map[string]any{"pattern": "MATCH (e:Entity)-[:xref]->(d) RETURN e.title", "access_level": "team"})
	if b, _ := json.Marshal(got["rows"]); !strings.Contains(string(b), "Ledger migration") {
		t.Errorf("team sees the team entity: %s", b)
	}
	for pattern, want := range map[string]string{
		"CREATE (n:Doc {uid: 'x'})":                      "read-only",
		"MATCH (n:Widget) RETURN n":                      "Widget",
		"MATCH (n)-[:likes]->(m) RETURN m":               "likes",
		"MATCH (n)-[*]->(m) RETURN m":                    "*",
		"MATCH (n)-[:xref*1..5]->(m) RETURN m":           "4",
		"MATCH (n {uid: $uid}) RETURN n":                 "$uid",
		"CALL db.labels()":                               "CALL",
		"MATCH (n) RETURN n LIMIT 1; MATCH (m) DELETE m": "",
	} {
		_, res := call(t, cs, "query_graph", map[string]any{"pattern": pattern})
		if !res.IsError || (want != "" && !strings.Contains(errText(res), want)) {
			t.Errorf("%s: %q, want a tool error mentioning %q", pattern, errText(res), want)
		}
	}
	got, res = call(t, cs, "query_graph", map[string]any{"pattern": "MATCH (n) RETURN n.uid", "limit": 5})
	if res.IsError || len(got["rows"].([]any)) != 5 || got["truncated"] != true {
		t.Errorf("limit 5: %v %s", got, errText(res))
	}
}

func TestQuarantinedCallerSeesOnlyGrantedMemoryNodes(t *testing.T) {
	srv, _, _ := graphServer(t)
	registry := trust.OpenRegistry(filepath.Join(t.TempDir(), "federation.yaml"))
	token, err := registry.Add("visitor", trust.TierQuarantined, []string{"cursor"})
	if err != nil {
		t.Fatal(err)
	}
	cs := mcptest.ConnectAs(t, srv.Server, &mcphttp.Auth{Registry: registry}, token, "")
	got, res := call(t, cs, "query_graph", map[string]any{"pattern": "MATCH (e:Entity) RETURN DISTINCT e.agent"})
	if res.IsError {
		t.Fatal(errText(res))
	}
	if b, _ := json.Marshal(got["rows"]); string(b) != `[["cursor"]]` {
		t.Errorf("quarantined caller granted cursor sees entities of %s", b)
	}
	_, res = call(t, cs, "docs_fetch", map[string]any{"uid": "bourdon.agent.codex"})
	if !res.IsError {
		t.Error("an ungranted agent's node was fetched")
	}
}

func TestNodeResourcesAndSubscriptions(t *testing.T) {
	for _, transport := range []string{"http/2025-11-25", "http/2026-07-28"} {
		t.Run(transport, func(t *testing.T) { nodeResourcesAndSubscriptions(t, transport) })
	}
}

func nodeResourcesAndSubscriptions(t *testing.T, transport string) {
	srv, corpus, _ := graphServer(t)
	updates := make(chan *mcp.ResourceUpdatedNotificationParams, 16)
	listChanged := make(chan bool, 16)
	cs := mcptest.ConnectWith(t, srv.Server, transport, &mcp.ClientOptions{
		ResourceUpdatedHandler:     func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updates <- req.Params },
		ResourceListChangedHandler: func(context.Context, *mcp.ResourceListChangedRequest) { listChanged <- true },
	})
	ctx := context.Background()

	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var doc *mcp.ResourceTemplate
	for _, tpl := range templates.ResourceTemplates {
		if tpl.URITemplate == "cogitave://doc/{uid}" {
			doc = tpl
		}
	}
	if doc == nil || doc.Title == "" || doc.MIMEType == "" || len(doc.Icons) == 0 {
		t.Fatalf("no described template for docs: %+v", doc)
	}

	list, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Meta: mcp.Meta{"type": "adr"}})
	if err != nil {
		t.Fatal(err)
	}
	var adrs []string
	for _, r := range list.Resources {
		adrs = append(adrs, r.URI)
	}
	if len(adrs) != 2 || !strings.HasPrefix(adrs[0], "cogitave://adr/") {
		t.Errorf("resources/list filtered by type adr: %v", adrs)
	}

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cogitave://doc/demo.docs.payments-api"})
	if err != nil || !strings.Contains(read.Contents[0].Text, `"contentHash"`) {
		t.Fatalf("read: %v %v", read, err)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cogitave://entity/bourdon.entity.claude-code.salary-review"}); err == nil {
		t.Error("a private entity was read at the default (public) level")
	}

	for _, uri := range []string{"cogitave://doc/demo.docs.payments-api", "cogitave://adr/"} {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(corpus, "docs", "payments-api.md")
	b, _ := os.ReadFile(path)
	os.WriteFile(path, append(b, []byte("\nOne more line.\n")...), 0o644)
	select {
	case u := <-updates:
		if u.URI != "cogitave://doc/demo.docs.payments-api" {
			t.Errorf("update for %s", u.URI)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no resources/updated after the doc changed")
	}
	adr := filepath.Join(corpus, "docs", "decisions", "0002-ledger-migration.md")
	b, _ = os.ReadFile(adr)
	os.WriteFile(adr, append(b, []byte("\nAmended.\n")...), 0o644)
	select {
	case u := <-updates:
		if u.URI != "cogitave://adr/" || u.Meta["io.getbourdon/uri"] == nil {
			t.Errorf("collection update %+v", u)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no resources/updated for the ADR collection")
	}

	// A new doc joins the catalogue: list_changed.
	b, _ = os.ReadFile(path)
	fresh := strings.NewReplacer("uid: demo.docs.payments-api", "uid: demo.docs.payments-api-v2", "title: Payments API", "title: Payments API v2").Replace(string(b))
	os.WriteFile(filepath.Join(corpus, "docs", "payments-api-v2.md"), []byte(fresh), 0o644)
	select {
	case <-listChanged:
	case <-time.After(10 * time.Second):
		t.Fatal("no list_changed after a doc was added")
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cogitave://doc/demo.docs.payments-api-v2"}); err != nil {
		t.Fatalf("the new doc cannot be read: %v", err)
	}
}
