package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/platform/warm"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// tool declares one tool of the server: everything addTool needs to offer
// it and to take every call through the access step.
type tool[In, Out any] struct {
	// def is the tool as listed: its name, which is also its operation in
	// the access rules (trust.Decide), description and annotations, and an
	// input schema when In does not give it (one served elsewhere too).
	def *mcp.Tool
	// kind is how the tool's results are redacted (redaction.go); the zero
	// value, Field, is the agent-memory tools' contract.
	kind redact.Kind
	// defaults are written into the input schema and applied to every
	// call before validation.
	defaults map[string]any
	// namespace returns the namespace a call names, from its arguments;
	// nil for a tool whose calls name none.
	namespace func(In) string
	// refused, when set, answers a denied call with a tool error instead
	// of the denial payload; a nil error keeps the denial.
	refused func(In) error
	// handle answers an allowed call. It may answer with another payload
	// than Out by returning inBand.
	handle func(context.Context, call, In) (Out, error)
	// alts are the schemas of the payloads besides Out and the denial that
	// handle answers with through inBand.
	alts []*jsonschema.Schema
	// memoized, when set, says whether the answer to an allowed call whose
	// reads are not filtered may be kept in the server's memo (memo.go)
	// and given again to the same arguments until the library changes.
	// Set it only for a tool whose answer is then a function of its
	// arguments and the library alone: no clock, no peers, no other
	// source.
	memoized func(trust.Decision, In) bool
}

// call is what the access step hands a handler: the decision that allowed
// the call (the caller, the staging and filtering it implies) and the
// request, for progress notifications.
type call struct {
	d   trust.Decision
	req *mcp.CallToolRequest
}

// addTool offers t. The input schema is t.def.InputSchema when set, else
// inferred from In, with t.defaults written into it; the output schema is
// inferred from Out, and also admits the denial and t.alts.
//
// Every call goes through the same steps: decode the arguments, apply the
// defaults and validate them against the input schema (a failure is a tool
// error saying what is wrong, as the SDK would say it), cap the access
// level at the caller's (capAccess); decide whether the caller may call
// the tool on the namespace it names, and audit the decision (decide); answer
// a refusal with the reference's denial payload; run the handler only for
// an allowed call; redact the payload as t.kind; marshal it once into both
// structuredContent and the text content. So no tool can reach the library
// without a decision, or answer unredacted.
//
// Outputs are not re-validated on every call, which costs a third of the
// server's CPU; tests validate every tool result against its output schema
// instead (see internal/testkit/mcptest).
func addTool[In, Out any](s *Server, t tool[In, Out]) {
	def := t.def
	in, _ := def.InputSchema.(*jsonschema.Schema)
	var err error
	if in == nil {
		if in, err = jsonschema.For[In](nil); err != nil {
			panic(fmt.Sprintf("tool %s: %v", def.Name, err))
		}
	}
	for name, v := range t.defaults {
		prop, ok := in.Properties[name]
		if !ok {
			panic(fmt.Sprintf("tool %s: default for unknown argument %s", def.Name, name))
		}
		raw, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		prop.Default = raw
	}
	resolved, err := in.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", def.Name, err))
	}
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", def.Name, err))
	}
	// The schemas are offered as their JSON, encoded once: a
	// *jsonschema.Schema is encoded by reflection over the whole schema
	// on every tools/list (and, in the go-sdk as published, on every
	// tools/call, which third_party/go-sdk's patch 8 removes). The bytes
	// listed are the same.
	def.InputSchema = rawSchema(in)
	// A call may also be refused, and the refusal is a normal result.
	def.OutputSchema = rawSchema(&jsonschema.Schema{Type: "object", AnyOf: append([]*jsonschema.Schema{out, denialSchema}, t.alts...)})
	if def.Annotations == nil {
		def.Annotations = readOnly
	}
	s.offer(def.Name)
	args := newArgDecoder[In](in, resolved)
	handler := func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		// On a kept goroutine, whose stack the argument validation and
		// the encoding have grown already (package warm).
		warm.Run(func() { res, err = callTool(ctx, s, t, args, req) })
		return res, err
	}
	s.tools[def.Name] = offered{args: args, handler: handler}
	s.AddTool(def, handler)
}

