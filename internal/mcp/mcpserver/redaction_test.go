package mcpserver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// sentinel is redact.Sentinel, the wire contract's bytes.
const sentinel = "[redacted credential-like text]"

// plant is one realistic credential: its kind, the text planted, and its
// core (the part that must never leave the server, in any case).
type plant struct{ kind, value, core string }

// pad repeats s to n characters.
func pad(s string, n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }

// plants are the sixteen credential kinds of issue 15: the eight the
// reference's battery missed, then eight it catches. Each is built from
// pieces, so no token literal is committed.
func plants() []plant {
	pem1 := "MIIEpAIBAAKCAQEA" + pad("q7Lk2Pem1BodyZ9x", 48)
	pem2 := "MIIEogIBAAKCAQEA" + pad("w3Mn8Pem2BodyY4v", 48)
	basic := base64.StdEncoding.EncodeToString([]byte("deploy:Bz7Leak3q"))
	aws := pad("Lk7sAwsSecretKeyZ9q/+Xy2mN4bV6cR8tE0wQ1aS", 40)
	azure := pad("QXp1cmVMZWFrS2V5OTg3NjU0MzIxMGFi", 86) + "=="
	return []plant{
		{"url password", "postgres://app:" + "Pw4Leak9x@db.internal:5432/app", "Pw4Leak9x"},
		{"bearer value", "Authorization: Bearer " + "Lk9dQ2mZ7xVb3nR8tY6w", "Lk9dQ2mZ7xVb3nR8tY6w"},
		{"basic value", "Authorization: Basic " + basic, basic},
		{"bdn token", "bdn_" + pad("1e4c9a7f", 48), pad("1e4c9a7f", 48)},
		{"aws secret key", "aws_secret_access_key = " + aws, aws},
		{"password assignment", "DB_PASSWORD=" + "Qx8LeakPass2", "Qx8LeakPass2"},
		{"azure account key", "DefaultEndpointsProtocol=https;AccountName=leaky;AccountKey=" + azure + ";EndpointSuffix=core.windows.net", azure[:40]},
		{"pem body", pem1 + "\n" + pem1 + "\nQk3=", pem1},
		{"github token", "ghp_" + pad("LeakGhp0123456789abcdefghij", 36), pad("LeakGhp0123456789abcdefghij", 36)},
		{"aws key id", "AKIA" + "LEAKTEST01234567", "LEAKTEST01234567"},
		{"slack token", "xoxb-" + "123456789012-LeakSlackToken9", "LeakSlackToken9"},
		{"openai key", "sk-" + "LeakOpenAi0123456789abcdef", "LeakOpenAi0123456789abcdef"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9." + "eyJsZWFrIjoiand0In0." + "LeakJwtSig0123456789", "LeakJwtSig0123456789"},
		{"pem with begin", "-----BEGIN " + "RSA PRIVATE KEY-----\n" + pem2 + "\n-----END RSA PRIVATE KEY-----", pem2},
		{"stripe key", "sk_live_" + "LeakStripe0123456789", "LeakStripe0123456789"},
		{"google key", "AIza" + pad("LeakGoogle0123456789abcdefghijklmno", 35), pad("LeakGoogle0123456789abcdefghijklmno", 35)},
	}
}

// leakyManifest is an agent whose every field holds credentials.
func leakyManifest(ps []plant) *yaml11.Map {
	var entities, sessions, workstreams, notes []any
	for i, p := range ps {
		other := ps[(i+1)%len(ps)].value
		entities = append(entities, row("name", p.value, "type", "project", "summary", other,
			"aliases", []any{ps[(i+2)%len(ps)].value}, "tags", []any{ps[(i+3)%len(ps)].value}, "visibility", "public"))
		sessions = append(sessions, row("date", "2026-06-2"+string(rune('0'+i%9)), "cwd", "/work/"+p.value,
			"project_focus", []any{p.value}, "key_actions", []any{other}, "files_touched", []any{p.value}, "visibility", "public"))
		workstreams = append(workstreams, row("name", p.value, "status", "active", "summary", other,
			"related_entities", []any{p.value}, "tags", []any{other}, "visibility", "public"))
		notes = append(notes, row("date", "2026-06-20", "text", p.value, "related_entities", []any{other}, "tags", []any{p.value}, "visibility", "public"))
	}
	return row("spec_version", "0.1",
		"agent", row("id", "leaky", "type", "other", "role_narrative", ps[0].value, "instance", ps[1].value),
		"last_updated", "2026-06-29T12:00:00+00:00",
		"capabilities", []any{ps[2].value},
		"known_entities", entities, "recent_sessions", sessions,
		"known_workstreams", workstreams, "notes", notes)
}

// leakyDoc is a documentation page with every credential in its front
// matter and body, and a code sample holding them too.
func leakyDoc(ps []plant) (doc, sample string) {
	var body, code strings.Builder
	for _, p := range ps {
		body.WriteString("Do not paste " + p.value + " into a ticket.\n\n")
		code.WriteString("echo '" + strings.ReplaceAll(p.value, "\n", " ") + "'\n")
	}
	doc = "---\nuid: demo.docs.leaky-notes\ntitle: Leaky notes " + ps[9].value + "\ndescription: Notes that quote " + ps[8].value + " and " + ps[0].value +
		"\ntype: reference\nowner: payments-team\nlastReviewed: 2026-11-18\nproducts:\n  - payments\nroles:\n  - developer\nlevel: beginner\n---\n\n" +
		"# Leaky notes\n\nNever print /etc/passwd or pass the api_key parameter in a URL.\n\n" + body.String() +
		":::code language=\"bash\" source=\"snippets/payments/leaky.sh\" id=\"leaky\":::\n"
	sample = "#!/usr/bin/env bash\n# <leaky>\n" + code.String() + "# </leaky>\n"
	return doc, sample
}

// leakyRequest is an accepted request whose text holds the credentials.
func leakyRequest(ps []plant) string {
	var problem strings.Builder
	for _, p := range ps {
		problem.WriteString(p.value + " ")
	}
	q, _ := json.Marshal(problem.String())
	t, _ := json.Marshal("Rotate " + ps[3].value)
	return `{"id": "REQ-2026-0001", "title": ` + string(t) + `, "stage": "intake", "type": "security", "area": "payments", "owner": "demo/payments",
"requester": "github:bob", "problem": ` + string(q) + `, "desiredOutcome": ` + string(q) + `,
"history": [{"from": "", "to": "intake", "actor": "github:bob", "approvedBy": "cli:operator", "proposal": "prop-000000000001", "reason": ` + string(q) + `, "at": "2026-06-20T10:00:00Z"}],
"created": "2026-06-20T10:00:00Z", "updated": "2026-06-20T10:00:00Z"}`
}

// leakyServer serves a library with the leaky manifest (and the demo
// agents), the demo corpus with the leaky page and sample, and a request
// store with the leaky request; everything is watched.
func leakyServer(t *testing.T, ps []plant) (*mcpserver.Server, *knowledge.Base) {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	data, err := yaml11.Encode(leakyManifest(ps))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "agents", "leaky.l5.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	corpus := filepath.Join(dir, "docs")
	if err := demo.WriteDocs(corpus); err != nil {
		t.Fatal(err)
	}
	doc, sample := leakyDoc(ps)
	if err := os.WriteFile(filepath.Join(corpus, "docs", "leaky-notes.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "snippets", "payments", "leaky.sh"), []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	reqDir := filepath.Join(dir, "requests")
	if err := os.MkdirAll(reqDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(reqDir, "REQ-2026-0001.yaml"), []byte(leakyRequest(ps)), 0o644); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	reqs, err := requests.Open(reqDir)
	if err != nil {
		t.Fatal(err)
	}
	store := federation.New(lib)
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: []string{corpus}, Store: store, Requests: reqs, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcpserver.New(store, mcpserver.Options{Knowledge: kb, Requests: reqs, Writer: commit.New(dir), TurnEnv: turn.Env{CodexHome: "-"}})
	// The watchers are waited for at the end: one in the middle of a tick
	// may still write the drift watermarks into dir.
	ctx, cancel := context.WithCancel(context.Background())
	var watching sync.WaitGroup
	watching.Go(func() { srv.Watch(ctx) })
	watching.Go(func() { srv.WatchKnowledge(ctx) })
	t.Cleanup(func() { cancel(); watching.Wait() })
	return srv, kb
}

// leaked returns the plants whose value or core appears in out, in any
// case (a uid lower-cases what it is made of) or JSON-escaped.
func leaked(out string, ps []plant) []string {
	low := strings.ToLower(out)
	var bad []string
	for _, p := range ps {
		esc, _ := json.Marshal(p.value)
		if strings.Contains(low, strings.ToLower(p.core)) || strings.Contains(out, p.value) || strings.Contains(out, strings.Trim(string(esc), `"`)) {
			bad = append(bad, p.kind)
		}
	}
	return bad
}

// resultText is everything a tool result says: its text and its
// structured content.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	sc, _ := json.Marshal(res.StructuredContent)
	b.Write(sc)
	return b.String()
}

func callOrErrorText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err.Error()
	}
	return resultText(res)
}

