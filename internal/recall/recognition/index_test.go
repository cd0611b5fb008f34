package recognition

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func TestIndexMergesAcrossAgents(t *testing.T) {
	x := NewIndex()
	// Updated out of id order: rows still follow agent id order.
	x.Update("codex", []Entity{
		{Name: "SecretProj", Type: "project", Summary: "codex only"},
		{Name: " bourdon ", Type: "concept", Aliases: []string{" Continuo ", "NeuroLayer"}, Summary: "Federation, codex view.", Tags: []string{"infra", " archived "}},
	})
	x.Update("claude-code", []Entity{
		{Name: "Bourdon", Type: "project", Aliases: []string{"NeuroLayer"}, Summary: "Cross-agent memory.", Tags: []string{"infra"}},
		{Name: "Untyped"},
	})
	want := []Row{
		{
			Name: "Bourdon", Type: "project", Types: []string{"project", "concept"},
			Aliases: []string{"NeuroLayer", "Continuo"}, Summary: "Cross-agent memory.",
			Summaries:    map[string]string{"claude-code": "Cross-agent memory.", "codex": "Federation, codex view."},
			SourceAgents: []string{"claude-code", "codex"}, Tags: []string{"infra", "archived"},
		},
		{
			Name: "Untyped", Type: "topic", Types: []string{"topic"}, Aliases: []string{},
			Summaries: map[string]string{}, SourceAgents: []string{"claude-code"}, Tags: []string{},
		},
		{
			Name: "SecretProj", Type: "project", Types: []string{"project"}, Aliases: []string{}, Summary: "codex only",
			Summaries: map[string]string{"codex": "codex only"}, SourceAgents: []string{"codex"}, Tags: []string{},
		},
	}
	if diff := cmp.Diff(want, x.Rows(visibility.Public)); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"claude-code", "codex"}, x.Agents()); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}

	// An alias only codex gives recognises the merged row; the merged tags
	// (trimmed) carry the archived suffix.
	res := x.Prepare("what about continuo", visibility.Team)
	if res.Recognition != "Oh -- Bourdon, the project (archived)." {
		t.Errorf("recognition = %q", res.Recognition)
	}
	// The reference's store test: an untyped entity is a "topic".
	if got := x.Prepare("untyped?", visibility.Team).Recognition; got != "Oh -- Untyped, the topic." {
		t.Errorf("untyped recognition = %q", got)
	}
}

// TestIndexVisibilityAtQueryTime: the reader's level decides which
// contribution comes first (name, type, summary, order) and which aliases
// count.
func TestIndexVisibilityAtQueryTime(t *testing.T) {
	x := NewIndex()
	x.Update("a", []Entity{
		{Name: "Zeta", Type: "secret-type", Aliases: []string{"hush"}, Summary: "private view", Visibility: visibility.Private},
	})
	x.Update("b", []Entity{
		{Name: "Alpha", Type: "project"},
		{Name: "ZETA", Type: "team-type", Summary: "team view", Visibility: visibility.Team},
	})
	for _, c := range []struct {
		level  visibility.Level
		prompt string
		want   []Match
	}{
		{visibility.Public, "zeta alpha hush", []Match{
			{Row: row0("Alpha", "project", "", nil, "b"), Confidence: ConfidenceMedium},
		}},
		{visibility.Team, "zeta alpha hush", []Match{
			{Row: row0("Alpha", "project", "", nil, "b"), Confidence: ConfidenceMedium},
			{Row: row0("ZETA", "team-type", "team view", map[string]string{"b": "team view"}, "b"), SummaryAgent: "b", Confidence: ConfidenceMedium},
		}},
		{visibility.Team, "hush", nil}, // the alias is a's, and a's row is private
		{visibility.Private, "alpha or zeta", []Match{
			{Row: Row{
				Name: "Zeta", Type: "secret-type", Types: []string{"secret-type", "team-type"}, Aliases: []string{"hush"},
				Summary: "private view", Summaries: map[string]string{"a": "private view", "b": "team view"},
				SourceAgents: []string{"a", "b"}, Tags: []string{},
			}, SummaryAgent: "a", Confidence: ConfidenceMedium},
			{Row: row0("Alpha", "project", "", nil, "b"), Confidence: ConfidenceMedium},
		}},
		{visibility.Private, "HUSH", []Match{
			{Row: Row{
				Name: "Zeta", Type: "secret-type", Types: []string{"secret-type", "team-type"}, Aliases: []string{"hush"},
				Summary: "private view", Summaries: map[string]string{"a": "private view", "b": "team view"},
				SourceAgents: []string{"a", "b"}, Tags: []string{},
			}, SummaryAgent: "a", Confidence: ConfidenceHigh},
		}},
	} {
		got := x.Detect(c.prompt, c.level)
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%q at %v (-want +got):\n%s", c.prompt, c.level, diff)
		}
	}
}

