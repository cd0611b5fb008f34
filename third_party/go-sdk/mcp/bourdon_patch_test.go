// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// This file belongs to bourdon patch 2 (see ../PATCHES.md): it keeps
// upstream's versions of the patched functions as oracles and checks
// that the patched ones agree with them.

package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	internaljson "github.com/modelcontextprotocol/go-sdk/internal/json"
	"github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// upstreamExtractRequestMeta is extractRequestMeta of go-sdk v1.8.0.
func upstreamExtractRequestMeta(rawParams json.RawMessage) Meta {
	if len(rawParams) == 0 {
		return nil
	}
	var meta struct {
		Meta Meta `json:"_meta"`
	}
	if err := internaljson.Unmarshal(rawParams, &meta); err != nil {
		return nil
	}
	return meta.Meta
}

// upstreamExtractName is the tools/call case of extractName of go-sdk v1.8.0.
func upstreamExtractName(params json.RawMessage) (string, bool) {
	var p CallToolParams
	if err := internaljson.Unmarshal(params, &p); err == nil {
		return p.Name, true
	}
	return "", false
}

// upstreamValidateRequestMeta is validateRequestMeta of go-sdk v1.8.0.
func upstreamValidateRequestMeta(req *jsonrpc.Request) (*validatedMeta, error) {
	// SEP-2575 defines the `_meta` triple for calls only: NotificationParams
	// declares `_meta` optional with no protocolVersion, so a notification
	// neither selects the new protocol nor is discarded for carrying an
	// incomplete triple.
	if !req.IsCall() {
		return &validatedMeta{usesNewProtocol: false, initializeParams: nil}, nil
	}
	meta := upstreamExtractRequestMeta(req.Params)
	if meta == nil {
		return &validatedMeta{usesNewProtocol: false, initializeParams: nil}, nil
	}
	protocolVersion, ok := meta[MetaKeyProtocolVersion].(string)
	if !ok || protocolVersion < protocolVersion20260728 {
		return &validatedMeta{usesNewProtocol: false, initializeParams: nil}, nil
	}
	var clientInfo *Implementation
	if _, present := meta[MetaKeyClientInfo]; present {
		var ok bool
		clientInfo, ok = decodeMetaValue[*Implementation](meta, MetaKeyClientInfo)
		if !ok {
			return nil, &jsonrpc.Error{
				Code:    jsonrpc.CodeInvalidParams,
				Message: fmt.Sprintf("invalid _meta field %q", MetaKeyClientInfo),
			}
		}
	}
	capabilities, ok := decodeMetaValue[*clientCapabilitiesV2](meta, MetaKeyClientCapabilities)
	if !ok {
		return nil, &jsonrpc.Error{
			Code:    jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("missing or invalid _meta field %q", MetaKeyClientCapabilities),
		}
	}
	logLevel, _ := decodeMetaValue[LoggingLevel](meta, MetaKeyLogLevel)
	return &validatedMeta{usesNewProtocol: true, initializeParams: &InitializeParams{
		ProtocolVersion: protocolVersion,
		Capabilities:    capabilities.toV1(),
		ClientInfo:      clientInfo,
	}, logLevel: logLevel}, nil
}

// upstreamMarshalCallToolResult is CallToolResult.MarshalJSON of go-sdk
// v1.8.0, which encodes text content through TextContent.MarshalJSON.
func upstreamMarshalCallToolResult(x *CallToolResult) ([]byte, error) {
	type res CallToolResult // avoid recursion
	type wire struct {
		res
		ResultType    resultType      `json:"resultType,omitempty"`
		InputRequests json.RawMessage `json:"inputRequests,omitempty"` // shadows res.InputRequests
	}
	w := wire{res: res(*x), ResultType: x.resultType}
	if x.InputRequests != nil {
		ir, err := json.Marshal(x.InputRequests)
		if err != nil {
			return nil, err
		}
		w.InputRequests = ir
	}
	return json.Marshal(w)
}

