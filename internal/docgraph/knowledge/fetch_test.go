package knowledge_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func TestFetchRendersOneProductVersion(t *testing.T) {
	t.Parallel()
	v := newFixture(t).open(t).Current().View(knowledge.Viewer{Level: visibility.Public})
	const boot = "cogitave.learn.docs.yuva-2-boot-checks"
	written, err := v.Fetch("<xref:"+boot+">", "", "")
	if err != nil || written.Text != written.Node.Content || written.LocaleFallback {
		t.Fatalf("as written: %+v, %v", written, err)
	}
	c, err := v.Fetch(boot, "yuva-2.0", "de-DE")
	if err != nil || c.Moniker != "yuva-2.0" || !c.LocaleFallback || strings.Contains(c.Text, "::: moniker") {
		t.Errorf("yuva-2.0 in de-DE: %+v, %v", c, err)
	}
	if c, err := v.Fetch(boot, "", "EN-us"); err != nil || c.LocaleFallback {
		t.Errorf("the corpus locale, another case: %+v, %v", c, err)
	}

	var na *docs.NotApplicableError
	if _, err := v.Fetch(boot, "yuva-1.0", ""); !errors.As(err, &na) || na.UID != boot || na.Range != ">=yuva-2.0" {
		t.Errorf("yuva-1.0: %v", err)
	}
	var unknown *docs.UnknownMonikerError
	if _, err := v.Fetch(boot, "yuva-9", ""); !errors.As(err, &unknown) {
		t.Errorf("an unknown moniker: %v", err)
	}
	var uid *knowledge.UnknownUIDError
	if _, err := v.Fetch("cogitave.learn.docs.authoring-guide", "", ""); !errors.As(err, &uid) {
		t.Errorf("an internal doc at public: %v", err)
	}
}

func TestResolveXrefReportsSupersessionAndBacklinks(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	x, err := v.ResolveXref("@demo.decisions.post-ledger-entries-from-handlers", "payments-1.0")
	if err != nil || x.SupersededBy == nil || x.SupersededBy.UID != "demo.decisions.ledger-migration" || !x.AppliesToMoniker {
		t.Fatalf("ResolveXref: %+v, %v", x, err)
	}
	x, err = v.ResolveXref("demo.docs.payments-api", "")
	if err != nil || x.SupersededBy != nil || len(x.Backlinks) == 0 {
		t.Fatalf("ResolveXref: %+v, %v", x, err)
	}
	for _, b := range x.Backlinks {
		if b.Type == graph.SupersededBy {
			t.Errorf("a supersededBy edge among the backlinks: %+v", b)
		}
	}
	var unknown *docs.UnknownMonikerError
	if _, err := v.ResolveXref("demo.docs.payments-api", "payments-9.0"); !errors.As(err, &unknown) {
		t.Errorf("an unknown moniker: %v", err)
	}
}

func TestResolveXrefOfANodeOutsideTheMoniker(t *testing.T) {
	t.Parallel()
	v := newFixture(t).open(t).Current().View(knowledge.Viewer{Level: visibility.Public})
	x, err := v.ResolveXref("cogitave.learn.docs.yuva-2-boot-checks", "yuva-1.0")
	if err != nil || x.AppliesToMoniker {
		t.Errorf("yuva-1.0: %+v, %v", x, err)
	}
}
