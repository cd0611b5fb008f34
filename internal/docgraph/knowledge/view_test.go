package knowledge_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/demo"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch"
)

// demoCorpus is the demo's documentation corpus.
const demoCorpus = "../../demo/corpus"

// demoSnapshot is the demo corpus joined with the demo library.
func demoSnapshot(t *testing.T) *knowledge.Snapshot {
	t.Helper()
	dir := t.TempDir()
	if err := demo.Write(dir, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	lib, err := library.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	kb, err := knowledge.Open(context.Background(), knowledge.Options{Dirs: []string{demoCorpus}, Store: federation.New(lib), Embedder: testEmbedder})
	if err != nil {
		t.Fatal(err)
	}
	return kb.Current()
}

func TestCleanUID(t *testing.T) {
	for _, in := range []string{"a.b", " a.b ", "@a.b", "<xref:a.b>", "xref:a.b", " <xref:a.b> "} {
		if got := knowledge.CleanUID(in); got != "a.b" {
			t.Errorf("CleanUID(%q) = %q", in, got)
		}
	}
}

func TestFindNamesTheClosestVisibleUIDs(t *testing.T) {
	t.Parallel()
	s := demoSnapshot(t)
	public := s.View(knowledge.Viewer{Level: visibility.Public})
	if _, n, err := public.Find("<xref:demo.docs.payments-api>"); err != nil || n.Title() != "Payments API" {
		t.Fatalf("Find: %v, %v", n, err)
	}

	_, _, err := public.Find("@demo.docs.payment-api")
	var unknown *knowledge.UnknownUIDError
	if !errors.As(err, &unknown) || unknown.UID != "demo.docs.payment-api" || len(unknown.Closest) != 3 || unknown.Closest[0] != "demo.docs.payments-api" {
		t.Fatalf("a misspelt uid: %#v", err)
	}
	if !strings.HasPrefix(err.Error(), `unknown uid "demo.docs.payment-api". Closest: demo.docs.payments-api, `) {
		t.Errorf("message %q", err)
	}

	// A private entity does not exist at public: not found, and never
	// suggested.
	const private = "bourdon.entity.claude-code.salary-review"
	if _, _, err := public.Find(private); !errors.As(err, &unknown) || slices.Contains(unknown.Closest, private) {
		t.Errorf("a hidden uid was found or suggested: %v", err)
	}
	if _, _, err := s.View(knowledge.Viewer{Level: visibility.Private}).Find(private); err != nil {
		t.Errorf("private: %v", err)
	}
	if _, _, err := s.View(knowledge.Viewer{Level: visibility.Private, Reader: onlyClaude}).Find("bourdon.agent.codex"); !errors.As(err, &unknown) {
		t.Errorf("an ungranted agent was found: %v", err)
	}
}

func TestClosestRanksByDistanceThenPrefixThenUID(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	if got := v.Closest("demo.skills.replay-ledger-event", 1); !slices.Equal(got, []string{"demo.skills.replay-ledger-events"}) {
		t.Errorf("one edit away: %v", got)
	}
	// A uid beyond the length bound is as far as can be from every uid:
	// the ones sharing its longest prefix come first, then uid order.
	long := "demo.docs." + strings.Repeat("x", 300)
	got := v.Closest(long, 3)
	if len(got) != 3 || !slices.IsSorted(got) || !strings.HasPrefix(got[0], "demo.docs.") {
		t.Errorf("a long uid: %v", got)
	}
	if got := v.Closest("anything", 0); len(got) != 0 {
		t.Errorf("n = 0: %v", got)
	}
}

func TestSearchChecksTypesAndAnchors(t *testing.T) {
	t.Parallel()
	v := demoSnapshot(t).View(knowledge.Viewer{Level: visibility.Public})
	ctx := context.Background()
	if _, err := v.Search(ctx, docsearch.Query{Text: "refund", Types: []graph.Label{"Widget"}}); !errors.Is(err, graph.ErrUnknownLabel) {
		t.Errorf("an unknown label: %v", err)
	}
	var unknown *knowledge.UnknownUIDError
	if _, err := v.Search(ctx, docsearch.Query{Text: "refund", Anchors: []string{"demo.docs.nope"}}); !errors.As(err, &unknown) {
		t.Errorf("an unknown anchor: %v", err)
	}
	anchors := []string{"@demo.docs.payments-api"}
	res, err := v.Search(ctx, docsearch.Query{Text: "retry a refund after a timeout", Anchors: anchors})
	if err != nil || len(res.Results) == 0 || res.Results[0].UID != "demo.docs.retry-a-refund-safely" {
		t.Fatalf("Search: %v, %v", res, err)
	}
	if anchors[0] != "@demo.docs.payments-api" {
		t.Errorf("the caller's anchors were changed: %v", anchors)
	}
}

// TestClosestMatchesAFullSort checks Closest, which prunes, against
// sorting every visible uid: by capped edit distance (case ignored), then
// longest common prefix, then uid.
func TestClosestMatchesAFullSort(t *testing.T) {
	t.Parallel()
	s := newFixture(t).open(t).Current()
	for _, level := range []visibility.Level{visibility.Public, visibility.Private} {
		v := s.View(knowledge.Viewer{Level: level})
		g, seen := s.Graph, s.Visible(knowledge.Viewer{Level: level})
		var visible []string
		for i := range g.Len() {
			if id := graph.NodeID(i); seen(id) {
				visible = append(visible, g.Node(id).UID)
			}
		}
		probes := []string{"", "x", "COGITAVE", strings.Repeat("q", 300), "bourdon.entity.claude-code.roadmaps"}
		for i := 0; i < len(visible); i += 25 {
			u := visible[i]
			probes = append(probes, u[:len(u)/2], u+"s", strings.ToUpper(u[1:]), strings.ReplaceAll(u, ".", "-"))
		}
		for _, p := range probes {
			type cand struct {
				uid          string
				dist, prefix int
			}
			lp := strings.ToLower(p)
			var want []cand
			for _, u := range visible {
				lu := strings.ToLower(u)
				c := cand{uid: u, dist: 64}
				if len(lp) <= 256 && len(lu) <= 256 {
					c.dist = min(levenshtein(lp, lu), 64)
				}
				for c.prefix < len(lp) && c.prefix < len(lu) && lp[c.prefix] == lu[c.prefix] {
					c.prefix++
				}
				want = append(want, c)
			}
			slices.SortFunc(want, func(a, b cand) int {
				if a.dist != b.dist {
					return a.dist - b.dist
				}
				if a.prefix != b.prefix {
					return b.prefix - a.prefix
				}
				return strings.Compare(a.uid, b.uid)
			})
			wantUIDs := []string{want[0].uid, want[1].uid, want[2].uid}
			if got := v.Closest(p, 3); !slices.Equal(got, wantUIDs) {
				t.Errorf("%s, Closest(%q) = %v, want %v", level, p, got, wantUIDs)
			}
		}
	}
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
