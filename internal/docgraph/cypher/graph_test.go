package cypher

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// testGraph is a small corpus:
//
//	learning path p1 <-partOf- modules m1, m2; m2 -dependsOn-> m1
//	units u1, u2 -partOf-> m1; u3 -partOf-> m2; u1 -xref-> st1
//	m1 -teachesSkill-> s1; m2 -teachesSkill-> s2; s2 -dependsOn-> s1
//	m1, p1 -forRole-> dev; m2 -forRole-> ops
//	standards st1, st2 -appliesTo-> repo1; st1 -supersededBy-> st2
//	services a -> b -> c -> d -> e -> f, all dependsOn
//	docs d2 -xref-> d1 -xref-> m1; d1 -xref-> a
func testGraph(t testing.TB) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder()
	modified := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	nodes := []graph.Node{
		{UID: "p1", Label: graph.LearningPath, Props: map[string]any{"title": "Graph path", "products": []any{"core"}, "level": "beginner"}},
		{UID: "m1", Label: graph.Module, Props: map[string]any{"title": "Intro to graphs", "products": []any{"core"}, "level": "beginner", "order": 1.0}},
		{UID: "m2", Label: graph.Module, Props: map[string]any{"title": "Advanced graphs", "products": []any{"core", "learn"}, "level": "advanced", "order": 2.0}},
		{UID: "u1", Label: graph.Unit, Props: map[string]any{"title": "Nodes", "module": "m1"}},
		{UID: "u2", Label: graph.Unit, Props: map[string]any{"title": "Edges", "module": "m1"}},
		{UID: "u3", Label: graph.Unit, Props: map[string]any{"title": "Paths", "module": "m2"}},
		{UID: "s1", Label: graph.Skill, Props: map[string]any{"title": "Modelling"}},
		{UID: "s2", Label: graph.Skill, Props: map[string]any{"title": "Querying"}},
		{UID: "dev", Label: graph.Role, Props: map[string]any{"title": "Developer"}},
		{UID: "ops", Label: graph.Role, Props: map[string]any{"title": "Operator"}},
		{UID: "st1", Label: graph.Standard, Props: map[string]any{"title": "Old naming"}},
		{UID: "st2", Label: graph.Standard, Props: map[string]any{"title": "Naming"}},
		{UID: "repo1", Label: graph.Repo, Props: map[string]any{"title": "core"}},
		{UID: "d1", Label: graph.Doc, Props: map[string]any{"title": "Graph reference", "level": "advanced", "tags": []string{"graph", "ref"}}, LastModified: modified},
		{UID: "d2", Label: graph.Doc, Props: map[string]any{"title": "Getting started", "level": "beginner", "draft": nil}},
	}
	for _, s := range []string{"a", "b", "c", "d", "e", "f"} {
		nodes = append(nodes, graph.Node{UID: s, Label: graph.Service, Props: map[string]any{"title": "Service " + s}})
	}
	for _, n := range nodes {
		if _, err := b.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	edges := []struct {
		from, to string
		t        graph.EdgeType
	}{
		{"m1", "p1", graph.PartOf}, {"m2", "p1", graph.PartOf}, {"m2", "m1", graph.DependsOn},
		{"u1", "m1", graph.PartOf}, {"u2", "m1", graph.PartOf}, {"u3", "m2", graph.PartOf}, {"u1", "st1", graph.Xref},
		{"m1", "s1", graph.TeachesSkill}, {"m2", "s2", graph.TeachesSkill}, {"s2", "s1", graph.DependsOn},
		{"m1", "dev", graph.ForRole}, {"p1", "dev", graph.ForRole}, {"m2", "ops", graph.ForRole},
		{"st1", "repo1", graph.AppliesTo}, {"st2", "repo1", graph.AppliesTo}, {"st1", "st2", graph.SupersededBy},
		{"a", "b", graph.DependsOn}, {"b", "c", graph.DependsOn}, {"c", "d", graph.DependsOn}, {"d", "e", graph.DependsOn}, {"e", "f", graph.DependsOn},
		{"d2", "d1", graph.Xref}, {"d1", "m1", graph.Xref}, {"d1", "a", graph.Xref},
	}
	for _, e := range edges {
		if err := b.AddEdge(e.from, e.to, e.t, 0); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// run runs a query with default options and fails the test on an error.
func run(t *testing.T, g *graph.Graph, src string, params map[string]any) *Result {
	t.Helper()
	res, err := Run(context.Background(), g, src, params, Options{})
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return res
}

// rowsJSON renders rows as JSON, one compact array per row.
func rowsJSON(t *testing.T, rows [][]any) string {
	t.Helper()
	b, err := json.Marshal(rows)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kindOf returns the Kind of an *Error, or "" for any other error.
func kindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return ""
}