// patchedParams are tools/call params that the patched functions must
// read as upstream's do: well formed, malformed, and the edge cases of
// each _meta value.
var patchedParams = []string{
	``,
	`{}`,
	`null`,
	`[]`,
	`5`,
	`{"name":"t"}`,
	`{"name":"t","arguments":{"a":[1,{"b":null}]}}`,
	`{"name":"t","arguments":[1,2]}`,
	`{"name":"t","arguments":"s"}`,
	`{"name":5}`,
	`{"name":"t","requestState":5}`,
	`{"name":"t","inputResponses":5}`,
	`{"name":"t","_meta":null}`,
	`{"name":"t","_meta":5}`,
	`{"name":"t","_meta":[]}`,
	`{"name":"t","_meta":"s"}`,
	`{"name":"t","_meta":{}}`,
	`{"name":"t","_meta":{"progressToken":1}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/logLevel":"debug"}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":null}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":5}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":null}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":5}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":5,"io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":null}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}`,
	`{"name":"t","_meta":{"IO.MODELCONTEXTPROTOCOL/PROTOCOLVERSION":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"_meta":null}`,
	`{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"`,
}

func TestPatchedMetaAgreesWithUpstream(t *testing.T) {
	for _, in := range patchedParams {
		raw := json.RawMessage(in)
		want, _ := upstreamExtractRequestMeta(raw)[MetaKeyProtocolVersion].(string)
		if got := requestMetaProtocolVersion(raw); got != want {
			t.Errorf("%s: protocol version %q, upstream %q", in, got, want)
		}
		for _, id := range []jsonrpc.ID{{}, mustID(t, "1")} {
			req := &jsonrpc.Request{ID: id, Method: "tools/call", Params: raw}
			got, gotErr := validateRequestMeta(req)
			want, wantErr := upstreamValidateRequestMeta(req)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s (call %v): validateRequestMeta gave %+v, %v; upstream %+v, %v", in, req.IsCall(), got, gotErr, want, wantErr)
			}
		}
	}
}

func TestPatchedExtractNameAgreesWithUpstream(t *testing.T) {
	for _, in := range patchedParams {
		gotName, gotOK := extractName("tools/call", json.RawMessage(in))
		wantName, wantOK := upstreamExtractName(json.RawMessage(in))
		if gotName != wantName || gotOK != wantOK {
			t.Errorf("%s: extractName gave %q, %v; upstream %q, %v", in, gotName, gotOK, wantName, wantOK)
		}
	}
}

