package analyze

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/docsearch/synth"
)

// nearestByMap is Nearest as it was first written, counting the shared
// trigrams in a map: the oracle of the flat tally.
func nearestByMap(s *Speller, word string) (int32, float64, bool) {
	if len([]rune(word)) < 4 {
		return 0, 0, false
	}
	gs := trigrams(word)
	shared := map[int32]int{}
	for _, g := range gs {
		for _, id := range s.postings[g] {
			shared[id]++
		}
	}
	best, bestDice := int32(-1), 0.0
	for id, c := range shared {
		d := 2 * float64(c) / float64(len(gs)+int(s.count[id]))
		if d > bestDice || d == bestDice && id < best {
			best, bestDice = id, d
		}
	}
	if best < 0 || bestDice < MinSimilarity {
		return 0, 0, false
	}
	return best, bestDice, true
}

// TestSpellerOracle checks Nearest against nearestByMap on the terms of a
// generated docs corpus (package synth, as docs_search's benchmark): for
// the terms of its query mix, for misspellings of its terms (random
// deletions, transpositions, substitutions and insertions, one to three
// of them), for terms of the vocabulary itself, and for a few edge
// cases; and from several goroutines at once, which share the tallies.
func TestSpellerOracle(t *testing.T) {
	s, words, err := spellerCase()
	if err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, words []string) {
		for _, w := range words {
			id, sim, ok := s.Nearest(w)
			wid, wsim, wok := nearestByMap(s, w)
			if id != wid || sim != wsim || ok != wok {
				t.Errorf("Nearest(%q) = %d, %v, %v; the map finds %d, %v, %v", w, id, sim, ok, wid, wsim, wok)
				return
			}
		}
	}
	check(t, words)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { check(t, words[i*len(words)/4:(i+1)*len(words)/4]) })
	}
	wg.Wait()
}

// BenchmarkNearest is Nearest over the words of TestSpellerOracle (most
// of them misspelt), beside nearestByMap, the way it counted before.
//
//	go test -run '^$' -bench Nearest ./internal/recall/analyze/
func BenchmarkNearest(b *testing.B) {
	s, words, err := spellerCase()
	if err != nil {
		b.Fatal(err)
	}
	for _, run := range []struct {
		name    string
		nearest func(*Speller, string) (int32, float64, bool)
	}{{"tally", (*Speller).Nearest}, {"map", nearestByMap}} {
		b.Run(run.name, func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				run.nearest(s, words[i%len(words)])
			}
		})
	}
}

// spellerCase is the speller of TestSpellerOracle and its words.
func spellerCase() (*Speller, []string, error) {
	g, err := synth.Graph(2000, 3)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]bool{}
	var vocab []string
	for id := range g.Len() {
		for _, term := range Terms(g.Node(graph.NodeID(id)).Content) {
			if !seen[term] {
				seen[term] = true
				vocab = append(vocab, term)
			}
		}
	}
	s := NewSpeller(vocab)
	rng := rand.New(rand.NewPCG(3, 5))
	words := []string{"", "abc", "abcd", "ééé", "éééé", "^^^^", "$$$$", strings.Repeat("ab", 200), strings.Repeat("x", 300)}
	for _, q := range synth.Queries(g, 400, 4) {
		words = append(words, Terms(q)...)
	}
	for range 500 {
		words = append(words, vocab[rng.IntN(len(vocab))])
	}
	const letters = "abcdefghijklmnopqrstuvwxyzé"
	for range 2000 {
		w := []rune(vocab[rng.IntN(len(vocab))])
		for range 1 + rng.IntN(3) {
			if len(w) < 2 {
				break
			}
			i := rng.IntN(len(w) - 1)
			switch rng.IntN(4) {
			case 0:
				w = append(w[:i], w[i+1:]...)
			case 1:
				w[i], w[i+1] = w[i+1], w[i]
			case 2:
				w[i] = []rune(letters)[rng.IntN(len([]rune(letters)))]
			default:
				w = append(w[:i], append([]rune{[]rune(letters)[rng.IntN(len([]rune(letters)))]}, w[i:]...)...)
			}
		}
		words = append(words, string(w))
	}
	return s, words, nil
}
