package conformance

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The multi round-trip tools of 2026-07-28 (SEP-2322): instead of sending
// requests to the client during the call, a tool answers with an
// input_required result naming what it needs (inputRequests) and, when
// it must remember something between rounds, a sealed requestState. The
// client retries the call with inputResponses and the echoed state.

// Keys of the input requests, as the scenarios name them.
const (
	keyName     = "user_name"
	keyCapital  = "capital_question"
	keyRoots    = "client_roots"
	keyConfirm  = "confirm"
	keyGreeting = "greeting"
	keyStep1    = "step1"
	keyStep2    = "step2"
	keyContext  = "user_context"
)

func askName() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "What is your name?", RequestedSchema: objectSchema(map[string]any{"name": map[string]any{"type": "string"}}, "name")}
}

func askConfirm() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: objectSchema(map[string]any{"ok": map[string]any{"type": "boolean"}}, "ok")}
}

func askLLM(prompt string, maxTokens int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: text(prompt)}}, MaxTokens: maxTokens}
}

// inputRequired is the result that asks the client for input.
func inputRequired(reqs mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}
}

// accepted returns the content of the elicitation answer under key when
// the user accepted it.
func accepted(resps mcp.InputResponseMap, key string) (map[string]any, bool) {
	r, ok := resps[key].(*mcp.ElicitResult)
	if !ok || r == nil || r.Action != "accept" {
		return nil, false
	}
	return r.Content, true
}

// acceptedString returns a non-empty string field of an accepted answer.
func acceptedString(resps mcp.InputResponseMap, key, field string) (string, bool) {
	c, ok := accepted(resps, key)
	if !ok {
		return "", false
	}
	s, ok := c[field].(string)
	return s, ok && s != ""
}

// sampled returns the text of the sampling answer under key.
func sampled(resps mcp.InputResponseMap, key string) (string, bool) {
	switch r := resps[key].(type) {
	case *mcp.CreateMessageWithToolsResult:
		if r == nil {
			return "", false
		}
		for _, c := range r.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				return t.Text, true
			}
		}
		return "", true
	case *mcp.CreateMessageResult:
		if r == nil {
			return "", false
		}
		if t, ok := r.Content.(*mcp.TextContent); ok {
			return t.Text, true
		}
		return "", true
	}
	return "", false
}

// rootsOf returns the roots answer under key.
func rootsOf(resps mcp.InputResponseMap, key string) ([]*mcp.Root, bool) {
	r, ok := resps[key].(*mcp.ListRootsResult)
	if !ok || r == nil {
		return nil, false
	}
	return r.Roots, true
}

func invalidState(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
}

// roundState is what the stateful MRTR tools keep between rounds.
type roundState struct {
	Round int    `json:"round"`
	Name  string `json:"name,omitempty"`
}

// mrtrTool registers a tool without arguments whose handler receives the
// opened requestState (nil on a first call). A requestState that fails its
// integrity check ends the call with -32602 before the handler runs.
func (f *fixtures) mrtrTool(srv *mcp.Server, name, description string, h func(req *mcp.CallToolRequest, state *roundState) (*mcp.CallToolResult, error)) {
	srv.AddTool(&mcp.Tool{Name: name, Description: description, InputSchema: noInput},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var state *roundState
			if s := req.Params.RequestState; s != "" {
				state = new(roundState)
				if err := f.sealer.open(name, s, state); err != nil {
					return nil, invalidState(err)
				}
			}
			return h(req, state)
		})
}

