package mcpserver_test

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// everything calls every read tool and reads every resource at the given
// access level and returns all the text that left the server.
func everything(t *testing.T, cs *mcp.ClientSession, level string, names []string) string {
	t.Helper()
	var out strings.Builder
	call := func(tool string, args map[string]any) {
		got, _ := mcptest.CallJSON(t, cs, tool, args)
		b, _ := json.Marshal(got)
		out.Write(b)
		out.WriteByte('\n')
	}
	for _, name := range names {
		call("find_entity", map[string]any{"name": name, "access_level": level})
		call("query_agent_memory", map[string]any{"agent": "leaky", "topic": name, "access_level": level})
		call("get_cross_agent_summary", map[string]any{"project": name, "access_level": level})
		call("prepare_recognition_context", map[string]any{"prompt": "tell me about " + name, "access_level": level})
	}
	call("list_recent_work", map[string]any{"since": "2000-01-01", "access_level": level})
	call("list_notes", map[string]any{"since": "2000-01-01", "access_level": level})
	call("list_workstreams", map[string]any{"access_level": level})
	call("list_agents", nil)
	call("export_agents", nil)
	call("list_memory_versions", map[string]any{"agent_id": "leaky"})
	for _, uri := range []string{"agent-library://agents", "agent-library://agents/leaky/memory"} {
		r, err := cs.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(r.Contents[0].Text)
	}
	return out.String()
}

