package knowledge_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/requests"
)

// TestDocumentChangedWakesTheRequests: with the requests reconciled only
// hourly, a request approved meanwhile joins the graph once
// DocumentChanged names its document (the change would otherwise wait
// for the hour). Holds tells a request's document from a proposal's,
// which is no reason to look.
func TestDocumentChangedWakesTheRequests(t *testing.T) {
	f := newFixture(t)
	reqs := requests.OpenDocuments(store.NewDirDocuments(t.TempDir(), 0o644))
	opts := f.options()
	opts.Requests, opts.RequestsReconcile = reqs, time.Hour
	kb, err := knowledge.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ch := watch(t, kb)
	form := []byte(`{"problem": "Agents cannot see which requests wait for review.", "desiredOutcome": "list_requests filters by stage.",
		"type": "feature", "area": "platform", "identity": "github:bob", "owner": "cogitave/platform"}`)
	p, err := reqs.ProposeIntake(context.Background(), form, "agent:codex")
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := reqs.ApproveOwn(context.Background(), p.ID, "agent:codex")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{requests.Folder + "/proposals/" + p.ID + ".yaml", requests.Folder + "/" + r.ID + ".yaml"} {
		if want := name == requests.Folder+"/"+r.ID+".yaml"; reqs.Holds(name) != want {
			t.Errorf("Holds(%q) = %v, want %v", name, !want, want)
		}
	}
	before := kb.Current()
	kb.DocumentChanged(requests.Folder + "/" + r.ID + ".yaml")
	c := next(t, ch) // within 30 s, well before the hour
	if c.old != before || !slices.Equal(c.added, []string{r.ID}) {
		t.Errorf("after DocumentChanged: added %v (changed %v, removed %v), want %s", c.added, c.changed, c.removed, r.ID)
	}
}