func (f *fixtures) registerMRTR(srv *mcp.Server) {
	f.mrtrTool(srv, "test_input_required_result_elicitation", "Asks the caller's name through an input_required elicitation, then greets.",
		func(req *mcp.CallToolRequest, _ *roundState) (*mcp.CallToolResult, error) {
			if name, ok := acceptedString(req.Params.InputResponses, keyName, "name"); ok {
				return textResult("Hello, " + name + "!"), nil
			}
			// First call, or the answer is missing, declined or malformed:
			// ask again rather than fail.
			return inputRequired(mcp.InputRequestMap{keyName: askName()}, ""), nil
		})

	f.mrtrTool(srv, "test_input_required_result_sampling", "Asks the client's LLM a question through an input_required sampling request.",
		func(req *mcp.CallToolRequest, _ *roundState) (*mcp.CallToolResult, error) {
			if answer, ok := sampled(req.Params.InputResponses, keyCapital); ok {
				return textResult("Sampling response: " + answer), nil
			}
			return inputRequired(mcp.InputRequestMap{keyCapital: askLLM("What is the capital of France?", 100)}, ""), nil
		})

	f.mrtrTool(srv, "test_input_required_result_list_roots", "Asks for the client's roots through an input_required roots/list request.",
		func(req *mcp.CallToolRequest, _ *roundState) (*mcp.CallToolResult, error) {
			if roots, ok := rootsOf(req.Params.InputResponses, keyRoots); ok {
				uris := make([]string, len(roots))
				for i, r := range roots {
					uris[i] = r.URI
				}
				return textResult(fmt.Sprintf("%d root(s): %s", len(roots), strings.Join(uris, ", "))), nil
			}
			return inputRequired(mcp.InputRequestMap{keyRoots: &mcp.ListRootsParams{}}, ""), nil
		})

	// The two confirmation tools differ only in what the scenarios do with
	// them: one echoes the state, the other tampers with it.
	for _, name := range []string{"test_input_required_result_request_state", "test_input_required_result_tampered_state"} {
		f.mrtrTool(srv, name, "Asks for a confirmation with a sealed requestState and completes only when the state comes back intact.",
			func(req *mcp.CallToolRequest, state *roundState) (*mcp.CallToolResult, error) {
				if _, ok := accepted(req.Params.InputResponses, keyConfirm); ok {
					if state == nil {
						return nil, invalidState(fmt.Errorf("requestState is missing"))
					}
					return textResult("state-ok: requestState verified and confirmation accepted"), nil
				}
				return inputRequired(mcp.InputRequestMap{keyConfirm: askConfirm()}, f.sealer.seal(name, roundState{Round: 1})), nil
			})
	}

	f.mrtrTool(srv, "test_input_required_result_multiple_inputs", "Asks for an elicitation, a sampling and a roots answer in one round.",
		func(req *mcp.CallToolRequest, state *roundState) (*mcp.CallToolResult, error) {
			resps := req.Params.InputResponses
			name, nameOK := acceptedString(resps, keyName, "name")
			greeting, greetingOK := sampled(resps, keyGreeting)
			roots, rootsOK := rootsOf(resps, keyRoots)
			if state != nil && nameOK && greetingOK && rootsOK {
				return textResult(fmt.Sprintf("%s %s; %d root(s)", greeting, name, len(roots))), nil
			}
			return inputRequired(mcp.InputRequestMap{
				keyName:     askName(),
				keyGreeting: askLLM("Generate a greeting", 50),
				keyRoots:    &mcp.ListRootsParams{},
			}, f.sealer.seal("test_input_required_result_multiple_inputs", roundState{Round: 1})), nil
		})

	const multiRound = "test_input_required_result_multi_round"
	f.mrtrTool(srv, multiRound, "Two elicitation rounds; the state carries the round and the first answer.",
		func(req *mcp.CallToolRequest, state *roundState) (*mcp.CallToolResult, error) {
			resps := req.Params.InputResponses
			askStep1 := mcp.InputRequestMap{keyStep1: &mcp.ElicitParams{Message: "Step 1: What is your name?", RequestedSchema: objectSchema(map[string]any{"name": map[string]any{"type": "string"}}, "name")}}
			askStep2 := mcp.InputRequestMap{keyStep2: &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: objectSchema(map[string]any{"color": map[string]any{"type": "string"}}, "color")}}
			switch {
			case state == nil:
				return inputRequired(askStep1, f.sealer.seal(multiRound, roundState{Round: 1})), nil
			case state.Round == 1:
				name, ok := acceptedString(resps, keyStep1, "name")
				if !ok {
					return inputRequired(askStep1, req.Params.RequestState), nil
				}
				return inputRequired(askStep2, f.sealer.seal(multiRound, roundState{Round: 2, Name: name})), nil
			default:
				color, ok := acceptedString(resps, keyStep2, "color")
				if !ok {
					return inputRequired(askStep2, req.Params.RequestState), nil
				}
				return textResult(fmt.Sprintf("Multi-round complete: %s likes %s", state.Name, color)), nil
			}
		})

	f.mrtrTool(srv, "test_input_required_result_capabilities", "Asks only for the kinds of input the client declared it can give.",
		func(req *mcp.CallToolRequest, _ *roundState) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return textResult("input received"), nil
			}
			caps := req.ClientCapabilities()
			reqs := mcp.InputRequestMap{}
			if caps != nil {
				if caps.Elicitation != nil {
					reqs[keyName] = askName()
				}
				if caps.Sampling != nil {
					reqs[keyGreeting] = askLLM("Generate a short greeting", 50)
				}
				if caps.RootsV2 != nil || caps.Roots.ListChanged {
					reqs[keyRoots] = &mcp.ListRootsParams{}
				}
			}
			if len(reqs) == 0 {
				return textResult("the client declared no capability that can answer an input request"), nil
			}
			return inputRequired(reqs, ""), nil
		})
}

// inputRequiredPrompt is prompts/get's analogue of the elicitation tool.
func inputRequiredPrompt(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	if c, ok := acceptedString(req.Params.InputResponses, keyContext, "context"); ok {
		return &mcp.GetPromptResult{
			Description: "A prompt completed with elicited context",
			Messages:    []*mcp.PromptMessage{{Role: "user", Content: text("Context: " + c)}},
		}, nil
	}
	return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{
		keyContext: &mcp.ElicitParams{Message: "Please provide context for the prompt", RequestedSchema: objectSchema(map[string]any{"context": map[string]any{"type": "string"}}, "context")},
	}}, nil
}
