package embed

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// request is what a fake server received.
type request struct {
	ctx                     context.Context // the request's, done when the client gives up
	path, auth, contentType string
	Model                   string   `json:"model"`
	Input                   []string `json:"input"`
}

// fakeServer serves answer(req) for every POST, and counts requests.
func fakeServer(t *testing.T, answer func(w http.ResponseWriter, r *request)) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if r.Method != http.MethodPost {
			http.Error(w, "want POST", http.StatusMethodNotAllowed)
			return
		}
		req := &request{ctx: r.Context(), path: r.URL.Path, auth: r.Header.Get("Authorization"), contentType: r.Header.Get("Content-Type")}
		if err := json.NewDecoder(r.Body).Decode(req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		answer(w, req)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// vectorOf is the fake model: a text's vector is (len, first byte, 1).
func vectorOf(s string) []float32 { return []float32{float32(len(s)), float32(s[0]), 1} }

func openAIAnswer(w http.ResponseWriter, r *request) {
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	var data []item
	for i := len(r.Input) - 1; i >= 0; i-- { // out of order, as servers may
		data = append(data, item{"embedding", i, vectorOf(r.Input[i])})
	}
	json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data, "model": r.Model})
}

func ollamaAnswer(w http.ResponseWriter, r *request) {
	var out [][]float32
	for _, s := range r.Input {
		out = append(out, vectorOf(s))
	}
	json.NewEncoder(w).Encode(map[string]any{"model": r.Model, "embeddings": out})
}

func newHTTP(t *testing.T, cfg HTTPConfig) *HTTP {
	t.Helper()
	h, err := NewHTTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestHTTPOpenAI(t *testing.T) {
	var got *request
	srv, _ := fakeServer(t, func(w http.ResponseWriter, r *request) { got = r; openAIAnswer(w, r) })
	for _, base := range []string{srv.URL, srv.URL + "/v1/"} {
		h := newHTTP(t, HTTPConfig{Provider: OpenAI, BaseURL: base, Model: "text-embedding-3-small", Dim: 3, Token: "sk-test"})
		vecs, err := h.Embed(context.Background(), []string{"alpha", "be", ""})
		if err != nil {
			t.Fatal(err)
		}
		want := [][]float32{vectorOf("alpha"), vectorOf("be"), vectorOf(" ")}
		if !slices.EqualFunc(vecs, want, slices.Equal) {
			t.Errorf("vectors %v, want %v", vecs, want)
		}
		if got.path != "/v1/embeddings" || got.auth != "Bearer sk-test" || got.contentType != "application/json" || got.Model != "text-embedding-3-small" {
			t.Errorf("request %+v", got)
		}
		if h.Name() != "openai:text-embedding-3-small" || h.Dim() != 3 {
			t.Errorf("Name %q Dim %d", h.Name(), h.Dim())
		}
	}
}

func TestHTTPOllamaBatches(t *testing.T) {
	var got *request
	srv, n := fakeServer(t, func(w http.ResponseWriter, r *request) { got = r; ollamaAnswer(w, r) })
	h := newHTTP(t, HTTPConfig{Provider: Ollama, BaseURL: srv.URL, Model: "nomic-embed-text", Dim: 3, BatchSize: 2})
	texts := []string{"a", "bb", "ccc", "dddd", "eeeee"}
	vecs, err := h.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if !slices.Equal(vecs[i], vectorOf(s)) {
			t.Errorf("text %d: %v", i, vecs[i])
		}
	}
	if n.Load() != 3 || got.path != "/api/embed" || got.auth != "" {
		t.Errorf("%d requests, last %+v", n.Load(), got)
	}
	if vecs, err := h.Embed(context.Background(), nil); err != nil || len(vecs) != 0 || n.Load() != 3 {
		t.Errorf("no texts: %v, %v, %d requests", vecs, err, n.Load())
	}
}

