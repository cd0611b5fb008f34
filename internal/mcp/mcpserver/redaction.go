package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Redaction: what each surface of the server does with credential-like
// text, in one place. The rules themselves are package redact's; this file
// says which applies where (docs/security.md, "Redaction").
//
//   - Tool results: every string of the payload and of its _meta, by the
//     tool's kind. The agent-memory tools are Field surfaces (the
//     reference's contract: a value that holds anything the battery flags
//     is replaced whole); the documentation and request tools are Prose
//     surfaces (only the credential is replaced). Top-level values that
//     echo the caller's own arguments are Prose on every tool
//     (redactResult).
//   - Tool errors and JSON-RPC errors: Prose (errorResult, redactProtocol).
//   - Resources: the memory resources are Field, the graph's node
//     resources Prose (jsonResource); resources/list entries likewise, and
//     an entry whose URI would show a credential is not listed
//     (redactProtocol).
//   - Completions: a name that is a credential as a field is left out, not
//     shown as the sentinel (complete).
//   - Notifications: Prose (redactNotifications).
//
// The graph's memory nodes carry their agent's rows already redacted as
// fields, with uids that never spell a flagged name (package knowledge), so
// a query cannot find or show what the memory tools would not.

// redactResult redacts the JSON of a tool result of the given kind;
// echoes are the call's top-level string arguments (decodeArgs), which
// are redacted as prose.
func redactResult(kind redact.Kind, echoes map[string]string, b []byte) []byte {
	return redact.JSONAs(b, kind, echoes)
}

// redactResultMeta redacts the _meta of a tool result of the given kind
// (prepare_recognition_context names entities there).
func redactResultMeta(kind redact.Kind, meta mcp.Meta) mcp.Meta {
	if meta == nil {
		return nil
	}
	b, err := json.Marshal(meta)
	if err != nil {
		return nil
	}
	red := redact.JSONAs(b, kind, nil)
	if &red[0] == &b[0] {
		return meta
	}
	var out mcp.Meta
	if json.Unmarshal(red, &out) != nil {
		return nil
	}
	return out
}

// errorText redacts the text of an error, and of anything else that may
// quote a URI the caller sent: as prose, percent-encoding included.
func errorText(s string) string { return redact.URI(s) }

// errorResult is a tool error whose text says what went wrong, redacted
// (errorText).
func errorResult(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: errorText(err.Error())}}}
}

// jsonResource answers a resource read with the JSON of v, redacted as a
// surface of the given kind, and the URI it was read by as an error text
// (it is the caller's, and may be percent-encoded).
func jsonResource(uri string, kind redact.Kind, v any) (*mcp.ReadResourceResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	b = redact.JSONAs(b, kind, nil)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: errorText(uri), MIMEType: "application/json", Text: string(b)}}}, nil
}

// resourceKind is the kind of a listed resource: the memory resources
// hold agent memory, everything else is documentation.
func resourceKind(uri string) redact.Kind {
	if strings.HasPrefix(uri, agentMemoryPrefix) || strings.HasPrefix(uri, entityPrefix) || uri == agentsURI {
		return redact.Field
	}
	return redact.Prose
}

// completable reports whether a value may be offered as a completion: not
// when the battery flags it as a field.
func completable(v string) bool { return !redact.Flagged(v) }

// redactProtocol is the receiving middleware that redacts what the other
// surfaces do not shape themselves: the text of every JSON-RPC error, as
// prose, and the entries of resources/list.
func (s *Server) redactProtocol(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, redactError(err)
		}
		if list, ok := res.(*mcp.ListResourcesResult); ok {
			return redactList(list), nil
		}
		return res, nil
	}
}

// redactError returns err with its message and data redacted
// (errorText), keeping its JSON-RPC code as the SDK would; err itself when
// nothing needs redacting.
func redactError(err error) error {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && err == error(wire) {
		msg, data := errorText(wire.Message), redactData(wire.Data)
		if msg == wire.Message && string(data) == string(wire.Data) {
			return err
		}
		return &jsonrpc.Error{Code: wire.Code, Message: msg, Data: data}
	}
	msg := err.Error()
	red := errorText(msg)
	if red == msg {
		return err
	}
	e := &jsonrpc.Error{Message: red}
	if wire != nil {
		e.Code = wire.Code // the SDK keeps a wrapped error's code, and the outer message
	}
	return e
}

