package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/visibility"
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
	l, err := visibility.Resolve(&a.AccessLevel, a.IncludePrivate)
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

// addTool registers a typed tool whose input schema is inferred from In,
// with the given default values written into the schema (the SDK applies
// them to omitted arguments, so handlers see the defaults and echo them).
func addTool[In, Out any](srv *mcp.Server, t *mcp.Tool, defaults map[string]any, h func(context.Context, In) (Out, error)) {
	schema, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: %v", t.Name, err))
	}
	for name, v := range defaults {
		prop, ok := schema.Properties[name]
		if !ok {
			panic(fmt.Sprintf("tool %s: default for unknown argument %s", t.Name, name))
		}
		raw, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		prop.Default = raw
	}
	t.InputSchema = schema
	if t.Annotations == nil {
		t.Annotations = readOnly
	}
	mcp.AddTool(srv, t, func(ctx context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Out, error) {
		out, err := h(ctx, in)
		return nil, out, err
	})
}

// accessDefaults returns the schema defaults of accessArgs for a tool whose
// own default level is def.
func (s *server) accessDefaults(def visibility.Level) map[string]any {
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