func TestHTTPErrors(t *testing.T) {
	for _, tc := range []struct {
		name     string
		provider Provider
		max      int64
		answer   func(w http.ResponseWriter, r *request)
		want     string
		status   int
	}{
		{"openai error body", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`)
		}, "status 401 Unauthorized: Incorrect API key provided", 401},
		{"ollama error body", Ollama, 0, func(w http.ResponseWriter, r *request) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, `{"error":"model \"nomic\" not found, try pulling it first"}`)
		}, `status 404 Not Found: model "nomic" not found`, 404},
		{"html error", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
		}, "status 502 Bad Gateway: <html>bad gateway</html>", 502},
		{"wrong dimension", Ollama, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"embeddings":[[1,2]]}`)
		}, "vector 0 has 2 dimensions, want 3", 0},
		{"wrong count", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"data":[]}`)
		}, "0 embeddings for 1 texts", 0},
		{"ollama wrong count", Ollama, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"embeddings":[[1,2,3],[4,5,6]]}`)
		}, "2 vectors for 1 texts", 0},
		{"garbage", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `<!doctype html><p>hello`)
		}, "response is not an embeddings object", 0},
		{"no data", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"object":"list"}`)
		}, `response has no "data" array`, 0},
		{"no embeddings", Ollama, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"model":"m"}`)
		}, `response has no "embeddings" array`, 0},
		{"bad index", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"data":[{"index":3,"embedding":[1,2,3]}]}`)
		}, "embedding 0 has index 3, out of range or repeated", 0},
		{"no vector", OpenAI, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"data":[{"index":0}]}`)
		}, "embedding 0 has no vector", 0},
		{"float overflow", Ollama, 0, func(w http.ResponseWriter, r *request) {
			io.WriteString(w, `{"embeddings":[[1e99,0,0]]}`)
		}, "response is not an embeddings object", 0},
		{"oversized", Ollama, 64, func(w http.ResponseWriter, r *request) {
			fmt.Fprintf(w, `{"embeddings":[[1,2,3]],"pad":%q}`, strings.Repeat("x", 100))
		}, "response body larger than 64 bytes", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := fakeServer(t, tc.answer)
			h := newHTTP(t, HTTPConfig{Provider: tc.provider, BaseURL: srv.URL, Model: "m", Dim: 3, MaxResponseBytes: tc.max})
			_, err := h.Embed(context.Background(), []string{"text"})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "embed: "+string(tc.provider)+":m at "+srv.URL) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			var se *StatusError
			if errors.As(err, &se) != (tc.status != 0) || tc.status != 0 && se.StatusCode != tc.status {
				t.Errorf("StatusError %+v, want status %d", se, tc.status)
			}
		})
	}
}

func TestHTTPDuplicateIndex(t *testing.T) {
	srv, _ := fakeServer(t, func(w http.ResponseWriter, r *request) {
		io.WriteString(w, `{"data":[{"index":0,"embedding":[1,2,3]},{"index":0,"embedding":[1,2,3]}]}`)
	})
	h := newHTTP(t, HTTPConfig{Provider: OpenAI, BaseURL: srv.URL, Model: "m", Dim: 3})
	if _, err := h.Embed(context.Background(), []string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Errorf("error %v", err)
	}
}

func TestHTTPSlowServer(t *testing.T) {
	srv, _ := fakeServer(t, func(w http.ResponseWriter, r *request) {
		select {
		case <-r.ctx.Done():
		case <-time.After(5 * time.Second):
			ollamaAnswer(w, r)
		}
	})
	h := newHTTP(t, HTTPConfig{Provider: Ollama, BaseURL: srv.URL, Model: "m", Dim: 3, Timeout: 50 * time.Millisecond})
	start := time.Now()
	_, err := h.Embed(context.Background(), []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the deadline", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("gave up after %v", d)
	}

	h = newHTTP(t, HTTPConfig{Provider: Ollama, BaseURL: srv.URL, Model: "m", Dim: 3})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := h.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want the cancellation", err)
	}
}

func TestHTTPUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	h := newHTTP(t, HTTPConfig{Provider: Ollama, BaseURL: url, Model: "m", Dim: 3})
	if _, err := h.Embed(context.Background(), []string{"a"}); err == nil {
		t.Error("a closed server answers")
	}
}

func TestNewHTTPChecksConfig(t *testing.T) {
	for _, cfg := range []HTTPConfig{
		{Provider: OpenAI, BaseURL: "ftp://x", Model: "m", Dim: 3},
		{Provider: "cohere", BaseURL: "http://x", Model: "m", Dim: 3},
		{Provider: OpenAI, BaseURL: "http://x", Dim: 3},
		{Provider: OpenAI, BaseURL: "http://x", Model: "m"},
		{Provider: OpenAI, BaseURL: "http://x", Model: "m", Dim: 3, BatchSize: -1},
	} {
		if _, err := NewHTTP(cfg); err == nil {
			t.Errorf("NewHTTP(%+v) accepted", cfg)
		}
	}
}

func TestHTTPErrorsHideThePassword(t *testing.T) {
	srv, _ := fakeServer(t, func(w http.ResponseWriter, r *request) { http.Error(w, "no", http.StatusForbidden) })
	h := newHTTP(t, HTTPConfig{Provider: Ollama, BaseURL: strings.Replace(srv.URL, "http://", "http://user:s3cret@", 1), Model: "m", Dim: 3})
	_, err := h.Embed(context.Background(), []string{"a"})
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v", err)
	}
}
