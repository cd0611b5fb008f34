package embed

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// repairTerms is the longest text, in terms, whose unknown words Embed
// repairs: in a query-sized text a word the corpus never saw is most
// likely misspelt, in a long one most likely a rare word.
const repairTerms = 64

// Model is an embedder trained on a corpus by TrainCorpus. It is safe for
// concurrent use.
type Model struct {
	name    string
	dim     int
	vocab   map[string]int32
	terms   []string  // by vocabulary number
	idf     []float32 // by vocabulary number
	vecs    []float32 // len(terms) rows of dim
	speller *analyze.Speller
	dict    Dictionary // nil: repair every unknown word
}

// Dictionary tells real words from misspelt ones (a wordnet.Lexicon is
// one).
type Dictionary interface {
	Known(word string) bool
}

// WithDictionary returns the model with a dictionary: in a query-sized
// text, a word outside the vocabulary that the dictionary knows is a real
// word the corpus does not use, and is left out rather than repaired into
// the vocabulary word nearest in spelling (which may mean something else
// entirely). The vectors, and so the name, are the model's.
func (m *Model) WithDictionary(d Dictionary) *Model {
	c := *m
	c.dict = d
	return &c
}

// Name is "lsa:d{dim}:" and a fingerprint of the vocabulary and vectors,
// so that two models trained on different corpora never pass for one.
func (m *Model) Name() string { return m.name }

// Dim is the dimension of the vectors.
func (m *Model) Dim() int { return m.dim }

// VocabSize is the number of terms the model has vectors for.
func (m *Model) VocabSize() int { return len(m.terms) }

// Embed returns the unit vector of each text: the sum of its terms'
// vectors weighted (1+ln tf)·idf, normalized. In texts of at most 64
// terms, a word outside the vocabulary counts as the vocabulary term
// nearest in spelling (analyze.Speller), weighted by their similarity. A
// text with no known term gets the zero vector.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	const chunk = 64
	for lo := 0; lo < len(texts); lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		hi := min(lo+chunk, len(texts))
		parallel(hi-lo, func(a, b int) {
			for i := lo + a; i < lo+b; i++ {
				out[i] = m.embed(texts[i])
			}
		})
	}
	return out, nil
}

func (m *Model) embed(text string) []float32 {
	tf := map[string]int{}
	var real map[string]bool // terms of dictionary words outside the vocabulary
	n := 0
	analyze.Each(text, func(t string, start, end int) {
		tf[t]++
		n++
		if _, ok := m.vocab[t]; !ok && m.dict != nil && m.dict.Known(text[start:end]) {
			if real == nil {
				real = map[string]bool{}
			}
			real[t] = true
		}
	})
	acc := make([]float64, m.dim)
	for t, f := range tf {
		id, ok := m.vocab[t]
		sim := 1.0
		if !ok {
			if n > repairTerms || real[t] {
				continue
			}
			if id, sim, ok = m.speller.Nearest(t); !ok {
				continue
			}
		}
		w := sim * (1 + math.Log(float64(f))) * float64(m.idf[id])
		addScaled(acc, w, m.vecs[int(id)*m.dim:(int(id)+1)*m.dim])
	}
	v := make([]float32, m.dim)
	for i, x := range acc {
		v[i] = float32(x)
	}
	Normalize(v)
	return v
}

// modelName fingerprints the model's vocabulary and vectors.
func modelName(m *Model) string {
	h := sha256.New()
	for _, t := range m.terms {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	buf := make([]byte, 4*len(m.vecs))
	for i, x := range m.vecs {
		binary.LittleEndian.PutUint32(buf[4*i:], math.Float32bits(x))
	}
	h.Write(buf)
	return fmt.Sprintf("lsa:d%d:%s", m.dim, hex.EncodeToString(h.Sum(nil))[:12])
}
