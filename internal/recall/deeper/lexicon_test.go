package deeper

import (
	"fmt"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

// TestWordNetFindsTheAnswer: with WordNet, a prompt finds the turn that
// answers it with a word the prompt does not say, above turns that share
// a common word of it; without WordNet it does not (so each case shows
// something).
func TestWordNetFindsTheAnswer(t *testing.T) {
	x := wordnet.DefaultLexicon()
	for _, c := range []struct {
		name, prompt, answer string
		others               []string
	}{{
		name:   "a kind of what the question asks",
		prompt: "What injury did Tom get after the marathon?",
		answer: "Tom: A stress fracture in my left shin, sadly.",
		others: []string{"Tom: Training for the marathon is going well.", "Tom: The marathon route goes past the harbour.",
			"Tom: After the marathon I slept for a day.", "Tom: My marathon time was four hours."},
	}, {
		name:   "a derived word",
		prompt: "What did Lena decide about the job?",
		answer: "Lena: My decision is made: I am staying put.",
		others: []string{"Lena: The job has long hours.", "Lena: A recruiter called about a job in Leeds.",
			"Omar: Is the job any good?", "Lena: The job pays well."},
	}, {
		name:   "an irregular form",
		prompt: "What did Maya buy at the market?",
		answer: "Maya: I bought a crate of plums.",
		others: []string{"Maya: The market opens at eight.", "Maya: Market stalls cost more this year.",
			"Tom: Was the market busy?", "Maya: The market was packed."},
	}} {
		dir := t.TempDir()
		var notes []any
		for i, text := range append(c.others, c.answer, "Nadia: The bakery is busy this week.") {
			// A day each: no turn lends its words to another.
			notes = append(notes, map[string]any{"date": fmt.Sprintf("2026-03-%02d", i+1), "text": text, "visibility": "public"})
		}
		writeAgent(t, dir, "chat", map[string]any{"notes": notes})
		p := ask(t, New(openStore(t, dir), Options{WordNet: func() *wordnet.Lexicon { return x }}), c.prompt, visibility.Team)
		if len(p.Items) == 0 || !strings.Contains(p.Items[0].Text, c.answer) {
			t.Errorf("%s: with WordNet, items %+v, want %q first", c.name, p.Items, c.answer)
		}
		p = ask(t, New(openStore(t, dir), Options{}), c.prompt, visibility.Team)
		if len(p.Items) > 0 && strings.Contains(p.Items[0].Text, c.answer) {
			t.Errorf("%s: without WordNet the answer comes first: the case shows nothing", c.name)
		}
	}
}
