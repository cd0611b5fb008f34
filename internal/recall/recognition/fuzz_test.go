package recognition

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// FuzzDetect feeds arbitrary prompts, names and aliases to the index: it
// must never panic, must answer like the reference's algorithm run over
// the merged rows, and must keep the fragment within its bounds.
func FuzzDetect(f *testing.F) {
	for _, seed := range [][3]string{
		{"what about Bourdon", "Bourdon", "NeuroLayer"},
		{"i deployed to a NAS box, the bananas were fine", "NAS", ""},
		{"the build ILTTed yesterday", "ILTT", "if_lift_then_that"},
		{"where are we on the Multi Word Project", "Multi Word Project", "MWP"},
		{"Café ☕ 日本 \u212aey", "\u212aey", "key"},
		{"", "  ", "?"},
		{"a a a a a a a a", "a a", "a"},
		{"password https://x.y/z api_key", "api key", "password"},
	} {
		f.Add(seed[0], seed[1], seed[2], uint8(0))
	}
	f.Fuzz(func(t *testing.T, prompt, name, alias string, vis uint8) {
		model := map[string][]Entity{
			"a": {
				{Name: name, Aliases: []string{alias}, Visibility: levels[vis%3], Summary: prompt},
				{Name: "Bourdon", Aliases: []string{alias, name}, Tags: []string{alias}},
			},
			"b": {
				{Name: strings.ToUpper(name), Type: alias, Summary: name, Visibility: levels[(vis/3)%3]},
				{Name: alias, Aliases: []string{prompt}},
			},
		}
		x := NewIndex()
		x.Update("b", model["b"])
		x.Update("a", model["a"])
		for _, level := range levels {
			got := x.Detect(prompt, level)
			if diff := cmp.Diff(naiveDetect(prompt, model, level), got); diff != "" {
				t.Fatalf("Detect at %v differs from the reference (-want +got):\n%s", level, diff)
			}
			res := NewResult(got)
			if n := utf8.RuneCountInString(res.PromptContext); n > MaxContextChars {
				t.Fatalf("fragment has %d code points", n)
			}
			NewResult(DetectEntities(prompt, model["a"], level))
		}
		x.Remove("a")
		x.Update("b", nil)
		if ms := x.Detect(prompt, levels[2]); ms != nil {
			t.Fatalf("empty index matched %v", names(ms))
		}
	})
}
