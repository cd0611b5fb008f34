package graph

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestBuildAdjacencyBothWays(t *testing.T) {
	b := NewBuilder()
	for _, n := range []Node{
		{UID: "m", Label: Module, Props: map[string]any{"title": "M"}},
		{UID: "u1", Label: Unit},
		{UID: "u2", Label: Unit},
	} {
		if _, err := b.AddNode(n); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range []string{"u1", "u2", "u1"} {
		if err := b.AddEdge(u, "m", PartOf, 0); err != nil {
			t.Fatal(err)
		}
	}
	g := b.Build()
	if g.Len() != 3 || g.EdgeCount() != 2 {
		t.Fatalf("len %d edges %d, want 3 and 2 (duplicate edge kept once)", g.Len(), g.EdgeCount())
	}
	m, _ := g.Lookup("m")
	in := g.In(m)
	if len(in) != 2 || in[0].Type != PartOf || in[0].Weight != 1 {
		t.Fatalf("in(m) = %+v", in)
	}
	u1, _ := g.Lookup("u1")
	if out := g.Out(u1); len(out) != 1 || out[0].Node != m {
		t.Fatalf("out(u1) = %+v", out)
	}
	if got := g.ByLabel(Unit); len(got) != 2 || g.Node(got[0]).UID != "u1" {
		t.Fatalf("ByLabel(Unit) = %v", got)
	}
	if g.Node(m).Title() != "M" || g.Node(u1).Title() != "u1" {
		t.Fatal("Title falls back to the uid")
	}
}

func TestBuilderRefusesWhatIsOutsideTheVocabulary(t *testing.T) {
	b := NewBuilder()
	if _, err := b.AddNode(Node{UID: "x", Label: "Widget"}); err == nil || !strings.Contains(err.Error(), "vocabulary") {
		t.Fatalf("unknown label: %v", err)
	}
	b.AddNode(Node{UID: "a", Label: Doc})
	if _, err := b.AddNode(Node{UID: "a", Label: Doc}); err == nil {
		t.Fatal("duplicate uid accepted")
	}
	if err := b.AddEdge("a", "a", "likes", 0); err == nil {
		t.Fatal("unknown edge type accepted")
	}
	if err := b.AddEdge("a", "nope", Xref, 0); err == nil || !strings.Contains(err.Error(), "no node nope") {
		t.Fatalf("dangling edge: %v", err)
	}
}

func TestContentHashCoversPayloadOnly(t *testing.T) {
	n := Node{UID: "a", Label: Doc, Props: map[string]any{"title": "A", "tags": []any{"x"}}, Content: "body", Source: "a.md"}
	h := ContentHash(&n)
	n.Source = "elsewhere.md"
	if ContentHash(&n) != h {
		t.Fatal("source is not payload")
	}
	n.Content = "body!"
	if ContentHash(&n) == h {
		t.Fatal("content change not seen")
	}
}

func TestVocabularyIsClosedAndConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range Labels() {
		if seen[l.URIType()] {
			t.Fatalf("label %s collides with another in URIs", l.Label)
		}
		seen[l.URIType()] = true
		if len(l.Required) < 2 || l.Required[0] != "uid" || l.Required[1] != "title" {
			t.Fatalf("label %s: required %v must start with uid, title", l.Label, l.Required)
		}
	}
	if _, ok := LookupLabel("learningpath"); !ok {
		t.Fatal("labels are found without regard to case")
	}
	if len(Edges()) != 11 {
		t.Fatalf("%d edge types, want the 11 of the model", len(Edges()))
	}
	for _, e := range Edges() {
		if _, ok := LookupEdge(string(e.Type)); !ok {
			t.Fatal(e.Type)
		}
		for _, l := range append(e.From, e.To...) {
			if _, ok := LookupLabel(string(l)); !ok {
				t.Fatalf("edge %s names unknown label %s", e.Type, l)
			}
		}
	}
}

func TestVocabularyNamesAreParsedWithTypedErrors(t *testing.T) {
	if spec, err := ParseLabel("adr"); err != nil || spec.Label != ADR {
		t.Errorf("ParseLabel(adr) = %v, %v", spec.Label, err)
	}
	if _, err := ParseLabel("Widget"); !errors.Is(err, ErrUnknownLabel) || !strings.Contains(err.Error(), `"Widget"; the vocabulary has Org, Repo`) {
		t.Errorf("ParseLabel(Widget): %v", err)
	}
	types, err := ParseEdgeTypes([]string{"xref", "partOf"})
	if err != nil || !slices.Equal(types, []EdgeType{Xref, PartOf}) {
		t.Errorf("ParseEdgeTypes = %v, %v", types, err)
	}
	if _, err := ParseEdgeTypes([]string{"xref", "Xref"}); !errors.Is(err, ErrUnknownEdgeType) || !strings.HasSuffix(err.Error(), "governedBy, certifies") {
		t.Errorf("edge names are case-sensitive: %v", err)
	}
	for _, e := range EdgesTouching(Skill) {
		if len(e.From) > 0 && !slices.Contains(e.From, Skill) && !slices.Contains(e.To, Skill) {
			t.Errorf("%s does not touch Skill", e.Type)
		}
	}
	if got := EdgesTouching(Skill); !slices.ContainsFunc(got, func(e EdgeSpec) bool { return e.Type == Certifies }) || slices.ContainsFunc(got, func(e EdgeSpec) bool { return e.Type == GovernedBy }) {
		t.Errorf("EdgesTouching(Skill) = %v", got)
	}
}
