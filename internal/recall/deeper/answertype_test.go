package deeper

import (
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func TestTextHolds(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint8
	}{
		{"Nadia: The staff call it Gerald.", holdsName},
		{"Nadia: Gerald is what the staff call it.", 0},
		{"Rahul: March 17th.", holdsTime | holdsNumber},
		{"Callum: The date is set: the 19th of June next year, at a barn outside Cardiff.", holdsTime | holdsNumber | holdsName},
		{"Kwabena: 52 hours in total.", holdsNumber},
		{"Ottilie: Sick every morning and I can't stand the smell of coffee.", holdsTime},
		{"Tom: Four hours and twelve minutes.", holdsNumber},
		{"Anjali: She did. I said no.", 0},
		{"plain text with no speaker, in 2026", holdsNumber | holdsTime},
		{"Two words: Then Paris", holdsNumber | holdsName}, // not a speaker: it has a space
	} {
		if got := textHolds(c.text); got != c.want {
			t.Errorf("textHolds(%q) = %03b, want %03b", c.text, got, c.want)
		}
	}
}

func TestAsksFor(t *testing.T) {
	for _, c := range []struct {
		prompt string
		want   uint8
	}{
		{"When did Rahul start at Sunward?", holdsTime},
		{"Where does Nadia live now?", holdsName},
		{"Who looked after Juniper?", holdsName},
		{"How many flying hours has Kwabena logged?", holdsNumber},
		{"How long is the manuscript?", holdsNumber},
		{"How did Ottilie fix the problem?", 0},
		{"What time does the stall open?", holdsTime},
		{"What did Rahul call his saison?", 0},
		{"and then, when exactly?", holdsTime},
		{"", 0},
	} {
		if got := asksFor(c.prompt); got != c.want {
			t.Errorf("asksFor(%q) = %03b, want %03b", c.prompt, got, c.want)
		}
	}
}

func TestSplitSpeaker(t *testing.T) {
	for _, c := range []struct{ text, who, rest string }{
		{"Nadia: I bought a flat!", "Nadia", "I bought a flat!"},
		{"Two words: Then Paris", "", "Two words: Then Paris"},
		{": no speaker", "", ": no speaker"},
		{"no colon here", "", "no colon here"},
		{"Time 10:30 is fine", "", "Time 10:30 is fine"},
	} {
		if who, rest := splitSpeaker(c.text); who != c.who || rest != c.rest {
			t.Errorf("splitSpeaker(%q) = %q, %q; want %q, %q", c.text, who, rest, c.who, c.rest)
		}
	}
}

func TestPromptWords(t *testing.T) {
	got := promptWords("Where does Nadia's dog sleep, and what did CALLUM say?")
	for _, w := range []string{"nadia", "callum", "dog", "where"} {
		if !got[w] {
			t.Errorf("promptWords lacks %q: %v", w, got)
		}
	}
	if got["nadia's"] {
		t.Errorf("the possessive was kept: %v", got)
	}
}

// TestSpeakerBoost: the turn spoken by the person the prompt names comes
// first, though the other speaker's shorter turn scores higher by BM25
// alone (0.619 against 0.490), whichever order the manifest lists them in.
func TestSpeakerBoost(t *testing.T) {
	for _, order := range [][2]string{
		{"Callum: Nadia got a new bike.", "Nadia: I got a new bike last week, a blue one with a basket."},
		{"Nadia: I got a new bike last week, a blue one with a basket.", "Callum: Nadia got a new bike."},
	} {
		dir := t.TempDir()
		writeAgent(t, dir, "chat", map[string]any{"notes": []any{
			map[string]any{"date": "2026-03-01", "text": order[0], "visibility": "public"},
			map[string]any{"date": "2026-04-01", "text": order[1], "visibility": "public"},
		}})
		p := ask(t, New(openStore(t, dir), Options{}), "What colour is Nadia's new bike?", visibility.Team)
		if len(p.Items) != 2 || !strings.Contains(p.Items[0].Text, "Nadia: I got") {
			t.Errorf("order %q: items %+v, want Nadia's own turn first", order, p.Items)
		}
	}
}

func TestFocusWord(t *testing.T) {
	for _, c := range []struct{ prompt, want string }{
		{"What injury did Tom get after the marathon?", "injury"},
		{"Which shoes did Tom buy?", "shoes"},
		{"What kind of guitar did Jonas buy, and where?", "guitar"},
		{"what sort of DOG is it", "dog"},
		{"Tell me which instrument she plays.", "instrument"},
		{"What did Lena bring back?", ""},
		{"Which of the two came first?", ""},
		{"What's new?", ""},
		{"When did she move?", ""},
		{"What kind of", ""},
		{"", ""},
	} {
		if got := focusWord(c.prompt); got != c.want {
			t.Errorf("focusWord(%q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}
