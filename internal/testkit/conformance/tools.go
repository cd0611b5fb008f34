package conformance

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Fixture media: a 1x1 PNG and a WAV file of two silent samples, the
// smallest valid files of their kinds.
var (
	pngPixel = mustDecode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	wavBlank = mustDecode("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

func mustDecode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// noInput is the input schema of tools that take no arguments.
var noInput = json.RawMessage(`{"type":"object"}`)

// staticTool registers a tool without arguments whose result never varies.
func staticTool(srv *mcp.Server, name, description string, result func() *mcp.CallToolResult) {
	srv.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: noInput},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return result(), nil
		})
}

func text(s string) *mcp.TextContent { return &mcp.TextContent{Text: s} }

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{text(s)}}
}

// registerContentTools adds the tools of the tools-call-* scenarios that
// return fixed content, log, report progress or fail.
func (f *fixtures) registerContentTools(srv *mcp.Server) {
	staticTool(srv, "test_simple_text", "Returns one text content.", func() *mcp.CallToolResult {
		return textResult("This is a simple text response for testing.")
	})
	staticTool(srv, "test_image_content", "Returns one PNG image content.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{MIMEType: "image/png", Data: pngPixel}}}
	})
	staticTool(srv, "test_audio_content", "Returns one WAV audio content.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{MIMEType: "audio/wav", Data: wavBlank}}}
	})
	staticTool(srv, "test_embedded_resource", "Returns one embedded text resource.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
			URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content.",
		}}}}
	})
	staticTool(srv, "test_multiple_content_types", "Returns text, image and embedded resource content.", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{
			text("Multiple content types test:"),
			&mcp.ImageContent{MIMEType: "image/png", Data: pngPixel},
			&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`,
			}},
		}}
	})
	staticTool(srv, "test_error_handling", "Always fails with a tool error (isError: true).", func() *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{text("This tool intentionally returns an error for testing")}}
	})

	srv.AddTool(&mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three info log messages while it runs.", InputSchema: noInput},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if i > 0 {
					pause(ctx, 50*time.Millisecond)
				}
				if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "conformance", Data: msg}); err != nil {
					return nil, err
				}
			}
			return textResult("Tool with logging executed successfully"), nil
		})

	srv.AddTool(&mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100 when the call carries a progress token.", InputSchema: noInput},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			token := req.Params.GetProgressToken()
			for i, p := range []float64{0, 50, 100} {
				if i > 0 {
					pause(ctx, 50*time.Millisecond)
				}
				if token == nil {
					continue
				}
				err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: p, Total: 100, Message: fmt.Sprintf("%.0f of 100", p),
				})
				if err != nil {
					return nil, err
				}
			}
			return textResult(fmt.Sprintf("progress reported for token %v", token)), nil
		})
}

// pause waits d or until ctx ends.
func pause(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

type samplingArgs struct {
	Prompt string `json:"prompt" jsonschema:"the prompt to send to the client's LLM"`
}

type elicitationArgs struct {
	Message string `json:"message" jsonschema:"the message to show the user"`
}

// registerClientRequestTools adds the 2025-11-25 tools that send requests
// to the client during the call (sampling/createMessage,
// elicitation/create). They need a session, so they work for 2025-11-25
// clients only; 2026-07-28 clients use the input_required tools instead.
func (f *fixtures) registerClientRequestTools(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "test_sampling", Description: "Asks the client's LLM to answer the prompt (sampling/createMessage)."},
		func(ctx context.Context, req *mcp.CallToolRequest, in samplingArgs) (*mcp.CallToolResult, any, error) {
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{
				Messages:  []*mcp.SamplingMessage{{Role: "user", Content: text(in.Prompt)}},
				MaxTokens: 100,
			})
			if err != nil {
				return nil, nil, fmt.Errorf("sampling/createMessage failed: %w", err)
			}
			answer := "(no text in the response)"
			if t, ok := res.Content.(*mcp.TextContent); ok {
				answer = t.Text
			}
			return textResult("LLM response: " + answer), nil, nil
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "test_elicitation", Description: "Asks the user for a username and an email address (elicitation/create)."},
		func(ctx context.Context, req *mcp.CallToolRequest, in elicitationArgs) (*mcp.CallToolResult, any, error) {
			return elicit(ctx, req, in.Message, objectSchema(map[string]any{
				"username": map[string]any{"type": "string", "description": "User's response"},
				"email":    map[string]any{"type": "string", "description": "User's email address"},
			}, "username", "email"))
		})

	mcp.AddTool(srv, &mcp.Tool{Name: "test_elicitation_sep1034_defaults", Description: "Elicits one field of each primitive type, each with a default value (SEP-1034)."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			return elicit(ctx, req, "Test defaults for primitives", objectSchema(map[string]any{
				"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
				"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
				"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
				"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
				"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
			}))
		})

	titled := func(prefix string) []map[string]any {
		return []map[string]any{
			{"const": prefix + "1", "title": "First Option"},
			{"const": prefix + "2", "title": "Second Option"},
			{"const": prefix + "3", "title": "Third Option"},
		}
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "test_elicitation_sep1330_enums", Description: "Elicits the five enum forms of SEP-1330."},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			options := []string{"option1", "option2", "option3"}
			return elicit(ctx, req, "Test enum schemas", objectSchema(map[string]any{
				"untitledSingle": map[string]any{"type": "string", "enum": options},
				"titledSingle":   map[string]any{"type": "string", "oneOf": titled("value")},
				"legacyEnum":     map[string]any{"type": "string", "enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
				"untitledMulti":  map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"type": "string", "enum": options}},
				"titledMulti":    map[string]any{"type": "array", "minItems": 1, "maxItems": 3, "items": map[string]any{"anyOf": titled("value")}},
			}))
		})
}

// objectSchema is an elicitation schema: an object with flat properties.
func objectSchema(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func elicit(ctx context.Context, req *mcp.CallToolRequest, message string, schema map[string]any) (*mcp.CallToolResult, any, error) {
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: schema})
	if err != nil {
		return nil, nil, fmt.Errorf("elicitation/create failed: %w", err)
	}
	content, _ := json.Marshal(res.Content)
	return textResult(fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, content)), nil, nil
}

// registerDiagnosticTools adds the hooks the 2026-07-28 server-stateless
// scenario probes (SEP-2575) and the JSON Schema 2020-12 tool.
func (f *fixtures) registerDiagnosticTools(srv *mcp.Server) {
	srv.AddTool(&mcp.Tool{Name: "test_missing_capability", Description: "Needs the client's sampling capability; without it the call fails with -32021 (MissingRequiredClientCapability).", InputSchema: noInput},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if caps := req.ClientCapabilities(); caps != nil && caps.Sampling != nil {
				return textResult("the client declared sampling"), nil
			}
			data, err := json.Marshal(mcp.MissingRequiredClientCapabilityData{
				RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}},
			})
			if err != nil {
				return nil, err
			}
			return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "this tool needs the sampling client capability", Data: data}
		})

	staticTool(srv, "test_streaming_elicitation", "Answers with a plain result; its response stream carries no server-to-client requests.", func() *mcp.CallToolResult {
		return textResult("response stream carried the result only")
	})

	srv.AddTool(&mcp.Tool{Name: "test_logging_tool", Description: "Tries to log one info message; it reaches the client only if the request asked for a log level.", InputSchema: noInput},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "conformance", Data: "test_logging_tool ran"}); err != nil {
				return nil, err
			}
			return textResult("log attempted"), nil
		})

	// The two trigger tools replace a throwaway tool or prompt, which makes
	// the SDK send list_changed to every listener.
	srv.AddTool(&mcp.Tool{Name: "test_trigger_tool_change", Description: "Changes the tool list (notifications/tools/list_changed).", InputSchema: noInput},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			staticTool(f.srv, "test_transient_tool", "Added by test_trigger_tool_change.", func() *mcp.CallToolResult { return textResult("transient") })
			return textResult("tool list changed"), nil
		})
	srv.AddTool(&mcp.Tool{Name: "test_trigger_prompt_change", Description: "Changes the prompt list (notifications/prompts/list_changed).", InputSchema: noInput},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			f.srv.AddPrompt(&mcp.Prompt{Name: "test_transient_prompt", Description: "Added by test_trigger_prompt_change."},
				func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
					return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: text("transient")}}}, nil
				})
			return textResult("prompt list changed"), nil
		})

	// A parameter mirrored into an Mcp-Param-Region header (SEP-2243); the
	// SDK checks that header against the body.
	srv.AddTool(&mcp.Tool{Name: "test_x_mcp_header", Description: "Echoes its region argument, which clients also send as the Mcp-Param-Region header.", InputSchema: json.RawMessage(`{
		"type": "object",
		"properties": {
			"region": {"type": "string", "description": "mirrored into Mcp-Param-Region", "x-mcp-header": "Region"},
			"level": {"type": "integer", "description": "not mirrored"}
		}
	}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Region string `json:"region"`
			}
			if len(req.Params.Arguments) > 0 {
				if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
				}
			}
			return textResult("region=" + in.Region), nil
		})

	srv.AddTool(&mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Declares an input schema using JSON Schema 2020-12 keywords ($schema, $defs, $anchor, allOf/anyOf, if/then/else).", InputSchema: schema202012},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return textResult("called with " + string(req.Params.Arguments)), nil
		})
}

// schema202012 is the input schema the json-schema-2020-12 scenario
// expects to find verbatim in tools/list.
var schema202012 = json.RawMessage(`{
	"$schema": "https://json-schema.org/draft/2020-12/schema",
	"type": "object",
	"$defs": {
		"address": {
			"$anchor": "addressDef",
			"type": "object",
			"properties": {"street": {"type": "string"}, "city": {"type": "string"}}
		}
	},
	"properties": {
		"name": {"type": "string"},
		"address": {"$ref": "#/$defs/address"},
		"contactMethod": {"type": "string", "enum": ["phone", "email"]},
		"phone": {"type": "string"},
		"email": {"type": "string"}
	},
	"allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
	"if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
	"then": {"required": ["phone"]},
	"else": {"required": ["email"]},
	"additionalProperties": false
}`)
