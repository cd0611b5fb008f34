package embed

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// topicCorpus returns n short texts, two about cats then two about
// rockets and so on, words drawn in turn from each topic's list, and two
// words every text has.
func topicCorpus(n int) []string {
	cats := strings.Fields("cat purr whisker fur kitten meow paw tail")
	rockets := strings.Fields("rocket launch orbit fuel booster thrust payload nozzle")
	texts := make([]string, n)
	for i := range texts {
		words := cats
		if i/2%2 == 1 {
			words = rockets
		}
		var b strings.Builder
		b.WriteString("system data ")
		for j := range 5 {
			fmt.Fprintf(&b, "%s ", words[(i/2+j*3)%len(words)])
		}
		texts[i] = b.String()
	}
	return texts
}

func cosine(a, b []float32) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i] * b[i])
		na += float64(a[i] * a[i])
		nb += float64(b[i] * b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

func embedOne(t *testing.T, e Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	return v[0]
}

func TestTrainCorpusRelatesCooccurringWords(t *testing.T) {
	m := TrainCorpus(topicCorpus(60), 8)
	if m.Dim() != 8 || !strings.HasPrefix(m.Name(), "lsa:d8:") {
		t.Fatalf("Dim %d, Name %q", m.Dim(), m.Name())
	}
	// "whisker" and "kitten" never need to share a text to be close:
	// they share the cat texts' other words.
	whisker, kitten, booster := embedOne(t, m, "whisker"), embedOne(t, m, "kitten"), embedOne(t, m, "booster")
	if near, far := cosine(whisker, kitten), cosine(whisker, booster); near <= far+0.3 {
		t.Errorf("cos(whisker, kitten) = %.2f, cos(whisker, booster) = %.2f: want the cat words closer", near, far)
	}
	doc := embedOne(t, m, "the cat purrs and its fur")
	if cosine(doc, kitten) <= cosine(doc, booster) {
		t.Error("a text about cats is closer to booster than to kitten")
	}
}

func TestEmbedRepairsMisspellingsInShortTexts(t *testing.T) {
	m := TrainCorpus(topicCorpus(60), 8)
	right, wrong := embedOne(t, m, "booster"), embedOne(t, m, "bosster")
	if c := cosine(right, wrong); c < 0.99 {
		t.Errorf("cos(booster, bosster) = %.3f, want the misspelling repaired", c)
	}
	long := strings.Repeat("rocket ", repairTerms) + "kiten"
	if c := cosine(embedOne(t, m, long), embedOne(t, m, strings.Repeat("rocket ", repairTerms))); c < 0.999 {
		t.Errorf("an unknown word of a long text moved its vector (cos %.4f)", c)
	}
}

func TestEmbedUnknownTextIsZero(t *testing.T) {
	m := TrainCorpus(topicCorpus(20), 4)
	for _, x := range embedOne(t, m, "zzz qqq") {
		if x != 0 {
			t.Fatal("a text of unknown words has a non-zero vector")
		}
	}
	v := embedOne(t, m, "rocket")
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	if math.Abs(n-1) > 1e-5 {
		t.Errorf("|v|² = %f, want 1", n)
	}
}

func TestTrainCorpusIsDeterministic(t *testing.T) {
	texts := topicCorpus(300)
	prev := runtime.GOMAXPROCS(1)
	one := TrainCorpus(texts, 16).Name()
	runtime.GOMAXPROCS(max(prev, 2))
	many := TrainCorpus(texts, 16).Name()
	runtime.GOMAXPROCS(prev)
	if one != many {
		t.Errorf("one CPU gives %s, several give %s", one, many)
	}
	if other := TrainCorpus(texts[1:], 16).Name(); other == one {
		t.Error("two corpora give one model name")
	}
}

func TestTrainCorpusEdgeCases(t *testing.T) {
	for _, texts := range [][]string{nil, {""}, {"one"}, {"same words", "same words"}} {
		m := TrainCorpus(texts, 0)
		if m.Dim() != DefaultDim {
			t.Errorf("dim %d, want the default", m.Dim())
		}
		if _, err := m.Embed(context.Background(), []string{"same"}); err != nil {
			t.Error(err)
		}
	}
}

func TestEmbedHonoursCancellation(t *testing.T) {
	m := TrainCorpus(topicCorpus(20), 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"cat"}); err == nil {
		t.Error("a cancelled context embeds")
	}
}

// TestFoldTerms trains on half the documents: a term only the other half
// has gets its vector by folding in, close to the words it co-occurs with.
func TestFoldTerms(t *testing.T) {
	texts := topicCorpus(80)
	for i := 3; i < len(texts); i += 4 { // rockets; the sample below has the even rows
		texts[i] += " apogee"
	}
	docs, terms := countTexts(texts)
	vocab, idf := selectVocab(docs, terms, len(texts))
	rows := weightRows(docs, vocab, idf)
	vecs := decompose(rows, len(idf), 6, len(texts)/2)
	vec := func(term string) []float32 {
		for id, s := range terms {
			if s == term {
				v := vocab[id]
				return vecs[int(v)*6 : int(v+1)*6]
			}
		}
		t.Fatalf("no term %q", term)
		return nil
	}
	centroid := func(words string) []float32 {
		c := make([]float32, 6)
		for _, w := range strings.Fields(words) {
			for i, x := range vec(w) {
				c[i] += x
			}
		}
		return c
	}
	apogee := vec("apogee")
	rockets, cats := centroid("rocket launch orbit fuel booster thrust payload"), centroid("cat purr whisker fur kitten meow paw tail")
	if near, far := cosine(apogee, rockets), cosine(apogee, cats); near <= far+0.3 {
		t.Errorf("folded term: cos(apogee, rockets) = %.2f, cos(apogee, cats) = %.2f", near, far)
	}
}

// words is a Dictionary of the words listed.
type words map[string]bool

func (w words) Known(word string) bool { return w[word] }

func TestWithDictionaryRepairsOnlyMisspelt(t *testing.T) {
	m := TrainCorpus([]string{"the heater trips when the watchdog fires", "a change request moves through stages", "the heater stays off"}, 4)
	d := m.WithDictionary(words{"hang": true})
	if d.Name() != m.Name() {
		t.Error("the dictionary changed the model's name")
	}
	ctx := context.Background()
	vs, err := d.Embed(ctx, []string{"hang", "heatr"})
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range vs[0] {
		if x != 0 {
			t.Fatalf("a real word outside the vocabulary was repaired: %v", vs[0])
		}
	}
	plain, _ := m.Embed(ctx, []string{"heatr"})
	if !slices.Equal(vs[1], plain[0]) {
		t.Error("a misspelt word is not repaired as without a dictionary")
	}
}
