package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// accessArgs are the visibility arguments shared by the read tools.
type accessArgs struct {
	AccessLevel    string `json:"access_level,omitempty" jsonschema:"Visibility to read at: public, team or private. Rows whose visibility is above it are left out."`
	IncludePrivate bool   `json:"include_private,omitempty" jsonschema:"Kept for compatibility with the reference: it has no effect once access_level is set, and access_level always is (pass access_level private to see private rows)."`
}

// level resolves the access level the way the reference's tools do: the
// access_level argument always wins (it has a default), so include_private
// alone changes nothing.
func (a accessArgs) level() (visibility.Level, error) {
	l, err := visibility.Resolve(&a.AccessLevel, a.IncludePrivate, visibility.Public)
	if err != nil {
		return l, fmt.Errorf("%w (use public, team or private)", err)
	}
	return l, nil
}

// hopArg is the federation depth guard of the tools that fan out to
// peers. Peers send 1 so that a query is answered from the local store
// only; end clients leave it at 0.
type hopArg struct {
	FederationHop int `json:"federation_hop,omitempty" jsonschema:"Internal depth guard for peer federation: peers send 1 to get local answers only. Leave at 0."`
}

// readOnly marks a tool that changes nothing and talks to no one else.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}

// addTool registers a typed tool. The input schema is t.InputSchema when
// set, else inferred from In, with the given defaults written into it; the
// output schema is inferred from Out.
//
// Each call decodes the arguments, applies the defaults, validates them
// against the input schema (a failure is a tool error saying what is
// wrong, as the SDK would say it), caps the access level at the caller's
// (capAccess), runs h, and marshals the output once into both
// structuredContent and the text content. Outputs are not
// re-validated on every call, which costs a third of the server's CPU;
// tests validate every tool result against its output schema instead
// (see internal/testkit/mcptest).
//
// A handler may answer with another payload by returning inBand (a denial,
// an in-band error); alts are the schemas of such payloads besides the
// denial.
//
// The result is redacted as a Field surface (see redaction.go); addToolAs
// names another kind.
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, defaults map[string]any, h func(context.Context, *mcp.CallToolRequest, In) (Out, error), alts ...*jsonschema.Schema) {
	addToolAs(srv, t, redact.Field, defaults, h, alts...)
}

// addToolAs is addTool for a tool whose results are redacted as kind.
func addToolAs[In, Out any](srv *mcp.Server, t *mcp.Tool, kind redact.Kind, defaults map[string]any, h func(context.Context, *mcp.CallToolRequest, In) (Out, error), alts ...*jsonschema.Schema) {
	// A tool may come with its input schema (one served elsewhere too);
	// otherwise it is inferred from In.
	in, _ := t.InputSchema.(*jsonschema.Schema)
	var err error
	if in == nil {
		if in, err = jsonschema.For[In](nil); err != nil {
			panic(fmt.Sprintf("tool %s: %v", t.Name, err))
		}
	}
	for name, v := range defaults {
		prop, ok := in.Properties[name]
		if !ok {
			panic(fmt.Sprintf("tool %s: default for unknown argument %s", t.Name, name))
		}
		raw, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		prop.Default = raw
	}
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", t.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", t.Name, err))
	}
	t.InputSchema = in
	// A call may also be refused, and the refusal is a normal result.
	t.OutputSchema = &jsonschema.Schema{Type: "object", AnyOf: append([]*jsonschema.Schema{out, denialSchema}, alts...)}
	if t.Annotations == nil {
		t.Annotations = readOnly
	}
	srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, err := decodeArgs[In](req.Params.Arguments, resolved, callerOf(req.Extra).MaxAccess())
		if err != nil {
			return errorResult(err), nil
		}
		var payload any
		out, err := h(ctx, req, args)
		var other inBand
		switch {
		case errors.As(err, &other):
			payload = other.payload
		case err != nil:
			return errorResult(err), nil
		default:
			payload = out
		}
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("encoding the %s result: %w", t.Name, err)
		}
		b = redactResult(kind, req.Params.Arguments, b) // every result, so no read surface can forget it
		var meta mcp.Meta
		if m, ok := payload.(interface{ resultMeta() mcp.Meta }); ok {
			meta = redactResultMeta(kind, m.resultMeta())
		}
		return &mcp.CallToolResult{
			Meta:              meta,
			StructuredContent: json.RawMessage(b),
			Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		}, nil
	})
}

// denialSchema describes the payload of a refused call:
// {"error": "access denied", "op", "agent", "tier", "detail"}, plus the
// empty page of the paginated lists.
var denialSchema = &jsonschema.Schema{
	Type:     "object",
	Required: []string{"error", "op", "agent", "tier", "detail"},
	Properties: map[string]*jsonschema.Schema{
		"error":  {Type: "string", Const: jsonValue("access denied")},
		"op":     {Type: "string"},
		"agent":  {Type: "string"},
		"tier":   {Type: "string"},
		"detail": {Type: "string"},
	},
}

func jsonValue(v any) *any { return &v }

// schemaOf infers the JSON Schema of T (for the alternative payloads of
// addTool).
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	return s
}

// selfValidating marks tool arguments that the handler validates itself
// against the same schema, with messages of its own.
type selfValidating interface{ validatesItself() }

// decodeArgs reads tool arguments: defaults applied, then validated
// against the input schema (unless In is selfValidating), the access
// level capped at ceiling, then decoded into In.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Resolved, ceiling visibility.Level) (In, error) {
	var in In
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return in, fmt.Errorf("validating \"arguments\": arguments must be a JSON object: %v", err)
		}
	}
	if err := schema.ApplyDefaults(&m); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	if _, own := any(in).(selfValidating); !own {
		if err := schema.Validate(m); err != nil {
			return in, fmt.Errorf("validating \"arguments\": %v", err)
		}
	}
	capAccess(m, ceiling)
	b, err := json.Marshal(m)
	if err != nil {
		return in, err
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, fmt.Errorf("validating \"arguments\": %v", err)
	}
	return in, nil
}

// capAccess lowers the access_level argument of a tool call (sent, or its
// default) to ceiling, the highest level the caller may read at
// (trust.Caller.MaxAccess), before any tool sees it: every tool that takes
// an access level reads at most at the caller's, and echoes the level it
// read at. include_private is cleared with it, so that it cannot reach
// private rows either. A value that is not a level is left for the tool to
// refuse.
func capAccess(args map[string]any, ceiling visibility.Level) {
	raw, ok := args["access_level"].(string)
	if !ok {
		return
	}
	if l, valid := visibility.Parse(raw); !valid || l <= ceiling {
		return
	}
	args["access_level"] = ceiling.String()
	if ceiling < visibility.Private {
		if _, ok := args["include_private"]; ok {
			args["include_private"] = false
		}
	}
}

// accessDefaults returns the schema defaults of accessArgs for a tool whose
// own default level is def.
func (s *Server) accessDefaults(def visibility.Level) map[string]any {
	return map[string]any{"access_level": s.defaultAccess(def).String(), "include_private": false}
}

// hopDefault documents the default of hopArg.
var hopDefault = map[string]any{"federation_hop": 0}

// merge returns the union of default maps.
func merge(maps ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
