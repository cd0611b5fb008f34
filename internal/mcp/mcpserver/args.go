package mcpserver

import (
	"encoding/json"
	"fmt"

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

// decodeArgs reads tool arguments: defaults applied, then validated
// against the input schema (unless In is selfValidating), the access
// level capped at ceiling, then decoded into In. It also returns the
// echoes: the top-level string arguments as the caller sent them, before
// defaults and the cap, which redactResult treats as the caller's own.
func decodeArgs[In any](raw json.RawMessage, schema *jsonschema.Resolved, ceiling visibility.Level) (In, map[string]string, error) {
	var in In
	m := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &m); err != nil {
			return in, nil, fmt.Errorf("validating \"arguments\": arguments must be a JSON object: %v", err)
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
	if err := schema.ApplyDefaults(&m); err != nil {
		return in, nil, fmt.Errorf("validating \"arguments\": %v", err)
	}
	if _, own := any(in).(selfValidating); !own {
		if err := schema.Validate(m); err != nil {
			return in, nil, fmt.Errorf("validating \"arguments\": %v", err)
		}
	}
	capAccess(m, ceiling)
	b, err := json.Marshal(m)
	if err != nil {
		return in, nil, err
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return in, nil, fmt.Errorf("validating \"arguments\": %v", err)
	}
	return in, echoes, nil
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