func row0(name, typ, summary string, summaries map[string]string, agent string) Row {
	if summaries == nil {
		summaries = map[string]string{}
	}
	return Row{Name: name, Type: typ, Types: []string{typ}, Aliases: []string{}, Summary: summary,
		Summaries: summaries, SourceAgents: []string{agent}, Tags: []string{}}
}

// TestIndexSummaryQuirks pins the reference's summary rule: the first
// contribution's summary is taken as written, so a whitespace-only first
// summary hides every later one (and the fragment then shows none), while
// an empty one lets the next non-blank summary in.
func TestIndexSummaryQuirks(t *testing.T) {
	x := NewIndex()
	x.Update("a", []Entity{{Name: "Blank", Summary: "   "}, {Name: "Empty"}, {Name: "Padded", Summary: "  padded  "}})
	x.Update("b", []Entity{{Name: "blank", Summary: "from b"}, {Name: "empty", Summary: " from b "}, {Name: "padded", Summary: "b"}})
	rows := x.Rows(visibility.Public)
	got := map[string][2]string{}
	for _, m := range x.Detect("blank empty padded", visibility.Public) {
		got[m.Name] = [2]string{m.Summary, m.SummaryAgent}
	}
	want := map[string][2]string{
		"Blank":  {"   ", "a"},
		"Empty":  {"from b", "b"},
		"Padded": {"  padded  ", "a"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summaries (-want +got):\n%s", diff)
	}
	if rows[0].Summaries["b"] != "from b" || rows[1].Summaries["b"] != "from b" {
		t.Errorf("per-agent summaries: %v / %v", rows[0].Summaries, rows[1].Summaries)
	}
	frag := x.Prepare("blank", visibility.Public).PromptContext
	wantFrag := "Bourdon recognition context\nImmediate recognition: Oh -- Blank, the topic.\nMatched entities:\n- Blank (topic) via a, b\nUse this as timing-layer context, not as a final answer."
	if frag != wantFrag {
		t.Errorf("fragment:\n got %q\nwant %q", frag, wantFrag)
	}
}

func TestIndexSkipsBlankNames(t *testing.T) {
	x := NewIndex()
	x.Update("a", []Entity{{Name: "", Aliases: []string{"ghost"}}, {Name: " \u2003 ", Aliases: []string{"ghost"}}, {Name: "Real"}})
	if got := x.Detect("ghost", visibility.Private); got != nil {
		t.Errorf("a nameless entity matched through its alias: %v", names(got))
	}
	if diff := cmp.Diff([]string{"Real"}, names(x.Detect("real ghost", visibility.Private))); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestIndexUpdateAndRemove(t *testing.T) {
	x := NewIndex()
	x.Update("a", []Entity{{Name: "Alpha", Aliases: []string{"first"}}})
	x.Update("b", []Entity{{Name: "alpha", Type: "tool", Aliases: []string{"second"}}})
	check := func(step, prompt string, want []string, wantAgents []string) {
		t.Helper()
		ms := x.Detect(prompt, visibility.Public)
		if diff := cmp.Diff(want, names(ms)); diff != "" {
			t.Errorf("%s: matches (-want +got):\n%s", step, diff)
		}
		if len(ms) == 1 {
			if diff := cmp.Diff(wantAgents, ms[0].SourceAgents); diff != "" {
				t.Errorf("%s: agents (-want +got):\n%s", step, diff)
			}
		}
	}
	check("both", "second", []string{"Alpha"}, []string{"a", "b"})
	x.Update("a", []Entity{{Name: "Beta"}})
	check("a replaced", "second", []string{"alpha"}, []string{"b"})
	check("a's old alias is gone", "first", []string{}, nil)
	x.Remove("b")
	check("b removed", "alpha second", []string{}, nil)
	x.Remove("b") // unknown: no-op
	x.Update("a", nil)
	check("a emptied", "beta", []string{}, nil)
	if diff := cmp.Diff([]string{"a"}, x.Agents()); diff != "" {
		t.Errorf("agents (-want +got):\n%s", diff)
	}
	x.Remove("a")
	if len(x.rows) != 0 || len(x.phrases) != 0 || len(x.starts) != 0 || len(x.agents) != 0 {
		t.Errorf("index not empty after removing everything: %d rows, %d phrases, %d starts, %d agents",
			len(x.rows), len(x.phrases), len(x.starts), len(x.agents))
	}
}

// TestIndexIncrementalEqualsRebuild applies random updates and removals and
// checks, after each, that the index answers exactly like an index rebuilt
// from scratch and like the reference's algorithm run naively over all
// entities.
func TestIndexIncrementalEqualsRebuild(t *testing.T) {
	matched, queries := 0, 0
	defer func() {
		if !t.Failed() && matched < queries/4 {
			t.Errorf("only %d of %d random queries matched anything: the test is too weak", matched, queries)
		}
	}()
	for seed := range uint64(20) {
		w := newRandomWorld(seed)
		x := NewIndex()
		model := map[string][]Entity{}
		agents := []string{"a", "b", "c", "claude-code", "codex"}
		for step := range 40 {
			id := agents[w.r.IntN(len(agents))]
			if w.r.IntN(5) == 0 {
				x.Remove(id)
				delete(model, id)
			} else {
				ents := w.entities(w.r.IntN(12))
				x.Update(id, ents)
				model[id] = ents
			}
			fresh := NewIndex()
			for _, id := range slices.Sorted(func(yield func(string) bool) {
				for id := range model {
					if !yield(id) {
						return
					}
				}
			}) {
				fresh.Update(id, model[id])
			}
			where := fmt.Sprintf("seed %d step %d", seed, step)
			for _, level := range levels {
				naive := naiveRows(model, level)
				wantRows := make([]Row, len(naive))
				for i := range naive {
					wantRows[i] = naive[i].Row
				}
				if diff := cmp.Diff(wantRows, x.Rows(level)); diff != "" {
					t.Fatalf("%s: rows at %v differ from the reference merge (-want +got):\n%s", where, level, diff)
				}
				if diff := cmp.Diff(fresh.Rows(level), x.Rows(level)); diff != "" {
					t.Fatalf("%s: rows at %v differ from a rebuilt index (-want +got):\n%s", where, level, diff)
				}
				for range 5 {
					prompt := w.prompt()
					want := naiveDetect(prompt, model, level)
					got := x.Detect(prompt, level)
					queries++
					if len(got) > 0 {
						matched++
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Fatalf("%s: Detect(%q) at %v differs from the reference (-want +got):\n%s", where, prompt, level, diff)
					}
					if diff := cmp.Diff(fresh.Detect(prompt, level), got); diff != "" {
						t.Fatalf("%s: Detect(%q) at %v differs from a rebuilt index (-want +got):\n%s", where, prompt, level, diff)
					}
				}
			}
		}
	}
}

// TestIndexConcurrentUse runs queries while agents are updated (meant for
// go test -race).
func TestIndexConcurrentUse(t *testing.T) {
	x := NewIndex()
	w := newRandomWorld(99)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				x.Prepare(fmt.Sprintf("atlas bourdon %d delta multi word", i+g), levels[i%3])
			}
		}()
	}
	for i := range 50 {
		x.Update(fmt.Sprintf("agent-%d", i%7), w.entities(20))
		if i%11 == 0 {
			x.Remove("agent-3")
		}
	}
	wg.Wait()
}
