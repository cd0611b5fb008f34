package knowledge_test

import (
	"context"
	"errors"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func TestRelatedWalksTheVisibleNeighbourhood(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	rel, err := v.Related("@demo.docs.payments-api", knowledge.RelatedQuery{EdgeTypes: []string{"xref"}, Direction: "in", Depth: 1, Limit: 50})
	if err != nil || rel.Node.UID != "demo.docs.payments-api" || len(rel.Nodes) == 0 || rel.Truncated {
		t.Fatalf("Related: %+v, %v", rel, err)
	}
	for _, r := range rel.Nodes {
		if r.Type != graph.Xref || r.Dir != graph.Incoming || r.From.UID != "demo.docs.payments-api" || r.Depth != 1 {
			t.Errorf("reached %s by %s %s from %s at %d", r.Node.UID, r.Type, r.Dir, r.From.UID, r.Depth)
		}
	}
	all, err := v.Related("demo.docs.payments-api", knowledge.RelatedQuery{Direction: "both", Depth: 2, Limit: 2})
	if err != nil || len(all.Nodes) != 2 || !all.Truncated || all.Nodes[0].Depth > all.Nodes[1].Depth {
		t.Errorf("limit 2: %+v, %v", all, err)
	}
}

func TestRelatedRefusesWhatItCannotWalk(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	ok := knowledge.RelatedQuery{Direction: "both", Depth: 1, Limit: 50}
	var uid *knowledge.UnknownUIDError
	if _, err := v.Related("demo.docs.nope", ok); !errors.As(err, &uid) {
		t.Errorf("an unknown uid: %v", err)
	}
	bad := ok
	bad.EdgeTypes = []string{"likes"}
	if _, err := v.Related("demo.docs.payments-api", bad); !errors.Is(err, graph.ErrUnknownEdgeType) {
		t.Errorf("an unknown edge type: %v", err)
	}
	for _, tc := range []struct {
		q    knowledge.RelatedQuery
		want string
	}{
		{knowledge.RelatedQuery{Direction: "up", Depth: 1, Limit: 1}, `direction "up": use out, in or both`},
		{knowledge.RelatedQuery{Direction: "out", Depth: 5, Limit: 1}, "depth 5: use 1 to 4"},
		{knowledge.RelatedQuery{Direction: "out", Depth: 1, Limit: 501}, "limit 501: use 1 to 500"},
		{knowledge.RelatedQuery{Direction: "out", Depth: 1, Limit: 0}, "limit 0: use 1 to 500"},
	} {
		var arg *knowledge.ArgumentError
		if _, err := v.Related("demo.docs.payments-api", tc.q); !errors.As(err, &arg) || err.Error() != tc.want {
			t.Errorf("%+v: %v, want %s", tc.q, err, tc.want)
		}
	}
	large := &knowledge.TooLargeError{UID: "u", Depth: 3}
	if !errors.Is(large, graph.ErrBudget) || large.Error() != "the neighbourhood of u is too large to walk to depth 3" {
		t.Errorf("TooLargeError: %v", large)
	}
}

func TestQueryBoundsItsRows(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	ctx := context.Background()
	var arg *knowledge.ArgumentError
	if _, err := v.Query(ctx, "MATCH (n) RETURN n.uid", nil, 1001); !errors.As(err, &arg) || err.Error() != "limit 1001: use 1 to 1000" {
		t.Errorf("limit 1001: %v", err)
	}
	res, err := v.Query(ctx, "MATCH (e:Entity) WHERE e.uid = $uid RETURN e.uid", map[string]any{"uid": "bourdon.entity.claude-code.salary-review"}, 10)
	if err != nil || len(res.Rows) != 0 {
		t.Errorf("a private entity at public: %v, %v", res, err)
	}
	res, err = v.Query(ctx, "MATCH (n) RETURN n.uid", nil, 3)
	if err != nil || len(res.Rows) != 3 || !res.Truncated {
		t.Errorf("limit 3: %v, %v", res, err)
	}
}