// callTool takes one call of tool t (its arguments read by dec) through
// the access step and answers it.
func callTool[In, Out any](ctx context.Context, s *Server, t tool[In, Out], dec *argDecoder, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	caller := callerOf(req.Extra)
	var args In
	var echoes map[string]string
	// A call of a memoized tool is looked up in the memo first; a kept
	// answer also holds the decoded arguments.
	var (
		version uint64
		keyBuf  [memoMaxArgs + 64]byte
		key     []byte
		kept    []byte
	)
	if raw := req.Params.Arguments; t.memoized != nil && len(raw) <= memoMaxArgs {
		version = s.store.Version()
		key = memoKey(keyBuf[:0], t.def.Name, caller.MaxAccess(), raw)
		if e, ok := s.memo.get(version, key); ok {
			args, kept = e.args.(In), e.payload
		}
	}
	if kept == nil {
		var err error
		if echoes, err = dec.decode(req.Params.Arguments, caller.MaxAccess(), &args); err != nil {
			return errorResult(err), nil
		}
	}
	namespace := ""
	if t.namespace != nil {
		namespace = t.namespace(args)
	}
	d := s.decide(caller, t.def.Name, namespace)
	memoizable := key != nil && d.Allowed && !d.Filter && t.memoized(d, args)
	if kept != nil {
		if memoizable {
			return textResult(nil, kept), nil
		}
		// Kept for a call decided otherwise: answered anew, with the
		// echoes of its arguments.
		args = *new(In)
		var err error
		if echoes, err = dec.decode(req.Params.Arguments, caller.MaxAccess(), &args); err != nil {
			return errorResult(err), nil
		}
	}
	var payload any
	if !d.Allowed {
		if t.refused != nil {
			if err := t.refused(args); err != nil {
				return errorResult(err), nil
			}
		}
		payload = d.Denial()
	} else {
		out, err := t.handle(ctx, call{d: d, req: req}, args)
		var other inBand
		switch {
		case errors.As(err, &other):
			payload = other.payload
		case err != nil:
			return errorResult(err), nil
		default:
			payload = out
		}
	}
	b, err := encodePayload(payload)
	if err != nil {
		return nil, fmt.Errorf("encoding the %s result: %w", t.def.Name, err)
	}
	b = redactResult(t.kind, echoes, b) // every result, so no read surface can forget it
	var meta mcp.Meta
	if m, ok := payload.(interface{ resultMeta() mcp.Meta }); ok {
		meta = redactResultMeta(t.kind, m.resultMeta())
	}
	if _, isOut := payload.(Out); memoizable && isOut && meta == nil {
		s.memo.put(version, key, memoEntry{args: args, payload: b})
	}
	return textResult(meta, b), nil
}

// textResult answers with payload b, as structuredContent and as the one
// text content. Both share b's bytes, which nothing writes to from here
// on (a memo entry's are answered to many calls): a copy of every payload
// was a tenth of a call's allocation.
func textResult(meta mcp.Meta, b []byte) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Meta:              meta,
		StructuredContent: json.RawMessage(b),
		Content:           []mcp.Content{&mcp.TextContent{Text: unsafe.String(unsafe.SliceData(b), len(b))}},
	}
}

// rawSchema returns the JSON of a schema.
func rawSchema(s *jsonschema.Schema) json.RawMessage {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return b
}

// readOnly marks a tool that changes nothing and talks to no one else.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(false)}

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

// schemaOf infers the JSON Schema of T (for the alternative payloads of a
// tool).
func schemaOf[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err)
	}
	return s
}
