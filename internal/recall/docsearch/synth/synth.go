// Package synth generates a documentation graph of any size, the same
// for the same size and seed, for benchmarks: learning paths, modules,
// units and docs with realistic text lengths, words drawn from a
// vocabulary of made-up words with Zipfian frequencies, topical clusters
// (each module's nodes share topic words), and the typed edges, products,
// moniker ranges, internal docs and supersededBy pointers of a real
// corpus. Queries returns a varied query mix over such a graph.
package synth

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Shape of the generated corpus.
const (
	vocabSize     = 30000
	zipfS         = 1.07
	topicWords    = 40
	unitsPerMod   = 8
	modulesPerLP  = 6
	docsShare     = 10 // one node in docsShare is a Doc
	products      = 8
	bodyWordsMin  = 200
	bodyWordsSpan = 250
)

// gen draws the words of one graph.
type gen struct {
	rng   *rand.Rand
	zipf  *rand.Zipf
	vocab []string
}

func newGen(seed uint64) *gen {
	rng := rand.New(rand.NewPCG(seed, seed^0x5eed))
	g := &gen{rng: rng, zipf: rand.NewZipf(rng, zipfS, 1, vocabSize-1)}
	g.vocab = vocabulary(rand.New(rand.NewPCG(1, 2)), vocabSize)
	return g
}

