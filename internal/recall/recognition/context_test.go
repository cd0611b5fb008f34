package recognition

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// referenceFragment is the reference's _recognition_prompt_context,
// unbounded, with the server's redaction as its text filter.
func referenceFragment(recognition string, ms []Match) string {
	if recognition == "" {
		return ""
	}
	lines := []string{"Bourdon recognition context", "Immediate recognition: " + redact.Text(recognition, 240)}
	if len(ms) > 0 {
		lines = append(lines, "Matched entities:")
	}
	for _, m := range ms {
		typ := m.Type
		if typ == "" {
			typ = "topic"
		}
		line := "- " + redact.Text(m.Name, 240) + " (" + redact.Text(typ, 240) + ")"
		var agents []string
		for _, a := range m.SourceAgents {
			if a != "" {
				agents = append(agents, a)
			}
		}
		if len(agents) > 0 {
			line += " via " + strings.Join(agents, ", ")
		}
		if s := pyStrip(m.Summary); s != "" {
			line += ": " + redact.Text(s, 240)
		}
		lines = append(lines, line)
	}
	lines = append(lines, "Use this as timing-layer context, not as a final answer.")
	return strings.Join(lines, "\n")
}

func match(name, typ, summary string, agents ...string) Match {
	return Match{Row: Row{Name: name, Type: typ, Summary: summary, SourceAgents: agents}, SummaryAgent: firstOr(agents)}
}

func firstOr(list []string) string {
	if len(list) == 0 {
		return ""
	}
	return list[0]
}

// TestFragmentWithinBoundsIsTheReference: while no bound applies, the
// fragment is the reference's, byte for byte, and says nothing about
// truncation.
func TestFragmentWithinBoundsIsTheReference(t *testing.T) {
	long := strings.Repeat("word ", 80)
	for _, ms := range [][]Match{
		nil,
		{match("Bourdon", "project", "Cross-agent memory federation (granted side).", "claude-code", "codex")},
		{match("Alpha", "", "")},
		{match("Alpha", "", "  spaced\n\tout  summary ", "a")},
		{match(long, long, long, "a", "b")},
		{match("See https://example.com/x?y=1 now", "tool", "docs at http://a.b/c and more", "a")},
		{match("A", "t", "s", "a"), match("B", "t", "", "b"), match("C", "", "s", "a", "b", "c")},
	} {
		rec := RecognitionString(ms)
		f := BuildFragment(rec, ms)
		if want := referenceFragment(rec, ms); f.Text != want {
			t.Errorf("fragment:\n got %q\nwant %q", f.Text, want)
		}
		if f.Truncated || f.OmittedEntities != 0 {
			t.Errorf("%q: reported truncation %v/%d", f.Text, f.Truncated, f.OmittedEntities)
		}
	}
}

func TestFragmentFieldsAreRedactedAndCut(t *testing.T) {
	// A GitHub-token-shaped value, assembled so that no literal sits in
	// the source.
	ghToken := "gh" + "p_" + strings.Repeat("a1B2", 9)
	for _, c := range []struct {
		name, summary string
		wantLine      string
	}{
		{"keyword", "the password is hunter2", "- X (tool) via a: [redacted credential-like text]"},
		// Decision: the fragment uses the server's full redaction battery
		// (internal/trust/redact), not only the four keywords of the reference's
		// _safe_context_text, which would let this token through.
		{"token-shaped", "deploy with " + ghToken + " today", "- X (tool) via a: [redacted credential-like text]"},
		{"link", "see https://example.com/a/b now", "- X (tool) via a: see [link] now"},
		{"whitespace", " two\n\nlines\t here ", "- X (tool) via a: two lines here"},
		{"long", strings.Repeat("x", 300), "- X (tool) via a: " + strings.Repeat("x", 237) + "..."},
	} {
		ms := []Match{match("X", "tool", c.summary, "a")}
		f := BuildFragment(RecognitionString(ms), ms)
		if got := f.Lines[3].Text; got != c.wantLine {
			t.Errorf("%s: line = %q, want %q", c.name, got, c.wantLine)
		}
	}
	// A secret in the name reaches the recognition line too.
	ms := []Match{match("api_key rotation", "task", "", "a")}
	f := BuildFragment(RecognitionString(ms), ms)
	if !strings.Contains(f.Text, "Immediate recognition: [redacted credential-like text]\n") ||
		!strings.Contains(f.Text, "- [redacted credential-like text] (task) via a\n") {
		t.Errorf("name not redacted:\n%s", f.Text)
	}
}

