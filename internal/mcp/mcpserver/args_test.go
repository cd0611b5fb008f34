package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/mcp/mcpserver"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/testkit/mcptest"
)

// wantDirectArgs are the tools whose arguments take the direct path: all
// but those with arrays, objects or constraints beyond types.
var wantDirectArgs = []string{
	"code_sample_search", "compile_codex_turn", "describe_caller", "describe_schema", "docs_fetch",
	"explain_memory_change", "export_agents", "find_entity", "get_cross_agent_summary", "get_dod",
	"get_request", "list_agents", "list_memory_versions", "list_notes", "list_recent_work", "list_requests",
	"list_workstreams", "prepare_recognition_context", "query_agent_memory", "reload_library",
	"resolve_xref", "rollback_agent_memory",
}

// TestDirectArgsMatchGeneral holds the direct argument path of every tool
// against the general one (the oracle): on valid arguments, defaults,
// capped access levels, null, malformed JSON, unknown and duplicated
// keys, wrong types and odd numbers and strings, for every ceiling,
// whatever the direct path answers is what the general path answers. And
// the plain calls do take the direct path.
func TestDirectArgsMatchGeneral(t *testing.T) {
	srv, _, _ := graphServer(t)
	if diff := cmp.Diff(wantDirectArgs, mcpserver.DirectArgs(srv)); diff != "" {
		t.Errorf("tools with a direct argument path (-want +got):\n%s", diff)
	}
	cs := mcptest.Connect(t, srv.Server, "in-memory")
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema argSchema
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		direct := slices.Contains(wantDirectArgs, tool.Name)
		taken := 0
		for _, raw := range argInputs(schema) {
			for _, ceiling := range []visibility.Level{visibility.Public, visibility.Team, visibility.Private} {
				d, ok, g := mcpserver.DecodeArgs(srv, tool.Name, json.RawMessage(raw), ceiling)
				if !ok {
					continue
				}
				taken++
				if !reflect.DeepEqual(g, d) {
					t.Errorf("%s %s at %s: the direct path answers\n%+v\nthe general one\n%+v", tool.Name, raw, ceiling, d, g)
				}
			}
		}
		plain := validArgs(schema)
		_, ok, g := mcpserver.DecodeArgs(srv, tool.Name, json.RawMessage(plain), visibility.Private)
		switch {
		case g.Err != "":
			t.Errorf("%s %s: %s", tool.Name, plain, g.Err)
		case direct && !ok:
			t.Errorf("%s %s: the direct path declined plain arguments", tool.Name, plain)
		case !direct && taken > 0:
			t.Errorf("%s: the direct path answered %d inputs, want none", tool.Name, taken)
		}
	}
}

// FuzzDirectArgs holds find_entity's direct argument path against the
// general one on any input.
func FuzzDirectArgs(f *testing.F) {
	for _, s := range []string{
		``, `null`, ` null `, `{}`, `{"name":"Bourdon"}`, `{"name":"Bourdon","access_level":"team"}`,
		`{"name":"x","access_level":"private","include_private":true,"federation_hop":1}`,
		`{"name":"x","name":"y"}`, `{"name":"a\u00e9\n"}`, "{\"name\":\"\xff\"}", `{"name":1}`,
		`{"name":"x","federation_hop":1e2}`, `{"name":"x","federation_hop":-0}`, `{"name":"x",}`,
		`{"Name":"x"}`, `{"name":"x"} x`, `[]`, `{"name":"x","extra":null}`,
	} {
		f.Add(s, uint8(0))
	}
	lib := mcptest.CopyDir(f, filepath.Join(fixtures, "fed_seed_library"))
	srv, _ := mcptest.NewServer(f, lib, mcpserver.Options{})
	f.Fuzz(func(t *testing.T, raw string, c uint8) {
		ceiling := visibility.Level(c % 3)
		d, ok, g := mcpserver.DecodeArgs(srv, "find_entity", json.RawMessage(raw), ceiling)
		if ok && !reflect.DeepEqual(g, d) {
			t.Errorf("%q at %s: direct %+v, general %+v", raw, ceiling, d, g)
		}
	})
}

// argSchema is what argInputs reads of an input schema.
type argSchema struct {
	Properties map[string]struct {
		Type json.RawMessage `json:"type"`
	} `json:"properties"`
	Required []string `json:"required"`
}

