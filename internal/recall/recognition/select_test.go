package recognition

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPromptPhrasesNames(t *testing.T) {
	p := NewPromptPhrases("What about the NAS box, Atlas-cedar and atlas delta?")
	for phrase, want := range map[string]bool{
		"nas": true, "nas box": true, "atlas cedar": true, "atlas delta": true, "cedar and atlas": true,
		"atlas": true, "box atlas": true, "atlas box": false, "bananas": false, "delta x": false, "what about the": true,
		"cedar atlas": false, "": false,
	} {
		if got := p.Names(phrase); got != want {
			t.Errorf("Names(%q) = %v, want %v", phrase, got, want)
		}
	}
	if NewPromptPhrases("").Names("x") {
		t.Error("an empty prompt names nothing")
	}
}

func TestKeysOf(t *testing.T) {
	got := KeysOf(&Entity{Name: "  Atlas-Cedar ", Aliases: []string{"atlas cedar", " AC ", "", "日本"}})
	want := Keys{Merge: "atlas-cedar", Phrases: []string{"atlas cedar", "ac"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("KeysOf (-want +got):\n%s", diff)
	}
	if k := KeysOf(&Entity{Name: "   ", Aliases: []string{"x"}}); k.Merge != "" || k.Phrases != nil {
		t.Errorf("a blank name has no keys: %+v", k)
	}
}

// TestSelectionDetectsWhatTheWholeIndexDetects pins the promise of Select:
// an index of the selected entities answers the prompt exactly as an
// index of all of them.
func TestSelectionDetectsWhatTheWholeIndexDetects(t *testing.T) {
	matched, queries, smaller := 0, 0, 0
	agents := []string{"a", "b", "c", "claude-code", "codex"}
	for seed := range uint64(40) {
		w := newRandomWorld(seed)
		all := make([][]Entity, len(agents))
		keys := make([][]Keys, len(agents))
		whole := NewIndex()
		total := 0
		for i, id := range agents {
			all[i] = w.entities(w.r.IntN(30))
			total += len(all[i])
			for j := range all[i] {
				keys[i] = append(keys[i], KeysOf(&all[i][j]))
			}
			whole.Update(id, all[i])
		}
		for q := range 30 {
			prompt := w.prompt()
			sel := NewPromptPhrases(prompt).Select(all, keys)
			part := NewIndex()
			n := 0
			for i, id := range agents {
				part.Update(id, sel[i])
				n += len(sel[i])
			}
			if n < total {
				smaller++
			}
			for _, level := range levels {
				want := whole.Prepare(prompt, level)
				got := part.Prepare(prompt, level)
				queries++
				if len(want.Matches) > 0 {
					matched++
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("seed %d query %d: %q at %v: selection and whole index differ (-whole +selection):\n%s", seed, q, prompt, level, diff)
				}
			}
		}
	}
	if matched < queries/4 || smaller < 40*30/2 {
		t.Errorf("%d of %d queries matched, %d selections were smaller than the library: the test is too weak", matched, queries, smaller)
	}
}
