package docsearch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/recall/docsearch/synth"
)

// TestMaxScoreExact checks that the lexical arm's MaxScore returns what
// scoring every document does, hit for hit and score for score (ties go
// to the lower number): on a generated corpus, for its query mix and for
// random bags of its words (frequent ones included), at several depths
// and under random filters; and on a corpus of near-duplicate documents,
// where scores tie.
func TestMaxScoreExact(t *testing.T) {
	g, err := synth.Graph(3000, 7)
	if err != nil {
		t.Fatal(err)
	}
	ix := buildIndex(t, g, nil)
	rng := rand.New(rand.NewPCG(7, 11))
	var words []string
	for _, id := range ix.docs.nodes[:200] {
		words = append(words, strings.Fields(g.Node(id).Content)...)
	}
	texts := synth.Queries(g, 300, 3)
	for range 300 {
		var b strings.Builder
		for range 1 + rng.IntN(12) {
			b.WriteString(words[rng.IntN(len(words))] + " ")
		}
		texts = append(texts, b.String())
	}
	checkMaxScore(t, ix, texts, rng)

	dup := filler(400)
	for i := range dup {
		if i%3 == 0 {
			dup[i].Content += " Rain and wind again."
		}
	}
	ix = buildIndex(t, buildGraph(t, dup, nil), nil)
	checkMaxScore(t, ix, []string{"rain", "weather clouds", "sunshine rain wind again", "little report", "notes on the weather"}, rng)
}

// checkMaxScore compares MaxScore with scoring every posting (in one
// pass and by halves of the documents) and with scoring every document,
// for each query text.
func checkMaxScore(t *testing.T, ix *Index, texts []string, rng *rand.Rand) {
	t.Helper()
	a := &ix.docs
	for i, text := range texts {
		lq := a.resolve(queryTerms(text), nil)
		allowed := ix.all
		if i%3 == 1 {
			allowed = newBitset(len(a.nodes))
			for d := range a.nodes {
				if rng.IntN(4) > 0 {
					allowed.set(d)
				}
			}
		}
		for _, k := range []int{1, 10, armDepth, 1000} {
			got := a.maxScoreTop(lq, allowed, k)
			if want := a.exhaustive(lq, allowed, k); !slices.Equal(got, want) {
				t.Fatalf("query %q, top %d: MaxScore %v, every posting scored %v", text, k, got, want)
			}
			if halves := a.exhaustiveHalves(lq, allowed, k); !slices.Equal(got, halves) {
				t.Fatalf("query %q, top %d: MaxScore %v, every posting scored by halves %v", text, k, got, halves)
			}
			top := newTopK(k)
			for d := range a.nodes {
				if allowed.has(d) {
					if s := a.scoreDoc(lq, int32(d)); s > 0 {
						top.push(int32(d), s)
					}
				}
			}
			if want := top.best(); !slices.Equal(got, want) {
				t.Fatalf("query %q, top %d: MaxScore %v, every document scored %v", text, k, got, want)
			}
		}
	}
}

// TestCursorSeek checks the galloping seek of a cursor over documents
// and over passages.
func TestCursorSeek(t *testing.T) {
	ids := []int32{1, 4, 5, 9, 12, 13, 20, 31, 40}
	c := cursor{ids: ids, imps: make([]float32, len(ids))}
	c.move(0)
	for _, d := range []int32{0, 1, 2, 9, 14, 31, 32, 41, 50} {
		c.seek(d)
		want, _ := slices.BinarySearch(ids, d)
		if c.pos != max(want, c.pos) || c.pos < len(ids) && ids[c.pos] < d {
			t.Fatalf("seek(%d): at %d, want %d", d, c.pos, want)
		}
	}
	if c.doc() != endDoc {
		t.Errorf("an exhausted cursor is on %d", c.doc())
	}
	// passages 0-2 are document 0's, 3 document 1's, 4-7 document 2's
	pi := &passageIndex{doc: []int32{0, 0, 0, 1, 2, 2, 2, 2}, first: []int32{0, 3, 4, 8}}
	p := cursor{ids: []int32{1, 2, 5, 7}, imps: []float32{1, 3, 2, 5}, w: 2, pass: pi}
	p.move(0)
	if p.seek(1); p.doc() != 2 || p.bound(2) != 10 || p.end(2) != 4 {
		t.Errorf("passage cursor after seek(1): doc %d, bound %v, end %d", p.doc(), p.bound(2), p.end(2))
	}
	if p.seek(3); p.doc() != endDoc {
		t.Errorf("passage cursor after seek past the last document: on %d", p.doc())
	}
}
