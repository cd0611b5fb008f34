package recognition

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

func TestNormalizeKeysTokenRuns(t *testing.T) {
	buf, spans := normalize("  The MULTI-word/Project!! ", nil, nil)
	if got := string(buf); got != "the multi word project" {
		t.Fatalf("normalize = %q", got)
	}
	if got := string(buf[spans[1].start:spans[3].end]); got != phraseKey("Multi Word  Project") {
		t.Errorf("run 1..3 = %q, want the phrase key of the name", got)
	}
}

// detectCases are shared by DetectEntities and the index: both must agree
// on what a prompt names.
var detectCases = []struct {
	name     string
	entities []Entity
	prompt   string
	want     []string
}{
	{"case-insensitive", []Entity{{Name: "OMNIvour"}}, "what is up with omnivour", []string{"OMNIvour"}},
	{"substring of a token is no match", []Entity{{Name: "NAS"}}, "the bananas were fine", []string{}},
	{"whole token matches next to a longer one", []Entity{{Name: "NAS"}}, "a NAS box, the bananas", []string{"NAS"}},
	{"short-name guard", []Entity{{Name: "ILTT"}}, "we ILTTed the build", []string{}},
	{"prefix of a token", []Entity{{Name: "cat"}}, "pick a category", []string{}},
	{"punctuation separates", []Entity{{Name: "Bourdon"}}, "(Bourdon)? yes: bourdon!", []string{"Bourdon"}},
	{"slashes separate", []Entity{{Name: "bourdon"}}, "cd ~/repos/bourdon/core", []string{"bourdon"}},
	{"separators inside a name are any separators", []Entity{{Name: "Multi Word Project"}}, "the multi-word/project plan", []string{"Multi Word Project"}},
	{"contiguous run required", []Entity{{Name: "Multi Word Project"}}, "a multi project about word", []string{}},
	{"order inside the run matters", []Entity{{Name: "Multi Word"}}, "word multi", []string{}},
	{"partial name is no match", []Entity{{Name: "DINOs Chess/Checkers"}}, "chess tonight", []string{}},
	{"alias matches where the name does not", []Entity{{Name: "DINOs Chess/Checkers", Aliases: []string{"checkers"}}}, "checkers tonight", []string{"DINOs Chess/Checkers"}},
	{"alias with underscores", []Entity{{Name: "ILTT", Aliases: []string{"if_lift_then_that"}}}, "update on if lift then that?", []string{"ILTT"}},
	{"name and alias both match: listed once", []Entity{{Name: "Bourdon", Aliases: []string{"NeuroLayer"}}}, "Bourdon aka NeuroLayer", []string{"Bourdon"}},
	{"manifest order, not prompt order", []Entity{{Name: "Alpha"}, {Name: "Beta"}}, "beta then alpha", []string{"Alpha", "Beta"}},
	{"non-ASCII name keeps its ASCII tokens", []Entity{{Name: "Café"}}, "the café downstairs", []string{"Café"}},
	{"non-ASCII letters are not ASCII ones", []Entity{{Name: "Café"}}, "the cafe downstairs", []string{}},
	{"name without tokens never matches", []Entity{{Name: "日本"}}, "日本", []string{}},
	{"empty prompt", []Entity{{Name: "Alpha"}}, "", []string{}},
	{"punctuation-only prompt", []Entity{{Name: "Alpha"}}, "?!", []string{}},
	{"digits are tokens", []Entity{{Name: "Phase 1.7"}}, "phase 1 7 rollout", []string{"Phase 1.7"}},
	{"blank alias is ignored", []Entity{{Name: "Alpha", Aliases: []string{" ", "?"}}}, "anything at all", []string{}},
}

