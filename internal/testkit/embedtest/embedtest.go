// Package embedtest is a stand-in embedding model for tests and
// benchmarks: no weights, deterministic, and fast enough to embed a
// large library.
package embedtest

import (
	"context"
	"fmt"
	"hash/fnv"
	"strings"
)

// Vector returns text's vector of dim values: its words, lower-cased
// and without surrounding punctuation, counted in dimensions chosen by
// their hash. It is never the zero vector.
func Vector(text string, dim int) []float32 {
	v := make([]float32, dim)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(strings.Trim(w, ".,:;!?'\"()")))
		v[h.Sum32()%uint32(dim)]++
	}
	v[0] += 0.01
	return v
}

// Hashing is an embed.Embedder answering with Vector.
type Hashing struct{ Dims int }

// Name is "hash:" and the dimension.
func (e Hashing) Name() string { return fmt.Sprintf("hash:%d", e.Dims) }

// Dim is the vectors' length.
func (e Hashing) Dim() int { return e.Dims }

// Embed returns Vector of each text.
func (e Hashing) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = Vector(t, e.Dims)
	}
	return out, nil
}
