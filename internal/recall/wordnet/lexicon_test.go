package wordnet

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

// writeLexicon writes a tiny WordNet database in its file formats:
//
//	nouns: thing > injury (hurt) > fracture > stress_fracture
//	                             > bruise (contusion)
//	       thing > goose (an instance, for the test)
//	       teacher, derived from the verb teach (taught)
//
// with licence headers, glosses, a syntactic marker, a multi-word lemma
// before the word a pointer names, and lines that are not records. It
// returns its directory.
func writeLexicon(t testing.TB) string {
	const licence = "  1 This software and database is being provided\n"
	return writeFiles(t, map[string]string{
		"index.noun": licence +
			"bruise n 1 1 @ 1 0 00000300\n" +
			"contusion n 1 1 @ 1 0 00000300\n" +
			"fracture n 2 2 @ ~ 2 0 00000200 00000700\n" +
			"goose n 1 1 @ 1 0 00000600\n" +
			"hurt n 1 2 @ ~ 1 0 00000100\n" +
			"injury n 1 2 @ ~ 1 0 00000100\n" +
			"stress_fracture n 1 1 @ 1 0 00000400\n" +
			"teacher n 1 1 + 1 0 00000800\n" +
			"thing n 1 1 ~ 1 0 00000500\n" +
			"broken line\n",
		"data.noun": licence +
			"00000100 26 n 02 injury 0 hurt 0 003 @ 00000500 n 0000 ~ 00000200 n 0000 ~ 00000300 n 0000 | any physical damage; \"a ~ 00000999 n 0000\"\n" +
			"00000200 26 n 01 fracture 0 002 @ 00000100 n 0000 ~ 00000400 n 0000 | a broken bone\n" +
			"00000300 26 n 02 bruise 0 contusion(p) 0 001 @ 00000100 n 0000 | a mark\n" +
			"00000400 26 n 01 stress_fracture 0 001 @ 00000200 n 0000 | a crack\n" +
			"00000500 03 n 01 thing 0 002 ~ 00000100 n 0000 ~i 00000600 n 0000 | a thing\n" +
			"00000600 05 n 01 goose 0 001 @i 00000500 n 0000 | a bird\n" +
			"00000700 04 n 01 fracture 0 000 | the act of breaking\n" +
			"00000800 18 n 02 school_teacher 0 teacher 0 001 + 00000100 v 0202 | one who teaches\n" +
			"00000900 04 n zz nonsense\n" +
			"00001000 04 n 05 short 0\n",
		"data.verb": licence +
			"00000100 31 v 02 instruct 0 teach 0 001 + 00000800 n 0202 01 + 02 00 | impart skills\n",
		"data.adj": "",
		"data.adv": "",
		"noun.exc": "geese goose\n",
		"verb.exc": "taught teach\n",
		"adj.exc":  "",
		"adv.exc":  "",
	})
}

func TestLexiconKnown(t *testing.T) {
	x, err := LoadLexicon(writeLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Goose", "geese", "bruises", "teaches", "taught", "teaching", "instruct"} {
		if !x.Known(w) {
			t.Errorf("%s is not known", w)
		}
	}
	for _, w := range []string{"treatmnet", "", "s", "stress_fracture", "sprain"} {
		if x.Known(w) {
			t.Errorf("%q is known", w)
		}
	}
	var none *Lexicon
	if none.Known("goose") {
		t.Error("a nil Lexicon knows a word")
	}
}

