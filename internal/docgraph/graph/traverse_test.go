package graph

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// chainGraph builds a -dependsOn-> b -dependsOn-> c -dependsOn-> d, with
// e -xref-> b and b -xref-> a (so a and b are joined both ways).
func chainGraph(t *testing.T) *Graph {
	t.Helper()
	b := NewBuilder()
	for _, uid := range []string{"a", "b", "c", "d", "e"} {
		if _, err := b.AddNode(Node{UID: uid, Label: Service}); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range []struct {
		from, to string
		t        EdgeType
	}{{"a", "b", DependsOn}, {"b", "c", DependsOn}, {"c", "d", DependsOn}, {"e", "b", Xref}, {"b", "a", Xref}} {
		if err := b.AddEdge(e.from, e.to, e.t, 0); err != nil {
			t.Fatal(err)
		}
	}
	return b.Build()
}

// render writes reached nodes as "uid@depth<from-type" (out) or
// "uid@depth>from-type" (in), in order.
func render(g *Graph, rs []Reached) string {
	var parts []string
	for _, r := range rs {
		arrow := "<"
		if r.Dir == Incoming {
			arrow = ">"
		}
		parts = append(parts, fmt.Sprintf("%s@%d%s%s-%s", g.Node(r.Node).UID, r.Depth, arrow, g.Node(r.From).UID, r.Type))
	}
	return strings.Join(parts, " ")
}

func TestNeighbourhood(t *testing.T) {
	g := chainGraph(t)
	a, _ := g.Lookup("a")
	c, _ := g.Lookup("c")
	for _, tc := range []struct {
		name  string
		start NodeID
		types []EdgeType
		dir   Direction
		depth int
		want  string
	}{
		{"out all types", a, nil, Outgoing, 4, "b@1<a-dependsOn c@2<b-dependsOn d@3<c-dependsOn"},
		{"out depth 2", a, nil, Outgoing, 2, "b@1<a-dependsOn c@2<b-dependsOn"},
		{"in", c, nil, Incoming, 4, "b@1>c-dependsOn a@2>b-dependsOn e@2>b-xref"},
		{"in dependsOn only", c, []EdgeType{DependsOn}, Incoming, 4, "b@1>c-dependsOn a@2>b-dependsOn"},
		{"both", c, nil, Both, 1, "d@1<c-dependsOn b@1>c-dependsOn"},
		{"both deeper", c, []EdgeType{Xref, DependsOn}, Both, 2, "d@1<c-dependsOn b@1>c-dependsOn a@2<b-xref e@2>b-xref"},
		{"type absent", a, []EdgeType{PartOf}, Both, 4, ""},
		{"depth zero", a, nil, Both, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NeighbourhoodFunc(g, tc.start, tc.types, tc.dir, tc.depth, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if s := render(g, got); s != tc.want {
				t.Fatalf("got  %s\nwant %s", s, tc.want)
			}
		})
	}
}

func TestNeighbourhoodBudget(t *testing.T) {
	g := chainGraph(t)
	a, _ := g.Lookup("a")
	// a's walk out examines a->b, b->a, b->c, c->d: four edges.
	if _, err := NeighbourhoodFunc(g, a, nil, Outgoing, 4, 4, nil); err != nil {
		t.Fatalf("budget 4: %v", err)
	}
	got, err := NeighbourhoodFunc(g, a, nil, Outgoing, 4, 3, nil)
	if !errors.Is(err, ErrBudget) || got != nil {
		t.Fatalf("budget 3: %v, %v; want ErrBudget and no nodes", got, err)
	}
}

func TestNeighbourhoodRefusesBadInput(t *testing.T) {
	g := chainGraph(t)
	if _, err := NeighbourhoodFunc(g, 99, nil, Outgoing, 1, 0, nil); err == nil {
		t.Fatal("unknown start accepted")
	}
	if _, err := NeighbourhoodFunc(g, 0, nil, 0, 1, 0, nil); err == nil {
		t.Fatal("zero direction accepted")
	}
}

func TestDirection(t *testing.T) {
	for _, d := range []Direction{Outgoing, Incoming, Both} {
		got, err := ParseDirection(d.String())
		if err != nil || got != d {
			t.Fatalf("ParseDirection(%q) = %v, %v", d, got, err)
		}
	}
	if _, err := ParseDirection("up"); err == nil {
		t.Fatal(`"up" accepted`)
	}
	if Outgoing.Reverse() != Incoming || Incoming.Reverse() != Outgoing || Both.Reverse() != Both {
		t.Fatal("Reverse")
	}
}
