package mcpserver

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
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

// selfValidating marks tool arguments that the handler validates itself
// against the same schema, with messages of its own.
type selfValidating interface{ validatesItself() }

// argDecoder reads the arguments of one tool's calls: defaults applied,
// then validated against the input schema (unless the tool's In is
// selfValidating), the access level capped at the caller's ceiling, then
// decoded into In. It also returns the echoes: the top-level string
// arguments as the caller sent them, before defaults and the cap, which
// redactResult treats as the caller's own.
//
// The general path (general) does exactly that, on a map. A tool whose
// schema names only scalar arguments also has a direct path (argPlan),
// which reads the JSON straight into In and declines, leaving the call to
// the general path, whatever it is not sure to answer the same way: so
// every error, and every unusual input, comes from the general path.
type argDecoder struct {
	typ      reflect.Type // In
	schema   *jsonschema.Resolved
	validate bool     // false when In is selfValidating
	direct   *argPlan // nil when the schema is not one argPlan follows
}

// newArgDecoder returns the decoder of the arguments of In, whose schema
// is in (defaults included) and resolved its resolution.
func newArgDecoder[In any](in *jsonschema.Schema, resolved *jsonschema.Resolved) *argDecoder {
	_, own := any(*new(In)).(selfValidating)
	d := &argDecoder{typ: reflect.TypeFor[In](), schema: resolved, validate: !own}
	if !own {
		d.direct = planArgs(in, d.typ)
	}
	return d
}

// decode reads raw into *dst, a pointer to the tool's In, for a caller
// whose access ceiling is ceiling, and returns the echoes.
func (d *argDecoder) decode(raw json.RawMessage, ceiling visibility.Level, dst any) (map[string]string, error) {
	if d.direct != nil {
		if echoes, ok := d.direct.decode(raw, ceiling, reflect.ValueOf(dst).Elem()); ok {
			return echoes, nil
		}
	}
	return d.general(raw, ceiling, dst)
}

// general is the general path of decode: the arguments decoded into a
// map, the defaults applied and the map validated by the schema, the
// access capped, and the map encoded and decoded into *dst.
func (d *argDecoder) general(raw json.RawMessage, ceiling visibility.Level, dst any) (map[string]string, error) {
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("validating \"arguments\": arguments must be a JSON object: %v", err)
		}
		if m == nil { // a null with space around it
			m = map[string]any{}
		}
	}
	var echoes map[string]string
	for k, v := range m {
		if s, ok := v.(string); ok {
			if echoes == nil {
				echoes = make(map[string]string, len(m))
			}
			echoes[k] = s
		}
	}
	if err := d.schema.ApplyDefaults(&m); err != nil {
		return nil, fmt.Errorf("validating \"arguments\": %v", err)
	}
	if d.validate {
		if err := d.schema.Validate(m); err != nil {
			return nil, fmt.Errorf("validating \"arguments\": %v", err)
		}
	}
	capAccess(m, ceiling)
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, dst); err != nil {
		return nil, fmt.Errorf("validating \"arguments\": %v", err)
	}
	return echoes, nil
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
	level, lowered := capLevel(raw, ceiling)
	if !lowered {
		return
	}
	args["access_level"] = level
	if _, ok := args["include_private"]; ok && clearsPrivate(ceiling) {
		args["include_private"] = false
	}
}

// capLevel returns the access level raw capped at ceiling, and whether
// that lowered it; a value that is not a level is kept.
func capLevel(raw string, ceiling visibility.Level) (string, bool) {
	if l, valid := visibility.Parse(raw); !valid || l <= ceiling {
		return raw, false
	}
	return ceiling.String(), true
}

// clearsPrivate reports whether a lowered access level also clears
// include_private: for a ceiling below private.
func clearsPrivate(ceiling visibility.Level) bool { return ceiling < visibility.Private }

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