// vocabulary makes n distinct pronounceable words of two to four
// syllables.
func vocabulary(rng *rand.Rand, n int) []string {
	onsets := []string{"b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "tr", "pl", "gr", "sh", "ch"}
	vowels := []string{"a", "e", "i", "o", "u", "ai", "ou", "ea"}
	codas := []string{"", "", "n", "r", "s", "t", "l", "m", "x"}
	seen := map[string]bool{}
	out := make([]string, 0, n)
	for len(out) < n {
		var b strings.Builder
		for range 2 + rng.IntN(3) {
			b.WriteString(onsets[rng.IntN(len(onsets))])
			b.WriteString(vowels[rng.IntN(len(vowels))])
		}
		b.WriteString(codas[rng.IntN(len(codas))])
		if w := b.String(); !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// word draws a word: from the topic with probability 1/4, else from the
// whole vocabulary by Zipf's law.
func (g *gen) word(topic []string) string {
	if len(topic) > 0 && g.rng.IntN(4) == 0 {
		return topic[g.rng.IntN(len(topic))]
	}
	return g.vocab[g.zipf.Uint64()]
}

func (g *gen) words(n int, topic []string) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word(topic)
	}
	return strings.Join(ws, " ")
}

// body writes paragraphs of 40 to 80 words, with a heading every few.
func (g *gen) body(n int, topic []string) (string, []any) {
	var b strings.Builder
	var heads []any
	for i := 0; n > 0; i++ {
		if i%3 == 0 {
			h := g.words(2+g.rng.IntN(3), topic)
			heads = append(heads, h)
			fmt.Fprintf(&b, "## %s\n\n", h)
		}
		p := min(n, 40+g.rng.IntN(40))
		b.WriteString(g.words(p, topic))
		b.WriteString(".\n\n")
		n -= p
	}
	return b.String(), heads
}

func (g *gen) topic() []string {
	t := make([]string, topicWords)
	for i := range t {
		t[i] = g.vocab[200+g.rng.IntN(vocabSize-200)]
	}
	return t
}

// Graph returns a graph of n searchable nodes (and a few product nodes),
// the same for the same n and seed: one node in ten a Doc, the others
// learning paths of six modules of eight units.
func Graph(n int, seed uint64) (*graph.Graph, error) {
	g := newGen(seed)
	b := graph.NewBuilder()
	b.SetMonikers([]graph.Moniker{
		{Name: "alpha-1.0", Product: "alpha", Order: 100, Status: "stable"},
		{Name: "alpha-2.0", Product: "alpha", Order: 200, Status: "stable", Default: true},
		{Name: "beta-1.0", Product: "beta", Order: 100, Status: "stable", Default: true},
	})
	for p := range products {
		props := map[string]any{"title": fmt.Sprintf("product %d", p), "name": productName(p)}
		if _, err := b.AddNode(graph.Node{UID: productUID(p), Label: graph.Product, Props: props}); err != nil {
			return nil, err
		}
	}
	var edges [][3]string
	edge := func(from, to string, t graph.EdgeType) { edges = append(edges, [3]string{from, to, string(t)}) }
	var docs, units []string
	lp, mod := "", ""
	modules, unitsIn, product := 0, 0, 0
	var topic []string // of the current module
	add := func(label graph.Label, uid string, bodyWords int, topic []string, product int) error {
		node := graph.Node{UID: uid, Label: label, Props: map[string]any{
			"title":   g.words(3+g.rng.IntN(5), topic),
			"summary": g.words(15+g.rng.IntN(20), topic),
		}}
		node.Content, node.Props["headings"] = g.body(bodyWords, topic)
		if label != graph.Unit {
			node.Props["products"] = []any{productName(product)}
		}
		if g.rng.IntN(20) == 0 {
			node.Props["monikerRange"] = []string{">=alpha-2.0", "alpha-1.0 || beta-1.0", "<alpha-2.0"}[g.rng.IntN(3)]
		}
		if label == graph.Doc && g.rng.IntN(30) == 0 {
			node.Props["visibility"] = "internal"
		}
		_, err := b.AddNode(node)
		return err
	}
	for count := 0; count < n; count++ {
		var err error
		switch {
		case count%docsShare == docsShare-1:
			uid := fmt.Sprintf("synth.docs.d%06d", count)
			p := g.rng.IntN(products)
			err = add(graph.Doc, uid, bodyWordsMin+g.rng.IntN(bodyWordsSpan), g.topic(), p)
			edge(uid, productUID(p), graph.AppliesTo)
			if len(docs) > 0 {
				edge(uid, docs[g.rng.IntN(len(docs))], graph.Xref)
				if g.rng.IntN(100) == 0 {
					edge(docs[len(docs)-1], uid, graph.SupersededBy)
				}
			}
			if len(units) > 0 {
				edge(uid, units[g.rng.IntN(len(units))], graph.Xref)
			}
			docs = append(docs, uid)
		case lp == "" || modules == modulesPerLP && unitsIn == unitsPerMod:
			lp, modules, unitsIn = fmt.Sprintf("synth.paths.p%06d", count), 0, unitsPerMod
			product = g.rng.IntN(products)
			err = add(graph.LearningPath, lp, 0, nil, product)
			edge(lp, productUID(product), graph.AppliesTo)
		case unitsIn == unitsPerMod:
			mod, unitsIn = fmt.Sprintf("synth.m%06d", count), 0
			modules++
			topic = g.topic()
			err = add(graph.Module, mod, 60+g.rng.IntN(60), topic, product)
			edge(mod, lp, graph.PartOf)
			edge(mod, productUID(product), graph.AppliesTo)
		default:
			uid := fmt.Sprintf("%s.u%06d", mod, count)
			unitsIn++
			err = add(graph.Unit, uid, bodyWordsMin+g.rng.IntN(bodyWordsSpan), topic, product)
			edge(uid, mod, graph.PartOf)
			units = append(units, uid)
		}
		if err != nil {
			return nil, err
		}
	}
	for _, e := range edges {
		if err := b.AddEdge(e[0], e[1], graph.EdgeType(e[2]), 1); err != nil {
			return nil, err
		}
	}
	return b.Build(), nil
}

func productName(p int) string { return fmt.Sprintf("p%d", p) }

func productUID(p int) string { return fmt.Sprintf("synth.products.p%d", p) }

// Queries returns n queries over g, the same for the same arguments: a
// mix of exact titles, two to four words of a node's summary, the same
// with a misspelt word, and six to ten words of a node's body.
func Queries(g *graph.Graph, n int, seed uint64) []string {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e37))
	var docs []graph.NodeID
	for _, l := range []graph.Label{graph.Unit, graph.Module, graph.Doc, graph.LearningPath} {
		docs = append(docs, g.ByLabel(l)...)
	}
	out := make([]string, n)
	for i := range out {
		node := g.Node(docs[rng.IntN(len(docs))])
		switch i % 4 {
		case 0:
			out[i] = node.Title()
		case 1:
			out[i] = span(rng, strings.Fields(node.Str("summary")), 2+rng.IntN(3))
		case 2:
			out[i] = misspell(rng, span(rng, strings.Fields(node.Str("summary")), 2+rng.IntN(3)))
		default:
			out[i] = span(rng, strings.Fields(strings.ReplaceAll(node.Content, "#", "")), 6+rng.IntN(5))
		}
		if out[i] == "" {
			out[i] = node.Title()
		}
	}
	return out
}

// span returns k consecutive words of ws from a random start.
func span(rng *rand.Rand, ws []string, k int) string {
	if len(ws) <= k {
		return strings.Join(ws, " ")
	}
	s := rng.IntN(len(ws) - k)
	return strings.Join(ws[s:s+k], " ")
}

// misspell swaps two adjacent letters of the query's longest word.
func misspell(rng *rand.Rand, q string) string {
	ws := strings.Fields(q)
	long := 0
	for i, w := range ws {
		if len(w) > len(ws[long]) {
			long = i
		}
	}
	if w := []byte(ws[long]); len(w) > 3 {
		j := 1 + rng.IntN(len(w)-2)
		w[j], w[j+1] = w[j+1], w[j]
		ws[long] = string(w)
	}
	return strings.Join(ws, " ")
}
