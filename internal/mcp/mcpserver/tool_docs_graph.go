package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/cypher"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// Defaults of get_related (its bounds are knowledge.Related's).
const (
	defaultRelatedMax  = 50
	defaultRelatedDir  = "both"
	defaultRelatedDeep = 1
)

type getRelatedIn struct {
	UID       string   `json:"uid" jsonschema:"The node to start from."`
	EdgeTypes []string `json:"edgeTypes,omitempty" jsonschema:"Follow only these edge types (describe_schema lists them); every type when omitted."`
	Direction string   `json:"direction,omitempty" jsonschema:"out (edges leaving the node), in (edges arriving) or both."`
	Depth     int      `json:"depth,omitempty" jsonschema:"How many edges away to go, 1 to 4."`
	Limit     int      `json:"limit,omitempty" jsonschema:"Most nodes returned, 1 to 500, nearest first."`
	docsAccess
}

type relatedNode struct {
	nodeRef
	// EdgeType, Direction and From say how the node was first reached:
	// by an edge of EdgeType between From and it, leaving From (out) or
	// arriving at From (in).
	EdgeType  graph.EdgeType `json:"edgeType"`
	Direction string         `json:"direction"`
	From      string         `json:"from"`
	Depth     int            `json:"depth"`
}

type getRelatedOut struct {
	UID       string        `json:"uid"`
	Results   []relatedNode `json:"results"`
	Truncated bool          `json:"truncated"`
}

func (s *Server) registerGetRelated() {
	docsTool(s, &mcp.Tool{
		Name:        "get_related",
		Description: "The typed-edge neighbourhood of a node: the nodes reachable over the given edge types and direction, up to depth 4, each with the edge type and direction that reached it, nearest first.",
	}, map[string]any{"direction": defaultRelatedDir, "depth": defaultRelatedDeep, "limit": defaultRelatedMax}, func(ctx context.Context, in getRelatedIn, v view) (getRelatedOut, error) {
		rel, err := v.Related(in.UID, knowledge.RelatedQuery{EdgeTypes: in.EdgeTypes, Direction: in.Direction, Depth: in.Depth, Limit: in.Limit})
		if err != nil {
			return getRelatedOut{}, docsFailure(err)
		}
		out := getRelatedOut{UID: rel.Node.UID, Results: []relatedNode{}, Truncated: rel.Truncated}
		for _, r := range rel.Nodes {
			out.Results = append(out.Results, relatedNode{nodeRef: refOf(r.Node), EdgeType: r.Type, Direction: r.Dir.String(), From: r.From.UID, Depth: r.Depth})
		}
		return out, nil
	})
}

type describeSchemaIn struct {
	Type string `json:"type,omitempty" jsonschema:"One node label to describe (e.g. ADR), with the edges that touch it; the whole vocabulary when omitted."`
}

type describeSchemaOut struct {
	Nodes    []labelWire   `json:"nodes"`
	Edges    []edgeWire    `json:"edges"`
	Monikers []monikerWire `json:"monikers"`
	// URITemplate addresses every node as a resource.
	URITemplate string `json:"uriTemplate"`
	// IntakeForm is the JSON Schema request_intake validates its form
	// against; present when the server serves the request lifecycle.
	IntakeForm map[string]any `json:"intakeForm,omitempty"`
	// Search says which embedder and dimension made the vectors of
	// docs_search; present with a docs corpus.
	Search *searchInfo `json:"search,omitempty"`
}

type searchInfo struct {
	Embedder string `json:"embedder"`
	Dim      int    `json:"dim"`
}

// registerDescribeSchema offers the vocabulary whenever the server has a
// knowledge graph or the request lifecycle (whose intake form it serves).
// The vocabulary is the same for every caller.
func (s *Server) registerDescribeSchema() {
	addTool(s, tool[describeSchemaIn, describeSchemaOut]{
		def: &mcp.Tool{
			Name: "describe_schema",
			Description: "The closed vocabulary of the graph: node labels with their required attributes, the typed edges, and the monikers (product versions); with the request lifecycle, the intake form's JSON Schema too. " +
				"Call it first to plan get_related and query_graph calls.",
		},
		kind:   redact.Prose,
		handle: s.describeSchema,
	})
}

// describeSchema answers describe_schema: the vocabulary, or one label of
// it with the edges that touch it.
func (s *Server) describeSchema(ctx context.Context, _ call, in describeSchemaIn) (describeSchemaOut, error) {
	nodes, edges, monikers := graph.Labels(), graph.Edges(), []graph.Moniker{}
	out := describeSchemaOut{URITemplate: graph.URIScheme + "{type}/{uid}"}
	if s.opts.Knowledge != nil {
		snap := s.opts.Knowledge.Current()
		if m := snap.Graph.Monikers(); m != nil {
			monikers = m
		}
		name, dim := snap.Index.Embedder()
		out.Search = &searchInfo{Embedder: name, Dim: dim}
	}
	if s.opts.Requests != nil {
		if err := json.Unmarshal(requests.IntakeSchema(), &out.IntakeForm); err != nil {
			return out, err
		}
	}
	if in.Type != "" {
		spec, err := graph.ParseLabel(in.Type)
		if err != nil {
			return out, err
		}
		nodes, edges = []graph.LabelSpec{spec}, graph.EdgesTouching(spec.Label)
	}
	out.Nodes, out.Edges, out.Monikers = wireList(nodes, labelOf), wireList(edges, edgeOf), wireList(monikers, monikerOf)
	return out, nil
}

type queryGraphIn struct {
	Pattern string         `json:"pattern" jsonschema:"A read-only openCypher query: MATCH / OPTIONAL MATCH ... WHERE ... RETURN [DISTINCT] ... ORDER BY ... SKIP ... LIMIT. Edge types and labels from describe_schema; variable length as *1..4 at most."`
	Params  map[string]any `json:"params,omitempty" jsonschema:"Values of the $parameters of the pattern, by name."`
	Limit   int            `json:"limit,omitempty" jsonschema:"Most rows returned, 1 to 1000; truncated says when there were more."`
	docsAccess
}

func (s *Server) registerQueryGraph() {
	docsTool(s, &mcp.Tool{
		Name: "query_graph",
		Description: "A bounded, read-only query of the property graph in an openCypher subset. Writes, procedure calls, unknown labels or edge types, unbounded or deeper than 4 variable-length paths are refused; " +
			"rows are capped (100 by default, 1000 at most, with truncated), and a query that runs over 250 ms or its expansion budget, or whose rows come to more than 1 MiB of JSON, fails with an error saying how to narrow it.",
	}, map[string]any{"limit": cypher.DefaultLimit}, func(ctx context.Context, in queryGraphIn, v view) (*cypher.Result, error) {
		return v.Query(ctx, in.Pattern, in.Params, in.Limit)
	})
}
