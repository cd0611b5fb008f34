package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcphttp"
)

// connect serves a fixture server through mcphttp and connects a Go client
// speaking version ("" for the newest).
func connect(t *testing.T, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hs := httptest.NewServer(mcphttp.Handler(NewServer(nil), mcphttp.Options{}))
	t.Cleanup(hs.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "fixture-test", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: hs.URL}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if version != "" && cs.InitializeResult().ProtocolVersion != version {
		t.Fatalf("negotiated %s, want %s", cs.InitializeResult().ProtocolVersion, version)
	}
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

func firstText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			return tc.Text
		}
	}
	t.Fatalf("no text content in %+v", res.Content)
	return ""
}

// The names the required scenarios of both revisions call.
var (
	wantTools = []string{
		"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
		"test_multiple_content_types", "test_tool_with_logging", "test_tool_with_progress", "test_error_handling",
		"test_sampling", "test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums",
		"test_missing_capability", "test_streaming_elicitation", "test_logging_tool",
		"test_trigger_tool_change", "test_trigger_prompt_change",
		"test_input_required_result_elicitation", "test_input_required_result_sampling",
		"test_input_required_result_list_roots", "test_input_required_result_request_state",
		"test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
		"test_input_required_result_tampered_state", "test_input_required_result_capabilities",
	}
	wantPrompts = []string{
		"test_simple_prompt", "test_prompt_with_arguments", "test_prompt_with_embedded_resource",
		"test_prompt_with_image", "test_input_required_result_prompt",
	}
)

func TestFixturesAreListed(t *testing.T) {
	for _, version := range []string{"2025-11-25", ""} {
		cs := connect(t, version, nil)
		ctx := context.Background()
		var tools, prompts []string
		for tool, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			if tool.Description == "" {
				t.Errorf("%s: no description", tool.Name)
			}
			tools = append(tools, tool.Name)
		}
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			prompts = append(prompts, p.Name)
		}
		for _, name := range wantTools {
			if !slices.Contains(tools, name) {
				t.Errorf("%q: tool %s missing", version, name)
			}
		}
		for _, name := range wantPrompts {
			if !slices.Contains(prompts, name) {
				t.Errorf("%q: prompt %s missing", version, name)
			}
		}
	}
}

func TestContentAndResources(t *testing.T) {
	cs := connect(t, "", nil)
	ctx := context.Background()
	if got := firstText(t, call(t, cs, "test_simple_text", nil)); got == "" {
		t.Error("test_simple_text: empty text")
	}
	res := call(t, cs, "test_audio_content", map[string]any{})
	if a, ok := res.Content[0].(*mcp.AudioContent); !ok || a.MIMEType != "audio/wav" || len(a.Data) == 0 {
		t.Errorf("test_audio_content: %+v", res.Content)
	}
	if res := call(t, cs, "test_error_handling", nil); !res.IsError || firstText(t, res) == "" {
		t.Errorf("test_error_handling: %+v", res)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	if err != nil || !strings.Contains(rr.Contents[0].Text, `"id":"123"`) {
		t.Errorf("template read: %v %+v", err, rr)
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nothing"}); err == nil {
		t.Error("reading an unknown resource succeeded")
	}
	pr, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "a", "arg2": "b"}})
	if err != nil || !strings.Contains(pr.Messages[0].Content.(*mcp.TextContent).Text, "arg1='a', arg2='b'") {
		t.Errorf("prompt with arguments: %v %+v", err, pr)
	}
	cr, err := cs.Complete(ctx, &mcp.CompleteParams{
		Ref:      &mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"},
		Argument: mcp.CompleteParamsArgument{Name: "arg1", Value: "tes"},
	})
	if err != nil || !slices.Equal(cr.Completion.Values, []string{"test", "testing", "tested"}) {
		t.Errorf("completion: %v %+v", err, cr)
	}
}

// TestClientRequestTools runs the 2025-11-25 tools that ask the client for
// a sampling answer and an elicitation during the call.
func TestClientRequestTools(t *testing.T) {
	var asked []string
	cs := connect(t, "2025-11-25", &mcp.ClientOptions{
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Paris"}}, nil
		},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked = append(asked, req.Params.Message)
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"username": "ada", "email": "ada@example.com"}}, nil
		},
	})
	if got := firstText(t, call(t, cs, "test_sampling", map[string]any{"prompt": "capital?"})); got != "LLM response: Paris" {
		t.Errorf("test_sampling: %q", got)
	}
	if got := firstText(t, call(t, cs, "test_elicitation", map[string]any{"message": "who?"})); !strings.Contains(got, "action=accept") || !strings.Contains(got, "ada") {
		t.Errorf("test_elicitation: %q", got)
	}
	if !slices.Equal(asked, []string{"who?"}) {
		t.Errorf("elicitation messages: %q", asked)
	}
}

// TestMultiRoundTrip lets the Go client's MRTR driver answer the
// input_required results of 2026-07-28 and checks the final results.
func TestMultiRoundTrip(t *testing.T) {
	var messages []string
	c := &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			messages = append(messages, req.Params.Message)
			answer := map[string]any{"name": "Alice", "color": "green", "ok": true, "context": "ctx"}
			return &mcp.ElicitResult{Action: "accept", Content: answer}, nil
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", Content: &mcp.TextContent{Text: "Hi"}}, nil
		},
	}
	cs := connect(t, "", c)
	for tool, want := range map[string]string{
		"test_input_required_result_elicitation":     "Hello, Alice!",
		"test_input_required_result_sampling":        "Sampling response: Hi",
		"test_input_required_result_request_state":   "state-ok",
		"test_input_required_result_multi_round":     "Multi-round complete: Alice likes green",
		"test_input_required_result_multiple_inputs": "Hi Alice",
	} {
		if got := firstText(t, call(t, cs, tool, nil)); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to contain %q", tool, got, want)
		}
	}
	if !slices.Contains(messages, "Step 2: What is your favorite color?") {
		t.Errorf("multi_round asked %q", messages)
	}
	pr, err := cs.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "test_input_required_result_prompt"})
	if err != nil || pr.Messages[0].Content.(*mcp.TextContent).Text != "Context: ctx" {
		t.Errorf("input_required prompt: %v %+v", err, pr)
	}
}

func TestMissingCapability(t *testing.T) {
	cs := connect(t, "", nil)
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "test_missing_capability"})
	if err == nil || !strings.Contains(err.Error(), "sampling") {
		t.Errorf("test_missing_capability without sampling: %v", err)
	}
}

func TestSealer(t *testing.T) {
	s := newSealer()
	state := s.seal("tool_a", roundState{Round: 2, Name: "Alice"})
	var got roundState
	if err := s.open("tool_a", state, &got); err != nil || got != (roundState{Round: 2, Name: "Alice"}) {
		t.Fatalf("open: %v %+v", err, got)
	}
	payload, mac, _ := strings.Cut(state, ".")
	forged, _ := json.Marshal(roundState{Round: 2, Name: "Mallory"})
	for name, bad := range map[string]string{
		"suffix":      state + "-TAMPERED",
		"other tool":  "",
		"new payload": base64.RawURLEncoding.EncodeToString(forged) + "." + mac,
		"no mac":      payload,
		"empty":       "",
		"other key":   newSealer().seal("tool_a", roundState{Round: 2, Name: "Alice"}),
	} {
		scope := "tool_a"
		if name == "other tool" {
			scope, bad = "tool_b", state
		}
		if err := s.open(scope, bad, new(roundState)); err == nil {
			t.Errorf("%s: a bad state was accepted", name)
		}
	}
}