func TestDetectEntitiesCases(t *testing.T) {
	for _, c := range detectCases {
		got := names(DetectEntities(c.prompt, c.entities, visibility.Private))
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestIndexDetectCases(t *testing.T) {
	for _, c := range detectCases {
		x := NewIndex()
		x.Update("a", c.entities)
		got := names(x.Detect(c.prompt, visibility.Private))
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

func TestDetectEntitiesVisibility(t *testing.T) {
	ents := []Entity{
		{Name: "Pub"},
		{Name: "Tm", Visibility: visibility.Team},
		{Name: "Priv", Visibility: visibility.Private},
	}
	for level, want := range map[visibility.Level][]string{
		visibility.Public:  {"Pub"},
		visibility.Team:    {"Pub", "Tm"},
		visibility.Private: {"Pub", "Tm", "Priv"},
	} {
		if diff := cmp.Diff(want, names(DetectEntities("pub tm priv", ents, level))); diff != "" {
			t.Errorf("at %v (-want +got):\n%s", level, diff)
		}
	}
}

func TestEntityConfidence(t *testing.T) {
	ents := []Entity{{Name: "Bourdon", Aliases: []string{"Neuro Layer"}}}
	for _, c := range []struct {
		prompt, want string
	}{
		{"Bourdon", ConfidenceHigh},
		{"  bourdon?! ", ConfidenceHigh},
		{"neuro-layer", ConfidenceHigh},
		{"tell me about Bourdon", ConfidenceMedium},
		{"neuro layer status", ConfidenceMedium},
	} {
		ms := DetectEntities(c.prompt, ents, visibility.Public)
		x := NewIndex()
		x.Update("a", ents)
		ims := x.Detect(c.prompt, visibility.Public)
		if len(ms) != 1 || len(ims) != 1 {
			t.Fatalf("%q: %d / %d matches", c.prompt, len(ms), len(ims))
		}
		if ms[0].Confidence != c.want || ims[0].Confidence != c.want {
			t.Errorf("%q: confidence %s (scan) / %s (index), want %s", c.prompt, ms[0].Confidence, ims[0].Confidence, c.want)
		}
		if got := Confidence(c.prompt, append([]string{ents[0].Name}, ents[0].Aliases...)); got != c.want {
			t.Errorf("Confidence(%q) = %s, want %s", c.prompt, got, c.want)
		}
	}
}

func TestMatchTierLadder(t *testing.T) {
	for _, c := range []struct {
		prompt, name string
		want         analyze.Tier
	}{
		{"Bourdon", "bourdon", analyze.TierExact},
		{"the Bourdon work", "bourdon", analyze.TierNameSubstring},
		{"ILTTed", "ILTT", analyze.TierNone},
		{"the federation substrate", "Bourdon federation engine", analyze.TierTokenOverlap},
		{"the and of", "the and of x", analyze.TierNone}, // stopwords and short tokens carry no signal
		{"anything", "", analyze.TierNone},
		{"", "x", analyze.TierNone},
	} {
		if got := MatchTier(c.prompt, c.name); got != c.want {
			t.Errorf("MatchTier(%q, %q) = %v, want %v", c.prompt, c.name, got, c.want)
		}
	}
	if got := BestTier("x", nil); got != analyze.TierNone {
		t.Errorf("BestTier with no names = %v", got)
	}
}

func TestRecognitionString(t *testing.T) {
	m := func(name, typ string) Match { return Match{Row: Row{Name: name, Type: typ}} }
	tagged := func(name, typ string, tags ...string) Match {
		x := m(name, typ)
		x.Tags = tags
		return x
	}
	archived := m("Coolculator", "project")
	archived.ValidTo = "2026-01-01"
	both := tagged("Old", "tool", "archived")
	both.ValidTo = "2025-12-31"
	for _, c := range []struct {
		name string
		ms   []Match
		want string
	}{
		{"none", nil, ""},
		{"one typed", []Match{m("Bourdon", "project")}, "Oh -- Bourdon, the project."},
		{"one untyped", []Match{m("Alpha", "")}, "Oh -- Alpha."},
		{"one nameless", []Match{m("", "tool")}, "Oh -- this, the tool."},
		{"valid_to", []Match{archived}, "Oh -- Coolculator, the project (archived 2026-01-01)."},
		{"archived tag", []Match{tagged("LegacyThing", "tool", "infra", "archived")}, "Oh -- LegacyThing, the tool (archived)."},
		{"canceled tag, untyped", []Match{tagged("Gone", "", "canceled")}, "Oh -- Gone (archived)."},
		{"tags are exact", []Match{tagged("Kept", "tool", "Archived", "archived-ish")}, "Oh -- Kept, the tool."},
		{"valid_to wins over the tag", []Match{both}, "Oh -- Old, the tool (archived 2025-12-31)."},
		{"two", []Match{m("Bourdon", "project"), m("OMNIvour", "")}, "You're asking about Bourdon and OMNIvour -- I have both."},
		{"two, suffix dropped", []Match{archived, m("B", "")}, "You're asking about Coolculator and B -- I have both."},
		{"three", []Match{m("Alpha", ""), m("Beta", ""), m("Gamma", "")}, "You're asking about Alpha, Beta, and Gamma -- I have all of those."},
		{"four, nameless", []Match{m("A", ""), m("", ""), m("C", ""), m("D", "")}, "You're asking about A, ?, C, and D -- I have all of those."},
	} {
		if got := RecognitionString(c.ms); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}