// types returns the JSON types property name admits.
func (s argSchema) types(name string) []string {
	raw := s.Properties[name].Type
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}
	}
	var many []string
	if json.Unmarshal(raw, &many) != nil || len(many) == 0 {
		return []string{""} // no type: an enum
	}
	return many
}

// sample is a valid JSON value for each type.
var sample = map[string]string{
	"string": `"Bourdon"`, "integer": `3`, "boolean": `true`, "null": `null`,
	"array": `[]`, "object": `{}`, "number": `1.5`, "": `"x"`,
}

// values are the values argInputs tries for each property, by its type:
// valid ones and edge cases of every kind.
var values = map[string][]string{
	"string": {`""`, `"x"`, `"public"`, `"team"`, `"private"`, `"PRIVATE"`, `" Team "`, `"bogus"`,
		`"tëst"`, `"a\"b\\c\n"`, `"\u00e9\ud83d\ude00"`, `"\ud800"`, "\"\xff\xfe\"", "\"a\x01\"", `"\/"`, `"\x"`, `"`},
	"integer": {`0`, `3`, `-1`, `-0`, `1.0`, `1e2`, `1.5`, `-`, `01`, `123456789012345`, `-123456789012345`,
		`1234567890123456`, `12345678901234567890`, `1E2`, `3 `},
	"boolean": {`true`, `false`, `tru`, `truex`, `True`},
}

// wrong are values of every JSON type, tried for every property.
var wrong = []string{`null`, `"s"`, `1`, `true`, `[]`, `{}`, `[1`, `nul`}

// validArgs returns an object with every required property set.
func validArgs(s argSchema) string {
	var members []string
	for _, name := range s.Required {
		members = append(members, fmt.Sprintf("%q:%s", name, sample[s.types(name)[len(s.types(name))-1]]))
	}
	return "{" + strings.Join(members, ",") + "}"
}

// argInputs returns the inputs TestDirectArgsMatchGeneral tries on a tool
// with input schema s.
func argInputs(s argSchema) []string {
	base := validArgs(s)
	with := func(members ...string) string {
		if base == "{}" {
			return "{" + strings.Join(members, ",") + "}"
		}
		return base[:len(base)-1] + "," + strings.Join(members, ",") + "}"
	}
	out := []string{
		``, `null`, ` null `, `  `, `[]`, `"x"`, `1`, `{`, `}`, `{}`, ` {} `, `{}x`, `{} {}`, `{,}`,
		base, " " + base + "\n", base + "x", base[:len(base)-1], strings.ReplaceAll(base, ":", " : "),
		with(`"unknown":1`), with(`"unknown":"x"`), with(`"extra":null`),
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range s.Properties {
			if !yield(k) {
				return
			}
		}
	})
	for _, name := range names {
		types := s.types(name)
		var vals []string
		for _, typ := range types {
			vals = append(vals, values[typ]...)
			vals = append(vals, sample[typ])
		}
		vals = append(vals, wrong...)
		for _, v := range vals {
			member := fmt.Sprintf("%q:%s", name, v)
			out = append(out, with(member), "{"+member+"}", with(member, member))
		}
		v := sample[types[len(types)-1]]
		out = append(out,
			with(fmt.Sprintf("%q:%s", strings.ToUpper(name[:1])+name[1:], v)), // another case
			with(fmt.Sprintf(`"\u%04x%s":%s`, name[0], name[1:], v)),          // an escaped key
			with(fmt.Sprintf("%q:%s,%q:%s", name, v, name, sample["string"])), // twice, two values
			with(fmt.Sprintf("%q:%s,", name, v)),                              // a trailing comma
			with(fmt.Sprintf("%q %s", name, v)),                               // no colon
		)
	}
	// The access level against include_private, for the cap.
	if _, ok := s.Properties["access_level"]; ok {
		for _, level := range []string{``, `"public"`, `"team"`, `"private"`, `"Private"`, `"bogus"`} {
			for _, private := range []string{``, `true`, `false`} {
				var members []string
				if level != "" {
					members = append(members, `"access_level":`+level)
				}
				if _, ok := s.Properties["include_private"]; ok && private != "" {
					members = append(members, `"include_private":`+private)
				}
				if len(members) > 0 {
					out = append(out, with(members...))
				}
			}
		}
	}
	return out
}
