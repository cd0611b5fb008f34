package deeper

import (
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// conversation writes one agent whose notes are the given turns, all on
// one day, tagged D1:1, D1:2, ...
func conversation(t *testing.T, turns []string, vis []string) *Service {
	dir := t.TempDir()
	notes := make([]any, len(turns))
	for i, text := range turns {
		v := "public"
		if vis != nil {
			v = vis[i]
		}
		notes[i] = map[string]any{"date": "2026-05-01", "text": text, "tags": []any{"D1:" + itoa(i+1)}, "visibility": v}
	}
	writeAgent(t, dir, "chat", map[string]any{"notes": notes})
	return New(openStore(t, dir), Options{})
}

func TestTagsAreKeysNotText(t *testing.T) {
	s := conversation(t, []string{"Ana: we planted tomatoes", "Ben: the basil died", "Ana: 10 jars of jam"}, nil)
	// The digits of a tag are no terms: "1" does not find D1:1.
	for _, it := range ask(t, s, "did we make 1 pot", visibility.Team).Items {
		if slices.Contains(it.Tags, "D1:1") {
			t.Errorf("the tag's digits matched: %+v", it)
		}
	}
	p := ask(t, s, "what was said in D1:2?", visibility.Team)
	if len(p.Items) == 0 || !slices.Equal(p.Items[0].Tags, []string{"D1:2"}) || p.Items[0].Door != DoorTag {
		t.Fatalf("the tag did not find its note first: %+v", p.Items)
	}
}

func TestNeighboursLendTheirWords(t *testing.T) {
	s := conversation(t, []string{
		"Ana: how did the marathon go?", "Ben: four hours and ten minutes!",
		"Ana: did you see the comet?", "Ben: only through clouds",
		"Ana: the bakery opens at six", "Ben: I will bring croissants",
	}, nil)
	p := ask(t, s, "marathon result", visibility.Team)
	var tags []string
	for _, it := range p.Items {
		tags = append(tags, it.Tags...)
	}
	if !slices.Contains(tags, "D1:2") {
		t.Errorf("the reply was not found by its question's words: %v", tags)
	}
}

func TestNeighboursRespectVisibility(t *testing.T) {
	s := conversation(t, []string{"Ana: lunch at noon", "Ben: the zebracorn merger is secret"}, []string{"public", "private"})
	if p := ask(t, s, "zebracorn", visibility.Public); len(p.Items) != 0 {
		t.Errorf("a private neighbour's word found a public note: %+v", p.Items)
	}
	if p := ask(t, s, "zebracorn", visibility.Private); len(p.Items) == 0 {
		t.Error("the private note itself is not found at private level")
	}
}

func TestAgentsFilter(t *testing.T) {
	dir := t.TempDir()
	for _, a := range []string{"alpha", "beta"} {
		writeAgent(t, dir, a, map[string]any{"notes": []any{
			map[string]any{"date": "2026-05-01", "text": "the deploy of the " + a + " service failed", "visibility": "public"},
		}})
	}
	s := New(openStore(t, dir), Options{})
	agentsOf := func(p Payload) []string {
		var out []string
		for _, it := range p.Items {
			out = append(out, it.Agents...)
		}
		return out
	}
	all := s.DeeperContext(t.Context(), Request{Prompt: "deploy failed", Level: visibility.Team})
	if got := agentsOf(all); !slices.Contains(got, "alpha") || !slices.Contains(got, "beta") {
		t.Fatalf("without a filter: %v", got)
	}
	only := s.DeeperContext(t.Context(), Request{Prompt: "deploy failed", Level: visibility.Team, Agents: []string{"beta"}})
	if got := agentsOf(only); !slices.Equal(got, []string{"beta"}) {
		t.Errorf("agents [beta]: %v", got)
	}
	none := s.DeeperContext(t.Context(), Request{Prompt: "deploy failed", Level: visibility.Team, Agents: []string{"gamma"}})
	if len(none.Items) != 0 || none.Reason == "" {
		t.Errorf("an unknown agent: %+v", none)
	}
	denied := s.DeeperContext(t.Context(), Request{Prompt: "deploy failed", Level: visibility.Team, Agents: []string{"beta"},
		Reader: func(a string) bool { return a == "alpha" }})
	if len(denied.Items) != 0 {
		t.Errorf("the filter widened the reader: %+v", denied.Items)
	}
}

func TestEntityWithoutSummaryTakesNoSlot(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "alpha", map[string]any{
		"known_entities": []any{map[string]any{"name": "Quokka Relay", "type": "project", "visibility": "public"}},
		"notes":          []any{map[string]any{"date": "2026-05-01", "text": "Quokka Relay drops frames under load", "related_entities": []any{"Quokka Relay"}, "visibility": "public"}},
	})
	p := ask(t, New(openStore(t, dir), Options{}), "Quokka Relay", visibility.Team)
	for _, it := range p.Items {
		if it.Kind == "entity" {
			t.Errorf("an entity without a summary took a slot: %+v", it)
		}
	}
	if len(p.Items) != 1 || len(p.Entities) != 1 {
		t.Errorf("want the note as the one item and the entity among entities: %+v", p)
	}
}

func TestNamedAgentsWeighMore(t *testing.T) {
	dir := t.TempDir()
	for a, entity := range map[string]string{"alpha": "Wombat Gate", "beta": "Quokka Relay"} {
		writeAgent(t, dir, a, map[string]any{
			"known_entities": []any{map[string]any{"name": entity, "type": "project", "summary": "a message relay", "visibility": "public"}},
			"notes": []any{
				map[string]any{"date": "2026-05-01", "text": "the nightly deploy of " + a + " failed", "visibility": "public"},
			},
		})
	}
	p := ask(t, New(openStore(t, dir), Options{}), "why did the Quokka Relay nightly deploy fail?", visibility.Team)
	var notes []string
	for _, it := range p.Items {
		if it.Kind == "note" {
			notes = append(notes, it.Agents...)
		}
	}
	if len(notes) != 2 || notes[0] != "beta" {
		t.Errorf("the note of the agent publishing the named entity should come first: %v", notes)
	}
}

func TestNeighboursAreOfOneDay(t *testing.T) {
	dir := t.TempDir()
	writeAgent(t, dir, "chat", map[string]any{"notes": []any{
		map[string]any{"date": "2026-05-01T10:00:00Z", "text": "Ana: how did the marathon go?", "tags": []any{"a"}, "visibility": "public"},
		map[string]any{"date": "2026-05-01T10:01:00Z", "text": "Ben: four hours and ten minutes!", "tags": []any{"b"}, "visibility": "public"},
		map[string]any{"date": "2026-05-02", "text": "Ben: my legs still hurt", "tags": []any{"c"}, "visibility": "public"},
	}})
	var tags []string
	for _, it := range ask(t, New(openStore(t, dir), Options{}), "marathon", visibility.Team).Items {
		tags = append(tags, it.Tags...)
	}
	if !slices.Contains(tags, "b") || slices.Contains(tags, "c") {
		t.Errorf("want the turns of the same day, not the next day's: %v", tags)
	}
}