func TestFragmentBounds(t *testing.T) {
	agents := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("agent-%02d", i)
		}
		return out
	}
	many := func(n int, name, summary string, ag []string) []Match {
		ms := make([]Match, n)
		for i := range ms {
			ms[i] = match(fmt.Sprintf("%s %d", name, i), "project", summary, ag...)
		}
		return ms
	}
	huge := strings.Repeat("é", 500)
	var longIDs []string
	for i := range MaxViaAgents + 1 {
		longIDs = append(longIDs, fmt.Sprint(i, strings.Repeat("a", 300)))
	}
	for _, c := range []struct {
		name        string
		ms          []Match
		wantLines   int // entity lines
		wantOmitted int
		truncated   bool
	}{
		{"at the line bound", many(MaxContextEntities, "E", "s", agents(2)), MaxContextEntities, 0, false},
		{"over the line bound", many(20, "E", "s", agents(2)), MaxContextEntities, 20 - MaxContextEntities, true},
		{"many agents", many(1, "E", "s", agents(20)), 1, 0, true},
		{"over the character bound", many(6, huge, huge, agents(3)), 3, 3, true},
		// Every field at its bound: one entity line still fits.
		{"worst-case lines", many(50, huge, huge, longIDs), 1, 49, true},
	} {
		rec := RecognitionString(c.ms)
		f := BuildFragment(rec, c.ms)
		if n := utf8.RuneCountInString(f.Text); n > MaxContextChars {
			t.Errorf("%s: %d code points, bound %d", c.name, n, MaxContextChars)
		}
		var entityLines, omitted int
		for _, l := range f.Lines {
			switch l.Kind {
			case LineEntity:
				entityLines++
			case LineOmitted:
				omitted++
				want := fmt.Sprintf("(+%d more matched entities not shown)", c.wantOmitted)
				if l.Text != want {
					t.Errorf("%s: omission line %q, want %q", c.name, l.Text, want)
				}
			}
		}
		if entityLines != c.wantLines || f.OmittedEntities != c.wantOmitted || f.Truncated != c.truncated {
			t.Errorf("%s: %d entity lines, %d omitted, truncated %v; want %d, %d, %v",
				c.name, entityLines, f.OmittedEntities, f.Truncated, c.wantLines, c.wantOmitted, c.truncated)
		}
		if (omitted == 1) != (c.wantOmitted > 0) {
			t.Errorf("%s: %d omission lines", c.name, omitted)
		}
		if last := f.Lines[len(f.Lines)-1]; last.Kind != LineFooter || !strings.HasSuffix(f.Text, "\n"+contextFooter) {
			t.Errorf("%s: fragment does not end with the footer", c.name)
		}
		if got := strings.Count(f.Text, "\n") + 1; got != len(f.Lines) {
			t.Errorf("%s: %d lines in text, %d in Lines", c.name, got, len(f.Lines))
		}
	}

	ms := many(1, "E", "s", agents(11))
	if got, want := BuildFragment(RecognitionString(ms), ms).Lines[3].Text,
		"- E 0 (project) via agent-00, agent-01, agent-02, agent-03, agent-04, agent-05, agent-06, agent-07 (+3 more): s"; got != want {
		t.Errorf("via line:\n got %q\nwant %q", got, want)
	}
}

// TestFragmentSaysWhereEachLineCameFrom checks the structured provenance
// that accompanies the text.
func TestFragmentSaysWhereEachLineCameFrom(t *testing.T) {
	x := NewIndex()
	x.Update("a", []Entity{{Name: "Bourdon", Type: "project"}})
	x.Update("b", []Entity{{Name: "bourdon", Summary: "b's words"}, {Name: "Other"}})
	res := x.Prepare("bourdon and other", visibility.Public)
	want := []Line{
		{Text: "Bourdon recognition context", Kind: LineHeader},
		{Text: "Immediate recognition: You're asking about Bourdon and Other -- I have both.", Kind: LineRecognition},
		{Text: "Matched entities:", Kind: LineEntitiesHeader},
		{Text: "- Bourdon (project) via a, b: b's words", Kind: LineEntity, Entity: "Bourdon", Agents: []string{"a", "b"}, SummaryAgent: "b"},
		{Text: "- Other (topic) via b", Kind: LineEntity, Entity: "Other", Agents: []string{"b"}},
		{Text: "Use this as timing-layer context, not as a final answer.", Kind: LineFooter},
	}
	if diff := cmp.Diff(want, res.Fragment.Lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestResultJSON(t *testing.T) {
	enc := func(r Result) string {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := enc(NewResult(nil)),
		`{"recognition":"","confidence":"none","matched_entities":[],"hydration_scheduled":false,"prompt_context":""}`; got != want {
		t.Errorf("empty result:\n got %s\nwant %s", got, want)
	}
	one := NewResult([]Match{{Row: Row{Name: "Alpha"}, Confidence: ConfidenceHigh}})
	if got, want := enc(one),
		`{"recognition":"Oh -- Alpha.","confidence":"high","matched_entities":[{"name":"Alpha","type":"topic","source_agents":[]}],"hydration_scheduled":true,`+
			`"prompt_context":"Bourdon recognition context\nImmediate recognition: Oh -- Alpha.\nMatched entities:\n- Alpha (topic)\nUse this as timing-layer context, not as a final answer."}`; got != want {
		t.Errorf("one match:\n got %s\nwant %s", got, want)
	}
	ms := make([]Match, 10)
	for i := range ms {
		ms[i] = Match{Row: Row{Name: fmt.Sprint("E", i), SourceAgents: []string{"a"}}, Confidence: ConfidenceMedium}
	}
	got := enc(NewResult(ms))
	if !strings.HasSuffix(got, `,"prompt_context_truncated":true,"prompt_context_omitted_entities":2}`) {
		t.Errorf("truncated result does not report it: %s", got)
	}
}