// TestProseIsRedactedMatchByMatch is the over-matching rule (issue 15): a
// page that mentions /etc/passwd keeps its content and loses only its
// credentials, and a lookup's echoed name is the caller's, redacted as
// prose; memory rows stay whole-value fields, as the reference pins.
func TestProseIsRedactedMatchByMatch(t *testing.T) {
	ps := plants()
	srv, _ := leakyServer(t, ps)
	cs := mcptest.Connect(t, srv.Server, "in-memory")

	got, res := call(t, cs, "docs_fetch", map[string]any{"uid": "demo.docs.leaky-notes"})
	if res.IsError {
		t.Fatal(errText(res))
	}
	content, _ := got["content"].(string)
	if !strings.Contains(content, "Never print /etc/passwd or pass the api_key parameter in a URL.") ||
		!strings.Contains(content, "Do not paste "+sentinel+" into a ticket.") {
		t.Errorf("the page's content is not redacted match by match:\n%s", content)
	}
	if bad := leaked(resultText(res), ps); len(bad) > 0 {
		t.Errorf("docs_fetch leaked %v", bad)
	}

	for _, name := range []string{"../../etc/passwd", "the password"} {
		got, _ = call(t, cs, "find_entity", map[string]any{"name": name})
		if got["name"] != name {
			t.Errorf("find_entity echoes %q as %q", name, got["name"])
		}
	}
	// A memory row whose text only names a credential is still replaced
	// whole (the reference's contract, leak_cases.json).
	commitKeyword := map[string]any{"agent_id": "leaky", "entities": []any{map[string]any{"name": "Vault", "summary": "the service_role key for supabase", "visibility": "public"}}}
	if _, res := call(t, cs, "commit_to_federation", commitKeyword); res.IsError {
		t.Fatal(errText(res))
	}
	got, _ = call(t, cs, "find_entity", map[string]any{"name": "Vault"})
	if m := got["matches"].([]any); len(m) != 1 || m[0].(map[string]any)["summaries"].(map[string]any)["leaky"] != sentinel {
		t.Errorf("a keyword-only summary is not replaced whole on a memory surface: %v", got["matches"])
	}
}

