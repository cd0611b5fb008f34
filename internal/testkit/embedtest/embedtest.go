// Package embedtest is a stand-in embedding model for tests and
// benchmarks (no weights, deterministic, fast enough to embed a large
// library) and a fake embedding service to serve vectors over HTTP.
package embedtest

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
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

// Server is a fake OpenAI-compatible embedding service (POST
// /v1/embeddings), an http.Handler: it answers each text with
// Vectors(text) and records the texts it was asked for. A text Vectors
// does not know, a request for another model than Model (when set) or a
// malformed one is a 400; Down answers every request with a 503; Delay
// is waited before each answer.
type Server struct {
	Vectors func(text string) ([]float32, bool)
	Model   string
	Delay   time.Duration
	Down    bool

	mu    sync.Mutex
	asked []string
}

func (f *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.URL.Path != "/v1/embeddings" || json.NewDecoder(r.Body).Decode(&req) != nil || f.Model != "" && req.Model != f.Model {
		http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
		return
	}
	time.Sleep(f.Delay)
	f.mu.Lock()
	f.asked = append(f.asked, req.Input...)
	f.mu.Unlock()
	if f.Down {
		http.Error(w, `{"error":{"message":"model not loaded"}}`, http.StatusServiceUnavailable)
		return
	}
	type datum struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var out struct {
		Data []datum `json:"data"`
	}
	for i, text := range req.Input {
		v, ok := f.Vectors(text)
		if !ok {
			http.Error(w, fmt.Sprintf(`{"error":{"message":"unknown text %q"}}`, text), http.StatusBadRequest)
			return
		}
		out.Data = append(out.Data, datum{i, v})
	}
	json.NewEncoder(w).Encode(out)
}

// Texts returns the texts asked for so far, in order.
func (f *Server) Texts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.asked)
}