// redactData redacts every string of an error's JSON data (errorText).
func redactData(data json.RawMessage) json.RawMessage {
	if len(data) == 0 {
		return data
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return data
	}
	changed := false
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if r := errorText(x); r != x {
				changed = true
				return r
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		case map[string]any:
			for k, e := range x {
				x[k] = walk(e)
			}
		}
		return v
	}
	v = walk(v)
	if !changed {
		return data
	}
	b, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return b
}

// redactList redacts the entries of a resources/list page: names, titles,
// descriptions and string metadata by the entry's kind. An entry whose URI
// would show a credential is left out; it can still be read by a caller who
// knows it.
func redactList(list *mcp.ListResourcesResult) *mcp.ListResourcesResult {
	out := *list
	out.Resources = make([]*mcp.Resource, 0, len(list.Resources))
	for _, r := range list.Resources {
		k := resourceKind(r.URI)
		if !listable(r.URI, k) {
			continue
		}
		red := *r
		red.Name, red.Title, red.Description = k.Apply(r.Name), k.Apply(r.Title), k.Apply(r.Description)
		red.Meta, _ = redactMeta(k, r.Meta)
		out.Resources = append(out.Resources, &red)
	}
	return &out
}

// listable reports whether a resource of kind k may be listed under uri:
// whether its text, percent-decoded, needs no redaction.
func listable(uri string, k redact.Kind) bool {
	dec, err := url.PathUnescape(uri)
	if err != nil {
		dec = uri
	}
	return k.Apply(dec) == dec
}

// redactMeta returns meta with its string values (and lists of strings)
// redacted as kind, and whether any changed; meta itself when none did.
func redactMeta(k redact.Kind, meta mcp.Meta) (mcp.Meta, bool) {
	var out mcp.Meta
	for key, v := range meta {
		var red any
		switch x := v.(type) {
		case string:
			if r := k.Apply(x); r != x {
				red = r
			}
		case []string:
			for i, e := range x {
				if r := k.Apply(e); r != e {
					l := append([]string(nil), x...)
					l[i] = r
					for j := i + 1; j < len(l); j++ {
						l[j] = k.Apply(l[j])
					}
					red = l
					break
				}
			}
		}
		if red == nil {
			continue
		}
		if out == nil {
			out = make(mcp.Meta, len(meta))
			for k, v := range meta {
				out[k] = v
			}
		}
		out[key] = red
	}
	if out == nil {
		return meta, false
	}
	return out, true
}

// redactNotifications is the sending middleware that redacts the text of
// every notification the server sends, as prose: the URIs and metadata of
// resources/updated, the message of progress notifications and the data
// of log messages.
func (s *Server) redactNotifications(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch r := req.(type) {
		case *mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]:
			if p := r.Params; p != nil {
				red := *p
				var changed bool
				red.URI = errorText(p.URI)
				red.Meta, changed = redactMeta(redact.Prose, p.Meta)
				if changed || red.URI != p.URI {
					req = &mcp.ServerRequest[*mcp.ResourceUpdatedNotificationParams]{Session: r.Session, Params: &red, Extra: r.Extra}
				}
			}
		case *mcp.ServerRequest[*mcp.ProgressNotificationParams]:
			if p := r.Params; p != nil && redact.Span(p.Message) != p.Message {
				red := *p
				red.Message = redact.Span(p.Message)
				req = &mcp.ServerRequest[*mcp.ProgressNotificationParams]{Session: r.Session, Params: &red, Extra: r.Extra}
			}
		case *mcp.ServerRequest[*mcp.LoggingMessageParams]:
			if p := r.Params; p != nil {
				if b, err := json.Marshal(p.Data); err == nil {
					if red := redact.JSONAs(b, redact.Prose, nil); string(red) != string(b) {
						c := *p
						c.Data = json.RawMessage(red)
						req = &mcp.ServerRequest[*mcp.LoggingMessageParams]{Session: r.Session, Params: &c, Extra: r.Extra}
					}
				}
			}
		}
		return next(ctx, method, req)
	}
}