// TestCompletionsLeaveOutSecretNames: completion offered entity names
// verbatim; a name that is a credential is now left out (and not
// counted), not shown as the sentinel.
func TestCompletionsLeaveOutSecretNames(t *testing.T) {
	ps := plants()
	srv, _ := leakyServer(t, ps)
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	seen := map[string]bool{}
	for _, prefix := range []string{"", "a", "A", "b", "d", "e", "g", "p", "s", "x", "M", "-"} {
		res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
			Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "agent-library://entities/{name}"},
			Argument: mcp.CompleteParamsArgument{Name: "name", Value: prefix},
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.Completion.Values {
			seen[v] = true
		}
		b, _ := json.Marshal(res)
		if bad := leaked(string(b), ps); len(bad) > 0 {
			t.Errorf("completing %q leaked %v", prefix, bad)
		}
		if strings.Contains(string(b), sentinel) {
			t.Errorf("completing %q offers the sentinel: %s", prefix, b)
		}
		if res.Completion.Total != len(res.Completion.Values) && !res.Completion.HasMore {
			t.Errorf("completing %q: total %d counts names left out (%d values)", prefix, res.Completion.Total, len(res.Completion.Values))
		}
	}
	if !seen["Payments API"] {
		t.Errorf("benign names are still completed: %v", seen)
	}
}