func serveManifest(t *testing.T, doc *yaml11.Map) *mcp.ClientSession {
	t.Helper()
	lib := t.TempDir()
	data, err := yaml11.Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(lib, "agents"), 0o755)
	if err := os.WriteFile(filepath.Join(lib, "agents", "leaky.l5.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := mcptest.NewServer(t, lib, mcpserver.Options{})
	return mcptest.Connect(t, srv.Server, "in-memory")
}

// TestNoSecretLeavesAnySurface puts every credential of the redaction
// battery in every kind of field of a manifest, and checks that no tool or
// resource returns any of them, at any access level.
func TestNoSecretLeavesAnySurface(t *testing.T) {
	var battery struct {
		Secrets []struct {
			Fragments []string `json:"fragments"`
		} `json:"secrets"`
	}
	readJSONFile(t, filepath.Join(fixtures, "redaction_battery.json"), &battery)
	var secrets []string
	var entities, sessions []any
	for i, s := range battery.Secrets {
		secret := strings.Join(s.Fragments, "")
		secrets = append(secrets, secret)
		name := "Leak" + strconv.Itoa(i)
		entities = append(entities, row("name", name, "summary", secret, "tags", []any{secret}, "aliases", []any{secret}))
		sessions = append(sessions, row("date", "2026-06-20", "cwd", "/r"+strconv.Itoa(i), "project_focus", []any{name}, "key_actions", []any{secret}, "files_touched", []any{secret}))
	}
	doc := row("spec_version", "0.1",
		"agent", row("id", "leaky", "type", "other", "role_narrative", secrets[0], "instance", secrets[1]),
		"last_updated", "2026-06-29T12:00:00+00:00",
		"capabilities", []any{secrets[2]},
		"known_entities", entities, "recent_sessions", sessions,
		"known_workstreams", []any{row("name", "WS", "status", "active", "summary", secrets[3])},
		"notes", []any{row("date", "2026-06-20", "text", secrets[4])})
	cs := serveManifest(t, doc)
	var names []string
	for i := range battery.Secrets {
		names = append(names, "Leak"+strconv.Itoa(i))
	}
	for _, level := range []string{"public", "private"} {
		out := everything(t, cs, level, names)
		for _, secret := range secrets {
			if strings.Contains(out, secret) || strings.Contains(out, jsonEscaped(secret)) {
				t.Errorf("at %s, a credential left the server: %q", level, secret)
			}
		}
	}
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// TestLeakCases serves each manifest of the reference's leak-audit cases:
// the credential it flags never leaves the server, and a row it flags for
// visibility (private, or tagged with a private family or a private tag of
// the manifest's policy) is not served at team level.
func TestLeakCases(t *testing.T) {
	var fx struct {
		Cases []struct {
			Name     string `json:"name"`
			Manifest any    `json:"manifest"`
			Expected []struct {
				Kind     string `json:"kind"`
				Location string `json:"location"`
			} `json:"expected_findings"`
		} `json:"cases"`
	}
	readJSONFile(t, filepath.Join(fixtures, "leak_cases.json"), &fx)
	for _, c := range fx.Cases {
		m, ok := c.Manifest.(map[string]any)
		if !ok {
			continue // garbage manifests: nothing to serve
		}
		t.Run(c.Name, func(t *testing.T) {
			raw, _ := json.Marshal(m)
			docAny, err := yaml11.Decode(raw)
			if err != nil {
				t.Fatal(err)
			}
			doc := docAny.(*yaml11.Map)
			doc.Set("spec_version", "0.1")
			agent, _ := doc.Value("agent").(*yaml11.Map)
			if agent == nil {
				agent = row("type", "other")
				doc.Set("agent", agent)
			}
			agent.Set("id", "leaky")
			doc.Set("last_updated", "2026-06-29T12:00:00+00:00")
			cs := serveManifest(t, doc)
			names := []string{"API", "SecretProj", "Payroll", "Vault", "Bourdon"}
			team := everything(t, cs, "team", names)
			for _, f := range c.Expected {
				v := lookup(m, f.Location)
				switch f.Kind {
				case "credential":
					s, _ := v.(string)
					if s == "" || strings.Contains(team+everything(t, cs, "private", names), s) {
						t.Errorf("credential at %s left the server: %q", f.Location, s)
					}
				case "visibility":
					r, _ := v.(map[string]any)
					if name, ok := r["name"].(string); ok {
						got, _ := mcptest.CallJSON(t, cs, "find_entity", map[string]any{"name": name, "access_level": "team"})
						if n := len(got.(map[string]any)["matches"].([]any)); n != 0 {
							t.Errorf("entity at %s (%q) is served at team level", f.Location, name)
						}
					} else {
						got, _ := mcptest.CallJSON(t, cs, "list_recent_work", map[string]any{"since": "2000-01-01", "access_level": "team"})
						if n := len(got.(map[string]any)["sessions"].([]any)); n != 0 {
							t.Errorf("session at %s is served at team level", f.Location)
						}
					}
				}
			}
		})
	}
}

var locationPart = regexp.MustCompile(`([A-Za-z_]+)|\[(\d+)\]`)

// lookup follows a location such as known_entities[0].summary.
func lookup(v any, location string) any {
	for _, m := range locationPart.FindAllStringSubmatch(location, -1) {
		switch {
		case m[1] != "":
			obj, _ := v.(map[string]any)
			v = obj[m[1]]
		default:
			list, _ := v.([]any)
			i, _ := strconv.Atoi(m[2])
			if i >= len(list) {
				return nil
			}
			v = list[i]
		}
	}
	return v
}

func row(kv ...any) *yaml11.Map {
	m := yaml11.NewMap(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		m.Set(kv[i].(string), kv[i+1])
	}
	return m
}

// leakCalls are the calls the surface leak test makes of each tool, by
// name, given the planted credentials and the uids of the leaky agent's
// entity nodes. A tool the server lists that has no entry here fails the
// test: a new surface must be exercised before it ships.
func leakCalls(ps []plant, entityUIDs []string) map[string][]map[string]any {
	calls := map[string][]map[string]any{}
	add := func(tool string, args ...map[string]any) { calls[tool] = append(calls[tool], args...) }
	for i, p := range ps {
		for _, level := range []string{"public", "private"} {
			add("find_entity", map[string]any{"name": p.value, "access_level": level})
			add("query_agent_memory", map[string]any{"agent": "leaky", "topic": p.value, "access_level": level})
			add("get_cross_agent_summary", map[string]any{"project": p.value, "access_level": level})
			add("prepare_recognition_context", map[string]any{"prompt": "what about " + p.value, "access_level": level})
			add("get_deeper_context", map[string]any{"prompt": "what about " + p.value, "access_level": level})
			add("compile_codex_turn", map[string]any{"prompt": "what about " + p.value, "cwd": "", "access_level": level})
		}
		add("docs_search", map[string]any{"query": p.value, "access_level": "private"})
		add("code_sample_search", map[string]any{"query": p.value})
		add("get_learning_path", map[string]any{"targetSkill": p.value})
		add("commit_to_federation", map[string]any{"agent_id": "leaky", "session_id": p.value, "transcript_ref": ps[(i+1)%len(ps)].value,
			"notes": []any{map[string]any{"date": "2026-06-21", "text": "note " + strconv.Itoa(i) + " " + p.value, "visibility": "public"}}})
	}
	for _, level := range []string{"public", "private"} {
		add("list_recent_work", map[string]any{"since": "2000-01-01", "access_level": level, "limit": 100})
		add("list_notes", map[string]any{"since": "2000-01-01", "access_level": level, "limit": 100})
		add("list_workstreams", map[string]any{"access_level": level})
	}
	add("list_agents", map[string]any{})
	add("export_agents", map[string]any{})
	add("describe_caller", map[string]any{})
	add("reload_library", map[string]any{})
	add("list_memory_versions", map[string]any{"agent_id": "leaky", "limit": 500})
	// explain_memory_change and rollback_agent_memory get their digests and
	// versions from list_memory_versions (see the test).
	add("explain_memory_change")
	add("rollback_agent_memory")
	add("docs_search", map[string]any{"query": "paste into a ticket", "access_level": "private"})
	add("code_sample_search", map[string]any{"query": "echo"})
	for _, uid := range append([]string{"demo.docs.leaky-notes", "bourdon.agent.leaky", "REQ-2026-0001"}, entityUIDs...) {
		add("docs_fetch", map[string]any{"uid": uid, "access_level": "private"})
		add("get_related", map[string]any{"uid": uid, "access_level": "private", "depth": 2, "limit": 500})
		add("resolve_xref", map[string]any{"uid": uid, "access_level": "private"})
	}
	add("docs_fetch", map[string]any{"uid": "bourdon.entity.leaky.near-miss", "access_level": "private"})
	add("get_learning_path", map[string]any{"targetSkill": "demo.skills.refunds"})
	add("query_graph",
		map[string]any{"pattern": "MATCH (n) RETURN n LIMIT 1000", "access_level": "private", "limit": 1000},
		map[string]any{"pattern": "MATCH (a)-[r]->(b) RETURN a.uid, type(r), b.uid, b.title, b.summary", "access_level": "private", "limit": 1000})
	add("describe_schema", map[string]any{})
	add("list_requests", map[string]any{}, map[string]any{"area": "payments"})
	add("get_request", map[string]any{"id": "REQ-2026-0001"})
	add("get_dod", map[string]any{"id": "REQ-2026-0001"})
	var problem strings.Builder
	for _, p := range ps {
		problem.WriteString(p.value + "\n")
	}
	add("request_intake", map[string]any{"problem": problem.String(), "desiredOutcome": ps[0].value, "type": "security", "area": "payments", "identity": "github:bob", "owner": "demo/payments"})
	add("advance_stage", map[string]any{"id": "REQ-2026-0001", "to": "evaluate", "reason": problem.String()},
		map[string]any{"id": "REQ-2026-0001", "to": "rejected", "reason": problem.String()})
	return calls
}

// TestEverySurfaceLeaksNothing lists what the running server offers (tools,
// resources, resource templates, completions, prompts), fails when the
// test does not exercise one of them, and plants the sixteen credential
// kinds of issue 15 in every field of a manifest, in the session_id and
// transcript_ref of commits, in a documentation page and code sample, and
// in a request file; then it calls every surface, with good arguments and
// with credentials as bad ones, and checks that no credential is in any
// result, error or notification.
func TestEverySurfaceLeaksNothing(t *testing.T) {
	ps := plants()
	srv, kb := leakyServer(t, ps)
	ctx := context.Background()

	var mu sync.Mutex
	var out strings.Builder
	record := func(what string, v any) {
		b, _ := json.Marshal(v)
		mu.Lock()
		defer mu.Unlock()
		out.WriteString(what + ": ")
		out.Write(b)
		out.WriteByte('\n')
	}
	updated := make(chan struct{}, 4096)
	cs := mcptest.ConnectWith(t, srv.Server, "in-memory/2025-11-25", &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			record("notifications/resources/updated", req.Params)
			select {
			case updated <- struct{}{}:
			default:
			}
		},
		ResourceListChangedHandler: func(_ context.Context, req *mcp.ResourceListChangedRequest) {
			record("notifications/resources/list_changed", req.Params)
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) { record("notifications/message", req.Params) },
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			record("notifications/progress", req.Params)
		},
	})

	// What the server offers.
	var tools []string
	for tool, err := range cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tools = append(tools, tool.Name)
	}
	var templates []string
	for tmpl, err := range cs.ResourceTemplates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		templates = append(templates, tmpl.URITemplate)
	}
	for prompt, err := range cs.Prompts(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		t.Errorf("prompt %s is not exercised by the leak test", prompt.Name)
	}

	// The uids of the leaky agent's entities, from the graph.
	g := kb.Current().Graph
	var entityUIDs []string
	byLabel := map[string][]string{}
	for i := range g.Len() {
		n := g.Node(graph.NodeID(i))
		if strings.HasPrefix(n.UID, "bourdon.entity.leaky.") {
			entityUIDs = append(entityUIDs, n.UID)
		}
		byLabel[strings.ToLower(string(n.Label))] = append(byLabel[strings.ToLower(string(n.Label))], n.UID)
	}
	if len(entityUIDs) != len(ps) {
		t.Fatalf("%d entity nodes for %d planted names", len(entityUIDs), len(ps))
	}

	// Subscriptions, so that the writes below are announced.
	subs := []string{"agent-library://agents", "agent-library://agents/leaky/memory", "cogitave://entity/", "cogitave://agent/"}
	for _, p := range ps {
		subs = append(subs, "agent-library://entities/"+url.PathEscape(p.value))
	}
	subs = append(subs, "cogitave://entity/"+entityUIDs[0])
	for _, uri := range subs {
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
			record("subscribe", err.Error())
		}
	}

	callTool := func(tool string, args map[string]any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			record(tool+" (JSON-RPC error)", err.Error())
			return
		}
		record(tool, res)
	}
	calls := leakCalls(ps, entityUIDs)
	for _, tool := range tools {
		if _, ok := calls[tool]; !ok {
			t.Errorf("tool %s is not exercised by the leak test", tool)
		}
	}
	for _, tool := range tools {
		for _, args := range calls[tool] {
			callTool(tool, args)
		}
		// Every tool again with credentials where arguments go: unknown
		// names and bad values come back in error texts.
		for _, p := range ps {
			callTool(tool, map[string]any{strings.ReplaceAll(p.value, "\n", " "): p.value})
			callTool(tool, map[string]any{"access_level": p.value, "agent_id": p.value, "uid": p.value, "id": p.value, "name": p.value})
		}
	}
	// The history tools, on the versions the commits made.
	versions, _ := call(t, cs, "list_memory_versions", map[string]any{"agent_id": "leaky", "limit": 500})
	vs, _ := versions["versions"].([]any)
	if len(vs) == 0 {
		t.Fatalf("no versions after the commits: %v", versions)
	}
	for _, v := range vs {
		m := v.(map[string]any)
		callTool("explain_memory_change", map[string]any{"agent_id": "leaky", "digest": m["digest8"]})
	}
	callTool("explain_memory_change", map[string]any{"agent_id": "leaky", "digest": versions["current_digest"]})
	last := vs[len(vs)-1].(map[string]any)
	callTool("rollback_agent_memory", map[string]any{"agent_id": "leaky", "version_id": last["version_id"], "session_id": ps[5].value})

	// The writes are announced to the subscribers.
	select {
	case <-updated:
	case <-time.After(time.Minute):
		t.Error("no resources/updated notification after the commits")
	}

	// Every listed resource, read.
	listed := 0
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		listed++
		record("resources/list", r)
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			record("resources/read (error)", err.Error())
			continue
		}
		record("resources/read", res)
	}
	if listed == 0 {
		t.Error("no resources listed")
	}
	// Every template, read with the planted values and completed.
	values := map[string][]string{"agent_id": {"leaky", "claude-code", "../leaky"}}
	for _, p := range ps {
		values["agent_id"] = append(values["agent_id"], p.value)
		values["name"] = append(values["name"], p.value)
		values["uid"] = append(values["uid"], p.value)
	}
	values["name"] = append(values["name"], "Payments API", "../../etc/passwd")
	for _, tmpl := range templates {
		vars := templateVars.FindAllStringSubmatch(tmpl, -1)
		if len(vars) != 1 {
			t.Errorf("template %s is not exercised by the leak test", tmpl)
			continue
		}
		name := vars[0][1]
		vals := values[name]
		if name == "uid" {
			typ := strings.TrimSuffix(strings.TrimPrefix(tmpl, "cogitave://"), "/{uid}")
			vals = append(append([]string{}, byLabel[typ]...), vals...)
		}
		if len(vals) == 0 {
			t.Errorf("template %s is not exercised by the leak test", tmpl)
			continue
		}
		for _, v := range vals {
			uri := strings.Replace(tmpl, "{"+name+"}", url.PathEscape(v), 1)
			if res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
				record("resources/read (error)", err.Error())
			} else {
				record("resources/read", res)
			}
		}
		for _, prefix := range []string{"", "a", "A", "b", "d", "e", "g", "p", "s", "x", "M", "-", "l", "bourdon"} {
			res, err := cs.Complete(ctx, &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: tmpl},
				Argument: mcp.CompleteParamsArgument{Name: name, Value: prefix},
			})
			if err != nil {
				record("completion/complete (error)", err.Error())
				continue
			}
			record("completion/complete", res)
		}
	}
	for _, uri := range subs {
		if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri}); err != nil {
			record("unsubscribe", err.Error())
		}
	}

	mu.Lock()
	text := out.String()
	mu.Unlock()
	for _, kind := range leaked(text, ps) {
		for _, line := range strings.Split(text, "\n") {
			if p := plantOf(ps, kind); len(leaked(line, []plant{p})) > 0 {
				what, _, _ := strings.Cut(line, ":")
				at := max(0, strings.Index(strings.ToLower(line), strings.ToLower(p.core))-200)
				t.Errorf("the %s left the server through %s: …%.400s…", kind, what, line[at:])
				break
			}
		}
	}
	if !strings.Contains(text, sentinel) {
		t.Error("nothing was redacted: the credentials were not served")
	}
}

// templateVars finds the variables of a URI template.
var templateVars = regexp.MustCompile(`\{([a-z_]+)\}`)

func plantOf(ps []plant, kind string) plant {
	for _, p := range ps {
		if p.kind == kind {
			return p
		}
	}
	return plant{}
}
