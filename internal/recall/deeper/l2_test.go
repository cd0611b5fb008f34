package deeper

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

type fakeL2 func(context.Context, L2Query) ([]Passage, error)

func (f fakeL2) Query(ctx context.Context, q L2Query) ([]Passage, error) { return f(ctx, q) }

// backend serves the JSON contract with handler on loopback.
func backend(t *testing.T, handler http.HandlerFunc) L2 {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	b, err := NewL2(L2Config{Enabled: true, Endpoint: srv.URL, Protocol: "http", TopK: 3, Timeout: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const l2Timeout = 150 * time.Millisecond

func l2Service(t *testing.T, b L2) *Service {
	return New(seedStore(t), Options{L2: b, L2TopK: 3, L2Timeout: l2Timeout})
}

// localPart is the payload without what L2 may change.
func localPart(p Payload) string {
	var lines []string
	for _, it := range p.Items {
		if it.Kind != "l2" {
			lines = append(lines, it.Text)
		}
	}
	return strings.Join(lines, "\n")
}

func TestL2Appended(t *testing.T) {
	var got L2Query
	b := backend(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad request", 400)
			return
		}
		json.NewDecoder(r.Body).Decode(&got)
		w.Write([]byte(`{"results": [{"text": "Bourdon shipped v0.11 in June.", "source": "changelog"},
			{"content": "a second passage"}, {"text": "the api_key is zzz"}, {"text": "a fourth, beyond top_k"}]}`))
	})
	s := l2Service(t, b)
	p := ask(t, s, "what about Bourdon", visibility.Team)
	if got.Query != "what about Bourdon" || got.TopK != 3 || got.AccessLevel != "team" {
		t.Fatalf("backend got %+v", got)
	}
	if p.Source != "local+l2" || p.L2 == nil || p.L2.Status != "ok" || p.L2.Passages != 3 {
		t.Fatalf("source %q l2 %+v", p.Source, p.L2)
	}
	if p.Doors[len(p.Doors)-1] != DoorL2 {
		t.Fatalf("doors %v", p.Doors)
	}
	var l2 []Item
	for _, it := range p.Items {
		if it.Kind == "l2" {
			l2 = append(l2, it)
		}
	}
	if len(l2) != 3 || l2[0].Source != "changelog" || l2[0].Text != "[l2 changelog] Bourdon shipped v0.11 in June." ||
		l2[2].Text != "[l2] "+redact.Sentinel || strings.Contains(p.Context, "zzz") || strings.Contains(p.Context, "fourth") {
		t.Fatalf("l2 items %+v\n%s", l2, p.Context)
	}
	if !strings.Contains(p.Context, "\n"+l2Header+"\n") {
		t.Fatalf("context:\n%s", p.Context)
	}
}

// The local answer is the same, and on time, whatever the backend does.
func TestL2FailuresNeverBreakTheLocalAnswer(t *testing.T) {
	want := localPart(ask(t, New(seedStore(t), Options{}), "what about Bourdon", visibility.Team))
	big := `{"results": [{"text": "` + strings.Repeat("x", MaxL2Body) + `"}]}`
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		status  string
		detail  string
	}{
		{"slow", func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
			w.Write([]byte(`["late"]`))
		}, "timeout", ""},
		{"500", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) }, "error", "status 500"},
		{"not json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>oops</html>")) }, "error", "not JSON"},
		{"wrong shape", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"answer": 42}`)) }, "error", "accepted shapes"},
		{"number", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`17`)) }, "error", "accepted shapes"},
		{"list of numbers", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`[1, 2, 3]`)) }, "error", "accepted shapes"},
		{"two values", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`["a"] ["b"]`)) }, "error", "more than one"},
		{"error object", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"error": "index missing"}`)) }, "error", "reported an error"},
		{"huge", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, big) }, "error", "larger than"},
		{"truncated", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "1000")
			w.Write([]byte(`{"results": [{"te`))
		}, "error", ""},
		{"empty list", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"results": []}`)) }, "empty", ""},
		{"blank passages", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`["  ", ""]`)) }, "empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := l2Service(t, backend(t, tc.handler))
			start := time.Now()
			p := ask(t, s, "what about Bourdon", visibility.Team)
			if d := time.Since(start); d > l2Timeout+400*time.Millisecond {
				t.Errorf("answer took %v with an L2 deadline of %v", d, l2Timeout)
			}
			if got := localPart(p); got != want {
				t.Errorf("local context changed:\n%s\nwant:\n%s", got, want)
			}
			if p.L2 == nil || p.L2.Status != tc.status || !strings.Contains(p.L2.Detail, tc.detail) {
				t.Errorf("l2 %+v, want %s %q", p.L2, tc.status, tc.detail)
			}
			if p.Source != "local" || strings.Contains(p.Context, l2Header) {
				t.Errorf("source %q context:\n%s", p.Source, p.Context)
			}
		})
	}
}

func TestL2Unreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	b, err := NewL2(L2Config{Enabled: true, Endpoint: url, Protocol: "http", TopK: 3, Timeout: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := ask(t, l2Service(t, b), "what about Bourdon", visibility.Team)
	if p.L2.Status != "error" || p.Context == "" || p.L2.Detail != "request failed: connection refused" {
		t.Fatalf("l2 %+v", p.L2)
	}
}

func TestL2PanicAndCancel(t *testing.T) {
	p := ask(t, l2Service(t, fakeL2(func(context.Context, L2Query) ([]Passage, error) { panic("bad backend") })),
		"what about Bourdon", visibility.Team)
	if p.L2.Status != "error" || !strings.Contains(p.L2.Detail, "panicked") || p.Source != "local" {
		t.Fatalf("l2 %+v", p.L2)
	}
	// A backend that ignores its context is not waited for either: this
	// one answers only once the test is over.
	over := make(chan struct{})
	t.Cleanup(func() { close(over) })
	s := l2Service(t, fakeL2(func(context.Context, L2Query) ([]Passage, error) {
		<-over
		return []Passage{{Text: "late"}}, nil
	}))
	start := time.Now()
	p = ask(t, s, "what about Bourdon", visibility.Team)
	if d := time.Since(start); d > l2Timeout+400*time.Millisecond || p.L2.Status != "timeout" {
		t.Fatalf("took %v, l2 %+v", d, p.L2)
	}
	// The caller's cancellation ends the wait.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p = s.DeeperContext(ctx, Request{Prompt: "what about Bourdon", AccessLevel: "team", Level: visibility.Team})
	if p.L2.Status != "error" || p.Context == "" {
		t.Fatalf("l2 %+v", p.L2)
	}
}

func TestL2OnlyContext(t *testing.T) {
	s := l2Service(t, fakeL2(func(context.Context, L2Query) ([]Passage, error) {
		return []Passage{{Text: "from elsewhere"}}, nil
	}))
	p := ask(t, s, "zebra xylophone", visibility.Team)
	if p.Source != "l2" || len(p.Items) != 1 || p.Items[0].Rank != 1 || p.Reason != "" ||
		p.Context != header+"\n"+l2Header+"\n1. [l2] from elsewhere" {
		t.Fatalf("payload %+v\n%s", p, p.Context)
	}
	p = ask(t, l2Service(t, fakeL2(func(context.Context, L2Query) ([]Passage, error) { return nil, errors.New("down") })),
		"zebra xylophone", visibility.Team)
	if p.Reason != "no library row visible at access level team matches the prompt; the L2 backend returned nothing (error)" {
		t.Fatalf("reason %q", p.Reason)
	}
	// A blank prompt is not sent.
	called := false
	p = ask(t, l2Service(t, fakeL2(func(context.Context, L2Query) ([]Passage, error) { called = true; return nil, nil })), " ", visibility.Team)
	if called || p.L2.Status != "skipped" {
		t.Fatalf("called %v, l2 %+v", called, p.L2)
	}
}

func TestL2SharesTheBudget(t *testing.T) {
	long := strings.Repeat("passage text ", 60)
	s := New(bigLibrary(t, 60), Options{MaxChars: 1200, L2TopK: 5, L2Timeout: time.Second, L2: fakeL2(func(context.Context, L2Query) ([]Passage, error) {
		return []Passage{{Text: long}, {Text: long}, {Text: long}}, nil
	})})
	p := ask(t, s, "ledger", visibility.Public)
	if p.ContextChars > 1200 || !p.Truncated || p.Source != "local+l2" {
		t.Fatalf("%d chars, truncated %v, source %q", p.ContextChars, p.Truncated, p.Source)
	}
}

// MCP-style backend: a real MCP server on loopback exposing the tool.
func TestMCPBackend(t *testing.T) {
	var gotArgs map[string]any
	server := mcp.NewServer(&mcp.Implementation{Name: "retriever"}, nil)
	server.AddTool(&mcp.Tool{Name: "retriever_search", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		json.Unmarshal(req.Params.Arguments, &gotArgs)
		if gotArgs["query"] == "fail" {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "index offline"}}}, nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{
			&mcp.TextContent{Text: `[{"text": "retrieved passage", "source": "doc-7"}]`},
			&mcp.TextContent{Text: "plain text passage"},
		}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil))
	t.Cleanup(srv.Close)
	b, err := NewL2(L2Config{Enabled: true, Endpoint: srv.URL, Protocol: "mcp", ToolName: "retriever_search", TopK: 4, Timeout: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := b.Query(context.Background(), L2Query{Query: "Bourdon", TopK: 4})
	if err != nil || len(ps) != 2 || ps[0] != (Passage{Text: "retrieved passage", Source: "doc-7"}) || ps[1].Text != "plain text passage" {
		t.Fatalf("passages %+v, err %v", ps, err)
	}
	if gotArgs["query"] != "Bourdon" || gotArgs["top_k"] != float64(4) {
		t.Fatalf("tool arguments %v", gotArgs)
	}
	if _, err := b.Query(context.Background(), L2Query{Query: "fail", TopK: 4}); err == nil || !strings.Contains(err.Error(), "index offline") {
		t.Fatalf("err %v", err)
	}
	p := ask(t, New(seedStore(t), Options{L2: b, L2Timeout: 2 * time.Second}), "Bourdon", visibility.Team)
	if p.Source != "local+l2" || p.L2.Passages != 2 {
		t.Fatalf("payload l2 %+v source %q", p.L2, p.Source)
	}
}

func TestParsePassagesShapes(t *testing.T) {
	for _, tc := range []struct {
		body string
		want []Passage
	}{
		{`"  just text  "`, []Passage{{Text: "just text"}}},
		{`["a", {"summary": "b", "title": "T"}, {"body": "c", "uri": "u"}, 3, null]`, []Passage{{Text: "a"}, {Text: "b", Source: "T"}, {Text: "c", Source: "u"}}},
		{`{"content": [{"type": "text", "text": "mcp-like"}]}`, []Passage{{Text: "mcp-like"}}},
		{`{"passages": ["p"]}`, []Passage{{Text: "p"}}},
		{`{"documents": [{"text": "d", "id": "7"}]}`, []Passage{{Text: "d", Source: "7"}}},
		{`{"text": "single"}`, []Passage{{Text: "single"}}},
		{`{"content": "", "text": "second key"}`, []Passage{{Text: "second key"}}},
	} {
		got, err := parsePassages([]byte(tc.body))
		if err != nil || !equalPassages(got, tc.want) {
			t.Errorf("%s: %+v, %v", tc.body, got, err)
		}
	}
}

func equalPassages(a, b []Passage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestL2Config(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "l2.yaml")
	os.WriteFile(path, []byte("enabled: yes\nendpoint: https://rag.example.com/search\nprotocol: http\ntop_k: 4\ntimeout_seconds: 1.5\ntoken_env: BOURDON_L2_TOKEN\n"), 0o644)
	c, err := DefaultL2Config().LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled || c.Endpoint != "https://rag.example.com/search" || c.Protocol != "http" || c.TopK != 4 ||
		c.Timeout != 1500*time.Millisecond || c.TokenEnv != "BOURDON_L2_TOKEN" || c.Validate() != nil {
		t.Fatalf("config %+v: %v", c, c.Validate())
	}
	env := map[string]string{"BOURDON_L2_TOP_K": "x", "BOURDON_L2_TIMEOUT": "0.5", "BOURDON_L2_ENABLED": "off"}
	c2, warnings := c.WithEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if c2.Enabled || c2.TopK != 4 || c2.Timeout != 500*time.Millisecond || len(warnings) != 1 {
		t.Fatalf("env %+v %v", c2, warnings)
	}
	os.WriteFile(path, []byte("endpoint: http://x\nretries: 3\n"), 0o644)
	if _, err := DefaultL2Config().LoadFile(path); err == nil || !strings.Contains(err.Error(), `unknown key "retries"`) {
		t.Fatalf("err %v", err)
	}
	os.WriteFile(path, []byte("top_k: five\n"), 0o644)
	if _, err := DefaultL2Config().LoadFile(path); err == nil || !strings.Contains(err.Error(), "top_k must be an integer") {
		t.Fatalf("err %v", err)
	}
	for _, tc := range []struct {
		mut  func(*L2Config)
		want string
	}{
		{func(c *L2Config) { c.Endpoint = "http://rag.example.com" }, "unencrypted"},
		{func(c *L2Config) { c.Endpoint = "https://u:p@rag.example.com" }, "credentials"},
		{func(c *L2Config) { c.Endpoint = "ftp://x" }, "http(s) URL"},
		{func(c *L2Config) { c.Protocol = "grpc" }, "use http or mcp"},
		{func(c *L2Config) { c.TopK = 0 }, "top_k 0"},
		{func(c *L2Config) { c.Timeout = time.Minute }, "timeout"},
		{func(c *L2Config) { c.TokenEnv = "HOME" }, "BOURDON_L2_"},
		{func(c *L2Config) { c.ToolName = " " }, "tool_name"},
	} {
		c := DefaultL2Config()
		c.Enabled = true
		tc.mut(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", c, err, tc.want)
		}
	}
	c = DefaultL2Config()
	if b, err := NewL2(c, nil); b != nil || err != nil {
		t.Fatalf("disabled: %v %v", b, err)
	}
	c.Enabled = true // the reference's default: an MCP server on localhost:8765
	if b, err := NewL2(c, nil); err != nil || b.(*MCPL2).Endpoint != DefaultL2Endpoint {
		t.Fatalf("default: %v %v", b, err)
	}
}

func TestL2BearerToken(t *testing.T) {
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		w.Write([]byte(`["ok"]`))
	}))
	t.Cleanup(srv.Close)
	b, err := NewL2(L2Config{Enabled: true, Endpoint: srv.URL, Protocol: "http", TopK: 1, Timeout: time.Second, TokenEnv: "BOURDON_L2_TOKEN"},
		func(k string) string { return map[string]string{"BOURDON_L2_TOKEN": "s3cret"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Query(context.Background(), L2Query{Query: "q", TopK: 1}); err != nil || auth != "Bearer s3cret" {
		t.Fatalf("auth %q, err %v", auth, err)
	}
}
