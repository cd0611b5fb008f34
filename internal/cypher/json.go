package cypher

import "github.com/getbourdon/bourdon-go/internal/graph"

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
