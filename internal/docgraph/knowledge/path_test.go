package knowledge_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func uidsOf(nodes []*graph.Node) []string {
	out := make([]string, len(nodes))
	for i, n := range nodes {
		out[i] = n.UID
	}
	return out
}

func TestLearningPathTeachesPrerequisitesFirst(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	const (
		api     = "demo.skills.read-the-payments-api"
		refunds = "demo.skills.make-refunds-idempotent"
		outbox  = "demo.skills.write-through-an-outbox"
		replay  = "demo.skills.replay-ledger-events"
	)
	path, err := v.LearningPath(knowledge.PathRequest{Target: "REPLAY LEDGER EVENTS"})
	if err != nil {
		t.Fatal(err)
	}
	var skills []string
	for _, s := range path.Skills {
		skills = append(skills, s.Skill.UID)
		if s.Known {
			t.Errorf("%s is known", s.Skill.UID)
		}
	}
	if path.Target.UID != replay || !slices.Equal(skills, []string{api, refunds, outbox, replay}) {
		t.Errorf("target %s, skills %v", path.Target.UID, skills)
	}
	if len(path.Steps) != 2 || path.Steps[0].Module.UID != "demo.learn.refunds-without-double-posting" || path.Steps[1].Module.UID != "demo.learn.ledger-outbox" {
		t.Fatalf("steps %+v", path.Steps)
	}
	if got := uidsOf(path.Steps[1].Teaches); !slices.Equal(got, []string{replay, outbox}) {
		t.Errorf("teaches %v, by uid", got)
	}
	if got := uidsOf(path.Steps[1].Units); !slices.Equal(got, []string{"demo.learn.ledger-outbox.why-an-outbox", "demo.learn.ledger-outbox.relay-and-replay", "demo.learn.ledger-outbox.knowledge-check"}) {
		t.Errorf("units %v, in their order", got)
	}
	if len(path.Untaught) != 0 {
		t.Errorf("untaught %v", uidsOf(path.Untaught))
	}

	// Knowing a skill knows its prerequisites: their module is not taken
	// again.
	path, err = v.LearningPath(knowledge.PathRequest{Target: "@" + replay, Known: []string{"Make refunds idempotent"}, Audience: "no such role"})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, s := range path.Skills {
		known[s.Skill.UID] = s.Known
	}
	if !known[api] || !known[refunds] || known[outbox] || len(path.Steps) != 1 || path.Steps[0].Module.UID != "demo.learn.ledger-outbox" {
		t.Errorf("known %v, steps %d", known, len(path.Steps))
	}
}

func TestLearningPathNamesTheSkillItCannotFind(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	var unknown *knowledge.UnknownSkillError
	_, err := v.LearningPath(knowledge.PathRequest{Target: "demo.docs.payments-api"})
	if !errors.As(err, &unknown) || unknown.Known || err.Error() != `no skill "demo.docs.payments-api"` {
		t.Errorf("a doc as target: %v", err)
	}
	_, err = v.LearningPath(knowledge.PathRequest{Target: "demo.skills.replay-ledger-events", Known: []string{"juggling"}})
	if !errors.As(err, &unknown) || !unknown.Known || err.Error() != `known skill "juggling" is not a skill of the graph` {
		t.Errorf("an unknown known skill: %v", err)
	}
}
