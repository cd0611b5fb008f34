package cypher

import (
	"context"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// TestVisible runs queries over testGraph with some nodes hidden: they
// are never matched, never walked through and never returned.
func TestVisible(t *testing.T) {
	g := testGraph(t)
	hide := func(uids ...string) func(graph.NodeID) bool {
		hidden := map[graph.NodeID]bool{}
		for _, uid := range uids {
			id, ok := g.Lookup(uid)
			if !ok {
				t.Fatalf("no node %s", uid)
			}
			hidden[id] = true
		}
		return func(id graph.NodeID) bool { return !hidden[id] }
	}
	cases := []struct {
		name   string
		hidden []string
		src    string
		want   string
	}{
		{"label scan", []string{"m1"}, "MATCH (m:Module) RETURN m.uid", `[["m2"]]`},
		{"full scan", []string{"a", "b", "c", "d", "e"}, "MATCH (n) WHERE n:Service RETURN n.uid", `[["f"]]`},
		{"by uid", []string{"m1"}, "MATCH (m {uid: 'm1'}) RETURN m.uid", `[]`},
		{"by id()", []string{"m1"}, "MATCH (m) WHERE id(m) = 'm1' RETURN m.uid", `[]`},
		{"by uid list", []string{"m1"}, "MATCH (m) WHERE m.uid IN ['m2', 'm1'] RETURN m.uid", `[["m2"]]`},
		{"not reached", []string{"m1"}, "MATCH (u:Unit)-[:partOf]->(m) RETURN u.uid, m.uid", `[["u3","m2"]]`},
		{"not walked through", []string{"c"}, "MATCH ({uid: 'a'})-[:dependsOn*1..4]->(x) RETURN x.uid", `[["b"]]`},
		{"not walked through backwards", []string{"b"}, "MATCH (x)-[:dependsOn*1..4]->({uid: 'd'}) RETURN x.uid", `[["c"]]`},
		{"relationships to hidden nodes", []string{"st2", "repo1"}, "MATCH ({uid: 'st1'})-[r]-(x) RETURN type(r), x.uid", `[["xref","u1"]]`},
		{"optional match", []string{"dev"}, "MATCH (m:Module) OPTIONAL MATCH (m)-[:forRole]->(r) RETURN m.uid, r.uid", `[["m1",null],["m2","ops"]]`},
		{"count", []string{"u1", "u2"}, "MATCH (u:Unit) RETURN count(*)", `[[1]]`},
		{"nothing hidden", nil, "MATCH (m:Module) RETURN m.uid", `[["m1"],["m2"]]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), g, tc.src, nil, Options{Visible: hide(tc.hidden...)})
			if err != nil {
				t.Fatal(err)
			}
			if got := rowsJSON(t, res.Rows); got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.src, got, tc.want)
			}
		})
	}
}

// TestVisibleNilSeesAll checks that a nil Visible is the default.
func TestVisibleNilSeesAll(t *testing.T) {
	g := testGraph(t)
	all := run(t, g, "MATCH (n) RETURN count(*)", nil)
	res, err := Run(context.Background(), g, "MATCH (n) RETURN count(*)", nil, Options{Visible: func(graph.NodeID) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rowsJSON(t, res.Rows), rowsJSON(t, all.Rows); got != want || want != `[[21]]` {
		t.Errorf("count with every node visible = %s, with nil = %s, want [[21]]", got, want)
	}
}

// TestVisibleStats checks that Stats.Expanded does not count the work
// spent on hidden nodes, so that it tells nothing about them.
func TestVisibleStats(t *testing.T) {
	g := testGraph(t)
	u1, _ := g.Lookup("u1")
	m1, _ := g.Lookup("m1")
	cases := []struct {
		name   string
		hidden graph.NodeID
		src    string
		want   int
	}{
		{"a hidden uid is like a missing one", m1, "MATCH (m {uid: 'm1'}) RETURN m.uid", 0},
		{"edges to a hidden node", u1, "MATCH ({uid: 'm1'})-[:partOf]-(x) RETURN x.uid", 1 + 6},
		{"nothing hidden", -1, "MATCH ({uid: 'm1'})-[:partOf]-(x) RETURN x.uid", 1 + 7},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), g, tc.src, nil, Options{Visible: func(id graph.NodeID) bool { return id != tc.hidden }})
			if err != nil {
				t.Fatal(err)
			}
			if res.Stats.Expanded != tc.want {
				t.Errorf("expanded %d, want %d", res.Stats.Expanded, tc.want)
			}
		})
	}
}