func TestLexiconKinds(t *testing.T) {
	x, err := LoadLexicon(writeLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	kinds, ok := x.Kinds("injury", 2, 100)
	slices.Sort(kinds)
	// A multi-word lemma is no kind a word can name; the gloss's "~
	// 00000999" is no pointer; contusion's "(p)" marker is dropped.
	if want := []string{"bruise", "contusion", "fracture", "hurt"}; !ok || !slices.Equal(kinds, want) {
		t.Errorf("Kinds(injury) = %v, %v; want %v", kinds, ok, want)
	}
	// An instance is a kind; a lemma's own word is not.
	if kinds, ok := x.Kinds("thing", 1, 100); !ok || !slices.Contains(kinds, "goose") || slices.Contains(kinds, "thing") {
		t.Errorf("Kinds(thing) = %v, %v", kinds, ok)
	}
	// Too general: more synsets below than allowed.
	if kinds, ok := x.Kinds("thing", 1, 3); ok || kinds != nil {
		t.Errorf("Kinds(thing) with 3 synsets at most = %v, %v", kinds, ok)
	}
	// Only the first senses are followed: fracture's second sense has no
	// kinds, its first has one (a multi-word lemma, so no word).
	if kinds, ok := x.Kinds("fracture", 1, 100); !ok || len(kinds) != 0 {
		t.Errorf("Kinds(fracture) = %v, %v", kinds, ok)
	}
	for _, w := range []string{"sprain", "teach", ""} { // unknown, not a noun, empty
		if _, ok := x.Kinds(w, 2, 100); ok {
			t.Errorf("%q has kinds", w)
		}
	}
}

func TestLexiconNounLemma(t *testing.T) {
	x, err := LoadLexicon(writeLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	for word, want := range map[string]string{
		"Injury": "injury", "injuries": "injury", "bruises": "bruise", "geese": "goose",
		"fractures": "fracture", "sprain": "", "": "", "stress_fracture": "", "teach": "", "taught": "",
	} {
		if got := x.NounLemma(word); got != want {
			t.Errorf("NounLemma(%q) = %q, want %q", word, got, want)
		}
	}
}

func TestLexiconRelated(t *testing.T) {
	x, err := LoadLexicon(writeLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	for word, want := range map[string][]string{
		// The pointer names teach, the second word of its synset, and
		// teacher, the second of its own (after a multi-word lemma).
		"teach":    {"taught", "teacher"},
		"teaches":  {"taught", "teach", "teacher"},
		"Taught":   {"teach"},
		"teacher":  {"teach"},
		"teachers": {"teach", "teacher"},
		"geese":    {"goose"},
		"instruct": nil,
		"sprain":   nil,
	} {
		got := x.Related(word)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("Related(%q) = %v, want %v", word, got, want)
		}
	}
}

func TestLoadLexiconErrors(t *testing.T) {
	if _, err := LoadLexicon(t.TempDir()); err == nil {
		t.Error("an empty directory loads")
	}
	dir := writeLexicon(t)
	if err := os.WriteFile(filepath.Join(dir, "index.noun"), []byte("not an index\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadLexicon(dir); err == nil {
		t.Error("an index without nouns loads")
	}
}

// TestDefaultLexicon: the lexicon built into the binary knows that a
// fracture is an injury and that a teacher teaches.
func TestDefaultLexicon(t *testing.T) {
	x := DefaultLexicon()
	if kinds, ok := x.Kinds("injury", 2, 3000); !ok || !slices.Contains(kinds, "fracture") {
		t.Errorf("Kinds(injury) lacks fracture: %v", kinds)
	}
	if _, ok := x.Kinds("entity", 2, 3000); ok {
		t.Error("entity is not too general")
	}
	for word, want := range map[string]string{"teaches": "teacher", "bought": "buy", "retire": "retirement", "children": "child"} {
		if got := x.Related(word); !slices.Contains(got, want) {
			t.Errorf("Related(%q) = %v, lacks %q", word, got, want)
		}
	}
}

// TestEmbeddedLexiconIsWordNets: with Debian's wordnet-base installed (CI
// installs it), the built-in lexicon is what LoadLexicon reads from it:
// lexicon.bin.gz was made from it and not changed since (go generate
// makes it again).
func TestEmbeddedLexiconIsWordNets(t *testing.T) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		t.Skip("wordnet-base is not installed")
	}
	x, err := LoadLexicon(DefaultDir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, DefaultLexicon()) {
		t.Error("the built-in lexicon differs from the installed WordNet's: run go generate ./internal/recall/wordnet/")
	}
}

func TestLexiconFile(t *testing.T) {
	x, err := LoadLexicon(writeLexicon(t))
	if err != nil {
		t.Fatal(err)
	}
	var file bytes.Buffer
	if err := x.Encode(&file); err != nil {
		t.Fatal(err)
	}
	y, err := ReadLexicon(bytes.NewReader(file.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("read back %+v, wrote %+v", y, x)
	}
	plain := lexiconBytes(t, x)
	for name, data := range map[string][]byte{
		"not gzip":        []byte("bourdon wordnet lexicon"),
		"cut short":       gzipped(plain[:len(plain)-3]),
		"another version": gzipped(append([]byte("bourdon wordnet lexicon\x00\x02"), plain[len(lexiconMagic):]...)),
		"trailing bytes":  gzipped(append(slices.Clone(plain), 0)),
	} {
		if _, err := ReadLexicon(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: read without an error", name)
		}
	}
}

// lexiconBytes returns x's lexicon file, decompressed.
func lexiconBytes(t testing.TB, x *Lexicon) []byte {
	var file bytes.Buffer
	if err := x.Encode(&file); err != nil {
		t.Fatal(err)
	}
	z, err := gzip.NewReader(&file)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

func gzipped(b []byte) []byte {
	var out bytes.Buffer
	z := gzip.NewWriter(&out)
	z.Write(b)
	z.Close()
	return out.Bytes()
}

// FuzzDecodeLexicon: a damaged lexicon file is refused or, when it reads,
// answers without panicking.
func FuzzDecodeLexicon(f *testing.F) {
	x, err := LoadLexicon(writeLexicon(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(lexiconBytes(f, x))
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := decodeLexicon(data)
		if err != nil {
			return
		}
		for _, w := range []string{"injury", "thing", "teaches", "geese", ""} {
			x.Kinds(x.NounLemma(w), 2, 100)
			x.Related(w)
		}
	})
}

// BenchmarkLoad reads the lexicon from the installed WordNet's text files
// and, beside it in the same run, the built-in one from the binary:
//
//	go test -run '^$' -bench Load ./internal/recall/wordnet/
func BenchmarkLoad(b *testing.B) {
	if _, err := os.Stat(filepath.Join(DefaultDir, "data.noun")); err != nil {
		b.Skip("wordnet-base is not installed")
	}
	b.Run("lexicon", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadLexicon(DefaultDir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("embedded", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadLexicon(bytes.NewReader(embeddedLexicon)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzLoadLexicon: damaged data and index files load or fail with an
// error, never panic, and what loads answers without panicking.
func FuzzLoadLexicon(f *testing.F) {
	f.Add([]byte("00000100 26 n 02 injury 0 hurt 0 001 ~ 00000200 n 0000 | x\n00000200 26 n 01 fracture 0 001 + 00000100 n 0101\n"),
		[]byte("injury n 1 1 ~ 1 0 00000100\nfracture n 1 0 1 0 00000200\n"))
	f.Add([]byte("1 2 n ff a 0 999999999999999999999 ~ 1 n 0000\n"), []byte("a n 99999999999999999 99999999999999999 x\n"))
	f.Fuzz(func(t *testing.T, data, index []byte) {
		files := map[string]string{"data.noun": string(data), "index.noun": string(index), "noun.exc": "geese goose\n"}
		for _, name := range []string{"data.verb", "data.adj", "data.adv", "verb.exc", "adj.exc", "adv.exc"} {
			files[name] = ""
		}
		dir := writeFiles(t, files)
		x, err := LoadLexicon(dir)
		if err != nil {
			return
		}
		for _, w := range []string{"injury", "fracture", "a", "geese", ""} {
			x.Kinds(x.NounLemma(w), 2, 100)
			x.Related(w)
		}
	})
}

// writeFiles writes files (name to text) in a new directory and returns
// it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
