package wordnet

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeNouns writes a tiny noun taxonomy in WordNet's file formats:
//
//	thing > injury > fracture > stress_fracture
//	              > bruise (contusion)
//	thing > goose
//
// with a licence header, a gloss, a syntactic marker and lines that are
// not records. It returns its directory.
func writeNouns(t *testing.T) string {
	return writeFiles(t, map[string]string{
		"index.noun": "  1 This software and database is being provided\n" +
			"bruise n 1 1 @ 1 0 00000300\n" +
			"contusion n 1 1 @ 1 0 00000300\n" +
			"fracture n 2 2 @ ~ 2 0 00000200 00000700\n" +
			"goose n 1 1 @ 1 0 00000600\n" +
			"hurt n 1 1 @ 1 0 00000100\n" +
			"injury n 1 2 @ ~ 1 0 00000100\n" +
			"stress_fracture n 1 1 @ 1 0 00000400\n" +
			"thing n 1 1 ~ 1 0 00000500\n" +
			"broken line\n",
		"data.noun": "  1 This software and database is being provided\n" +
			"00000100 26 n 02 injury 0 hurt 0 003 @ 00000500 n 0000 ~ 00000200 n 0000 ~ 00000300 n 0000 | any physical damage; \"a ~ 00000999 n 0000\"\n" +
			"00000200 26 n 01 fracture 0 002 @ 00000100 n 0000 ~ 00000400 n 0000 | a broken bone\n" +
			"00000300 26 n 02 bruise 0 contusion(p) 0 001 @ 00000100 n 0000 | a mark\n" +
			"00000400 26 n 01 stress_fracture 0 001 @ 00000200 n 0000 | a crack\n" +
			"00000500 03 n 01 thing 0 002 ~ 00000100 n 0000 ~i 00000600 n 0000 | a thing\n" +
			"00000600 05 n 01 goose 0 001 @i 00000500 n 0000 | a bird\n" +
			"00000700 04 n 01 fracture 0 000 | the act of breaking\n" +
			"00000800 04 n zz nonsense\n" +
			"00000900 04 n 05 short 0\n",
		"noun.exc": "geese goose\n",
	})
}

func TestNounKinds(t *testing.T) {
	n, err := LoadNouns(writeNouns(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds, ok := n.Kinds("injury", 2, 100)
	slices.Sort(kinds)
	// A multi-word lemma is no kind a word can name; the gloss's "~
	// 00000999" is no pointer; contusion's "(p)" marker is dropped.
	if want := []string{"bruise", "contusion", "fracture", "hurt"}; !ok || !slices.Equal(kinds, want) {
		t.Errorf("Kinds(injury) = %v, %v; want %v", kinds, ok, want)
	}
	// An instance is a kind; a lemma's own word is not.
	if kinds, ok := n.Kinds("thing", 1, 100); !ok || !slices.Contains(kinds, "goose") || slices.Contains(kinds, "thing") {
		t.Errorf("Kinds(thing) = %v, %v", kinds, ok)
	}
	// Too general: more synsets below than allowed.
	if kinds, ok := n.Kinds("thing", 1, 3); ok || kinds != nil {
		t.Errorf("Kinds(thing) with 3 synsets at most = %v, %v", kinds, ok)
	}
	// Only the first senses are followed: fracture's second sense has no
	// kinds, its first has one (a multi-word lemma, so no word).
	if kinds, ok := n.Kinds("fracture", 1, 100); !ok || len(kinds) != 0 {
		t.Errorf("Kinds(fracture) = %v, %v", kinds, ok)
	}
	if _, ok := n.Kinds("sprain", 2, 100); ok {
		t.Error("a noun the taxonomy lacks has kinds")
	}
}

func TestNounLemma(t *testing.T) {
	n, err := LoadNouns(writeNouns(t))
	if err != nil {
		t.Fatal(err)
	}
	for word, want := range map[string]string{
		"Injury": "injury", "injuries": "injury", "bruises": "bruise", "geese": "goose",
		"fractures": "fracture", "sprain": "", "": "", "stress_fracture": "",
	} {
		if got := n.Lemma(word); got != want {
			t.Errorf("Lemma(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestLoadNounsErrors(t *testing.T) {
	if _, err := LoadNouns(t.TempDir()); err == nil {
		t.Error("an empty directory loads")
	}
	dir := writeNouns(t)
	if err := os.WriteFile(filepath.Join(dir, "index.noun"), []byte("not an index\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadNouns(dir); err == nil {
		t.Error("an index without nouns loads")
	}
}

// TestDefaultNouns: with Debian's wordnet-base installed, the real
// taxonomy reads and knows that a fracture is an injury.
func TestDefaultNouns(t *testing.T) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		t.Skip("wordnet-base is not installed")
	}
	n := DefaultNouns()
	if n == nil {
		t.Fatal("the installed taxonomy does not read")
	}
	if kinds, ok := n.Kinds("injury", 2, 3000); !ok || !slices.Contains(kinds, "fracture") {
		t.Errorf("Kinds(injury) lacks fracture: %v", kinds)
	}
	if _, ok := n.Kinds("entity", 2, 3000); ok {
		t.Error("entity is not too general")
	}
}

// BenchmarkLoad reads the installed noun taxonomy, and beside it, in the
// same run, the word list docs search has read at start since it took
// WordNet as its dictionary:
//
//	go test -run '^$' -bench Load ./internal/recall/wordnet/
func BenchmarkLoad(b *testing.B) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		b.Skip("wordnet-base is not installed")
	}
	b.Run("nouns", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadNouns(DefaultDir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("dictionary", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(DefaultDir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