func mustID(t *testing.T, v any) jsonrpc.ID {
	t.Helper()
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPatchedCallToolResultAgreesWithUpstream(t *testing.T) {
	text := func(s string) *TextContent { return &TextContent{Text: s} }
	results := []*CallToolResult{
		{},
		{Content: []Content{}},
		{Content: []Content{text("")}},
		{Content: []Content{text(`plain`), text(`<b>&"quotes"\` + "\u2028\u2029\x00\xff" + `</b>`)}},
		{Content: []Content{&TextContent{Text: "t", Meta: Meta{"k": "<v>"}, Annotations: &Annotations{Priority: 0.5}}}},
		{Content: []Content{text("a"), &ImageContent{Data: []byte("png"), MIMEType: "image/png"}, nil}},
		{Meta: Meta{"io.modelcontextprotocol/serverInfo": &Implementation{Name: "s", Version: "1"}}, StructuredContent: json.RawMessage(`{"a":"<b>"}`), Content: []Content{text(`{"a":"<b>"}`)}, IsError: true},
		{Content: []Content{text("x")}, resultType: resultTypeInputRequired, InputRequests: InputRequestMap{}, RequestState: "st"},
		{Content: []Content{text("x")}, StructuredContent: map[string]any{"z": 1, "a": []any{"<"}}, RequestState: "s"},
	}
	// Structured content as raw JSON (patch 10), compact or not, valid or
	// not, with every combination of the fields around it.
	raws := []json.RawMessage{
		nil, json.RawMessage(""), json.RawMessage("null"), json.RawMessage(`"<&>"`),
		json.RawMessage(`{"a":"<b>&amp;</b>","u":"` + "\u2028    â ÿ" + `"}`),
		json.RawMessage(`{"a": 1}`), json.RawMessage(`{"a":1`), json.RawMessage(`[1,{"b":[true,null]},"x"]`),
	}
	for _, raw := range raws {
		for _, around := range []CallToolResult{
			{},
			{Content: []Content{text(`{"a":"<b>"}`)}},
			{Content: []Content{text("t")}, IsError: true},
			{Meta: Meta{"k": "<v>"}, Content: []Content{}, RequestState: "st"},
			{Content: []Content{text("x")}, resultType: resultTypeInputRequired, InputRequests: InputRequestMap{}},
		} {
			r := around
			r.StructuredContent = raw
			results = append(results, &r)
		}
	}
	for i, r := range results {
		got, gotErr := r.MarshalJSON()
		want, wantErr := upstreamMarshalCallToolResult(r)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || string(got) != string(want) {
			t.Errorf("result %d: MarshalJSON gave\n%s, %v\nupstream\n%s, %v", i, got, gotErr, want, wantErr)
		}
	}
}

// TestPatchedCallToolResultWireHasEveryField checks that the patched
// MarshalJSON, which lists the fields of CallToolResult itself, knows
// every field the type has: a field added upstream must be added there.
func TestPatchedCallToolResultWireHasEveryField(t *testing.T) {
	known := map[string]bool{"Meta": true, "Content": true, "StructuredContent": true, "IsError": true,
		"RequestState": true, "InputRequests": true, "resultType": true, "err": true}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[CallToolResult]()) {
		if len(f.Index) == 1 && !known[f.Name] {
			t.Errorf("CallToolResult has a field %s that its patched MarshalJSON does not encode", f.Name)
		}
	}
}

// upstreamUnmarshalParams is how go-sdk v1.8.0 decoded a request's params:
// into a nil pointer, so that segmentio/encoding made every map itself.
// It is the oracle of patch 11.
func upstreamUnmarshalParams[P paramsPtr[T], T any](m json.RawMessage) (Params, error) {
	var p P
	if m != nil {
		if err := internaljson.Unmarshal(m, &p); err != nil {
			return nil, fmt.Errorf("%w: unmarshaling %q into a %T: %w", jsonrpc2.ErrInvalidParams, m, p, err)
		}
	}
	if p == nil {
		return nil, fmt.Errorf("%w: missing required \"params\"", jsonrpc2.ErrInvalidRequest)
	}
	return p, nil
}

func TestPatchedParamsDecodeAgreesWithUpstream(t *testing.T) {
	inputs := append([]string{
		`null`, `{}`, `[]`, `5`, `"s"`, `{"name":"t"}`, `{"_meta":{}}`, `{"_meta":null}`, `{"_meta":5}`, `{"_meta":[]}`,
		`{"_meta":{},"_meta":null}`, `{"_meta":null,"_meta":{}}`, `{"_meta":{"a":1},"_meta":{"b":2}}`,
		`{"name":"t","_meta":{"k":{"n":[1,2]},"progressToken":7}}`, `{"name":"t","arguments":{"_meta":{}}}`,
		`{"_META":{"a":1}}`, `{"name":"t","_meta":{"a":1}`,
	}, patchedParams...)
	check := func(name string, mi methodInfo, upstream func(json.RawMessage) (Params, error)) {
		for _, in := range append([]json.RawMessage{nil}, func() (r []json.RawMessage) {
			for _, s := range inputs {
				r = append(r, json.RawMessage(s))
			}
			return r
		}()...) {
			got, gotErr := mi.unmarshalParams(in)
			want, wantErr := upstream(in)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
				t.Errorf("%s %s: got %#v, %v; upstream %#v, %v", name, in, got, gotErr, want, wantErr)
			}
		}
	}
	check("tools/call", newMethodInfo[*CallToolParamsRaw, *CallToolResult](0), upstreamUnmarshalParams[*CallToolParamsRaw])
	check("initialize", newMethodInfo[*InitializeParams, *InitializeResult](0), upstreamUnmarshalParams[*InitializeParams])
}
