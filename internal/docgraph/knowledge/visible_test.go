package knowledge_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/cypher"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// onlyClaude is a quarantined reader granted the claude-code agent.
var onlyClaude federation.Reader = func(agent string) bool { return agent == "claude-code" }

func TestVisible(t *testing.T) {
	t.Parallel()
	s := newFixture(t).open(t).Current()
	uids := []string{
		"bourdon.agent.claude-code",
		"bourdon.agent.codex",
		"bourdon.entity.claude-code.bourdon",           // public
		"bourdon.entity.claude-code.roadmap",           // team
		"bourdon.entity.claude-code.quarterly-revenue", // private
		"bourdon.entity.codex.secretproj",              // public, another agent
		"bourdon.entity.librarian.leak",                // confidential: private
		"cogitave.learn.docs.authoring-guide",          // internal
		pinDoc,                                         // public
	}
	cases := []struct {
		name   string
		viewer knowledge.Viewer
		want   string // one letter per uid: y visible, n hidden
	}{
		{"public", knowledge.Viewer{Level: visibility.Public}, "yyynnynny"},
		{"team", knowledge.Viewer{Level: visibility.Team}, "yyyynynyy"},
		{"private", knowledge.Viewer{Level: visibility.Private}, "yyyyyyyyy"},
		{"quarantined public", knowledge.Viewer{Level: visibility.Public, Reader: onlyClaude}, "ynynnnnny"},
		{"quarantined private", knowledge.Viewer{Level: visibility.Private, Reader: onlyClaude}, "ynyyynnyy"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			visible := s.Visible(tc.viewer)
			got := make([]byte, len(uids))
			for i, uid := range uids {
				id, ok := s.Graph.Lookup(uid)
				if !ok {
					t.Fatalf("no node %s", uid)
				}
				got[i] = 'n'
				if visible(id) {
					got[i] = 'y'
				}
			}
			if string(got) != tc.want {
				t.Errorf("got %s, want %s for %v", got, tc.want, uids)
			}
			if visible(-1) || visible(graph.NodeID(s.Graph.Len())) {
				t.Error("a NodeID outside the graph is visible")
			}
		})
	}
}

func TestCypherAcrossMemoryAndDocs(t *testing.T) {
	t.Parallel()
	s := newFixture(t).open(t).Current()
	const src = "MATCH (e:Entity)-[:xref]->(d) RETURN e.title, d.uid ORDER BY e.title"
	cases := []struct {
		name   string
		viewer knowledge.Viewer
		want   string
	}{
		{"public", knowledge.Viewer{Level: visibility.Public}, `[["Pin a Namzu release","` + pinDoc + `"]]`},
		{"private", knowledge.Viewer{Level: visibility.Private}, `[["Namzu pinning","` + pinDoc + `"],["Pin a Namzu release","` + pinDoc + `"]]`},
		{"another agent's reader", knowledge.Viewer{Level: visibility.Private, Reader: onlyClaude}, `[]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := cypher.Run(context.Background(), s.Graph, src, nil, cypher.Options{Visible: s.Visible(tc.viewer)})
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsJSON(t, res.Rows); got != tc.want {
				t.Errorf("got %s\nwant %s", got, tc.want)
			}
		})
	}
	// A walk from a document back through an entity to its agent stops at
	// what the caller may not see.
	const walk = "MATCH (d {uid: $uid})<-[:xref]-(e)-[:derivedFrom]->(a:Agent) RETURN DISTINCT a.title"
	res, err := cypher.Run(context.Background(), s.Graph, walk, map[string]any{"uid": pinDoc}, cypher.Options{Visible: s.Visible(knowledge.Viewer{Level: visibility.Private, Reader: onlyClaude})})
	if err != nil {
		t.Fatal(err)
	}
	if got := rowsJSON(t, res.Rows); got != `[]` {
		t.Errorf("walk for claude-code's reader: %s, want []", got)
	}
}

func TestNeighbourhoodHidesMemory(t *testing.T) {
	t.Parallel()
	s := newFixture(t).open(t).Current()
	start, _ := s.Graph.Lookup("bourdon.agent.librarian")
	reach := func(v knowledge.Viewer) []string {
		rs, err := graph.NeighbourhoodFunc(s.Graph, start, []graph.EdgeType{graph.DerivedFrom, graph.Xref}, graph.Both, 2, 0, s.Visible(v))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			if r.Depth == 2 {
				out = append(out, s.Graph.Node(r.Node).UID)
			}
		}
		return out
	}
	// The document is reached through the public entity, and through the
	// private one only when the caller may see it.
	if got := reach(knowledge.Viewer{Level: visibility.Public}); !slices.Equal(got, []string{pinDoc}) {
		t.Errorf("public: depth 2 %v, want [%s]", got, pinDoc)
	}
	private, _ := s.Graph.Lookup("bourdon.entity.librarian.namzu-pinning")
	rs, err := graph.NeighbourhoodFunc(s.Graph, private, nil, graph.Both, 1, 0, s.Visible(knowledge.Viewer{Level: visibility.Public}))
	if err == nil {
		t.Errorf("a walk from a hidden node reached %d nodes, want an error", len(rs))
	}
	if _, err := graph.NeighbourhoodFunc(s.Graph, start, nil, graph.Both, 1, 0, s.Visible(knowledge.Viewer{Reader: onlyClaude})); err == nil {
		t.Error("a walk from an agent the reader may not read succeeded")
	}
}

// rowsJSON renders rows as compact JSON.
func rowsJSON(t *testing.T, rows [][]any) string {
	t.Helper()
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