// TestGraphUIDsNeverSpellASecret: an entity uid was its name's slug, so a
// credential in a name came out lower-cased in query_graph, get_related,
// docs_fetch and the closest-uid suggestion; and a query could probe the
// raw summaries.
func TestGraphUIDsNeverSpellASecret(t *testing.T) {
	ps := plants()
	srv, _ := leakyServer(t, ps)
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	var out strings.Builder
	out.WriteString(callOrErrorText(t, cs, "query_graph", map[string]any{"pattern": "MATCH (e:Entity) RETURN e.uid, e.title, e.summary, e.aliases, e.tags", "limit": 1000, "access_level": "private"}))
	out.WriteString(callOrErrorText(t, cs, "get_related", map[string]any{"uid": "bourdon.agent.leaky", "limit": 500, "access_level": "private"}))
	// The nearest uids to a near miss of a slug are suggested (the near
	// misses themselves come back: they are the caller's own text).
	for _, near := range []string{"bourdon.entity.leaky.postgres-app-pw4leak9y-db-internal-5432-app", "bourdon.entity.leaky.ghp-leakghp0123456789abcdefghijleakghp0z"} {
		res, _ := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "docs_fetch", Arguments: map[string]any{"uid": near, "access_level": "private"}})
		out.WriteString(strings.ReplaceAll(resultText(res), near, "<near miss>"))
	}
	if bad := leaked(out.String(), ps); len(bad) > 0 {
		t.Errorf("the graph leaked %v:\n%s", bad, out.String())
	}
	// What the memory tools would not show cannot be found by a query.
	probe := callOrErrorText(t, cs, "query_graph", map[string]any{"pattern": "MATCH (e:Entity) WHERE e.summary CONTAINS 'LeakStripe' OR e.title CONTAINS 'LeakStripe' RETURN e.uid", "access_level": "private"})
	if !strings.Contains(probe, `"rows":[]`) {
		t.Errorf("a query matched a credential of a manifest: %s", probe)
	}
}

// TestErrorTextsAreRedacted: tool errors and JSON-RPC errors quote what
// the caller sent (an unknown uid, an access level, a URI); they left the
// server unredacted.
func TestErrorTextsAreRedacted(t *testing.T) {
	ps := plants()
	srv, _ := leakyServer(t, ps)
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	ctx := context.Background()
	for _, p := range ps {
		var out strings.Builder
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"docs_fetch", map[string]any{"uid": p.value}},
			{"get_related", map[string]any{"uid": "demo.docs.payments-api", "direction": p.value}},
			{"find_entity", map[string]any{"name": "x", "access_level": p.value}},
			{"get_request", map[string]any{"id": p.value}},
			{"list_workstreams", map[string]any{"status": p.value}},
			{"no_such_tool", map[string]any{"x": p.value}},
		} {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil {
				out.WriteString(err.Error())
				continue
			}
			if !res.IsError {
				t.Errorf("%s %v: not an error", c.tool, c.args)
			}
			out.WriteString(resultText(res))
		}
		for _, uri := range []string{"cogitave://doc/" + p.value, "agent-library://agents/" + p.value + "/memory"} {
			if r, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil {
				out.WriteString(err.Error())
			} else {
				b, _ := json.Marshal(r)
				out.Write(b)
			}
		}
		if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "nowhere://" + p.value}); err != nil {
			out.WriteString(err.Error())
		}
		if bad := leaked(out.String(), []plant{p}); len(bad) > 0 {
			t.Errorf("an error text leaked the %s:\n%s", p.kind, out.String())
		}
	}
}
