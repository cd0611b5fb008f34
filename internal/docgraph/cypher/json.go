package cypher

import "github.com/getbourdon/bourdon-go/internal/docgraph/graph"

// toJSON converts a query value to the JSON-ready value of a result:
// nodes become {"uid", "label", "properties"} and relationships {"type",
// "from", "to"} with the uids of their ends. Lists and maps are copied.
func toJSON(g *graph.Graph, v any) any {
	switch v := v.(type) {
	case nodeVal:
		return nodeJSON(g, graph.NodeID(v))
	case edgeRef:
		return map[string]any{"type": string(v.typ), "from": g.Node(v.from).UID, "to": g.Node(v.to).UID}
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = toJSON(g, e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = toJSON(g, e)
		}
		return out
	}
	return v
}

// nodeJSON is a node in a result: {"uid", "label", "properties"}.
func nodeJSON(g *graph.Graph, id graph.NodeID) map[string]any {
	n := g.Node(id)
	props := make(map[string]any, len(n.Props))
	for k, v := range n.Props {
		props[k] = toJSON(g, propValue(v))
	}
	return map[string]any{"uid": n.UID, "label": string(n.Label), "properties": props}
}

// jsonSize returns the size of a toJSON value encoded as JSON by
// encoding/json, close enough to bound a result: exact for strings
// (escapes included), a little over for numbers.
func jsonSize(v any) int {
	switch v := v.(type) {
	case nil:
		return 4
	case bool:
		return 5
	case string:
		return quotedSize(v)
	case []any:
		n := 2
		for _, e := range v {
			n += jsonSize(e) + 1
		}
		return n
	case map[string]any:
		n := 2
		for k, e := range v {
			n += quotedSize(k) + jsonSize(e) + 2
		}
		return n
	case []string:
		n := 2
		for _, e := range v {
			n += quotedSize(e) + 1
		}
		return n
	}
	return 24 // a number
}

// quotedSize is the length of s as a JSON string: encoding/json writes
// control characters and <, >, & as six-byte escapes.
func quotedSize(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			n++
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += 5
		}
	}
	return n
}
