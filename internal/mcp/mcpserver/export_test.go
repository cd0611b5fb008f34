package mcpserver

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Subscriptions returns how many resources have subscribers and how many
// sessions the server keeps state for, for tests of their clean-up.
func Subscriptions(s *Server) (resources, sessions int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs), len(s.sessions)
}

// Surfaces returns the operations s offers through an access step (tools,
// resource reads, completion), sorted.
func Surfaces(s *Server) []string {
	out := slices.Clone(s.surfaces)
	slices.Sort(out)
	return slices.Compact(out)
}

// ArgsResult is what a tool's argument decoding gave: the decoded In, the
// echoes and the error's text.
type ArgsResult struct {
	In     any
	Echoes map[string]string
	Err    string
}

// DecodeArgs decodes raw for tool as a caller whose ceiling is ceiling,
// by the direct path (ok false when the tool has none or it declines) and
// by the general path.
func DecodeArgs(s *Server, tool string, raw json.RawMessage, ceiling visibility.Level) (direct ArgsResult, ok bool, general ArgsResult) {
	d := s.tools[tool].args
	if d.direct != nil {
		in := reflect.New(d.typ)
		var echoes map[string]string
		if echoes, ok = d.direct.decode(raw, ceiling, in.Elem()); ok {
			direct = ArgsResult{In: in.Elem().Interface(), Echoes: echoes}
		}
	}
	in := reflect.New(d.typ)
	echoes, err := d.general(raw, ceiling, in.Interface())
	general = ArgsResult{In: in.Elem().Interface(), Echoes: echoes}
	if err != nil {
		general = ArgsResult{Err: err.Error()}
	}
	return direct, ok, general
}

// DirectArgs returns the tools that have a direct argument path, sorted.
func DirectArgs(s *Server) []string {
	var out []string
	for name, t := range s.tools {
		if t.args.direct != nil {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// CallTool calls tool's handler with raw arguments, as the SDK would for a
// caller without a token (the operator): the server's side of a call alone.
// With general set, the arguments take the general path.
func CallTool(s *Server, tool string, raw json.RawMessage, general bool) (*mcp.CallToolResult, error) {
	t := s.tools[tool]
	if general && t.args.direct != nil {
		direct := t.args.direct
		t.args.direct = nil
		defer func() { t.args.direct = direct }()
	}
	return t.handler(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool, Arguments: raw}})
}
