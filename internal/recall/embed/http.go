package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Provider names the wire protocol of an embedding server.
type Provider string

// The protocols HTTP speaks.
const (
	// OpenAI is POST {base}/v1/embeddings with {"model","input":[…]},
	// answered by {"data":[{"index","embedding"}]}; OpenAI's API and the
	// servers compatible with it (vLLM, llama.cpp, LocalAI, LM Studio…).
	OpenAI Provider = "openai"
	// Ollama is POST {base}/api/embed with {"model","input":[…]},
	// answered by {"embeddings":[[…]]}.
	Ollama Provider = "ollama"
)

// Defaults of HTTPConfig.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultBatchSize        = 64
	DefaultMaxResponseBytes = 64 << 20
)

// HTTPConfig configures an HTTP embedder.
type HTTPConfig struct {
	Provider Provider
	// BaseURL is the server's address, such as http://127.0.0.1:11434 or
	// https://api.openai.com; for OpenAI a trailing /v1 is accepted.
	BaseURL string
	Model   string
	// Dim is the dimension the model's vectors have; answers of another
	// dimension are errors.
	Dim int
	// Token, when set, is sent as "Authorization: Bearer Token".
	Token string
	// Timeout bounds each request (one batch); DefaultTimeout when zero.
	Timeout time.Duration
	// BatchSize is the most texts sent in one request; DefaultBatchSize
	// when zero.
	BatchSize int
	// MaxResponseBytes bounds the body read of a response;
	// DefaultMaxResponseBytes when zero.
	MaxResponseBytes int64
	// Client sends the requests; a client of its own when nil.
	Client *http.Client
}

// HTTP is an Embedder backed by an embedding server. It is safe for
// concurrent use.
type HTTP struct {
	cfg HTTPConfig
	url string
	// shown is url without a password, for error messages.
	shown string
}

// NewHTTP checks cfg, fills in its defaults and returns the embedder.
func NewHTTP(cfg HTTPConfig) (*HTTP, error) {
	base := strings.TrimRight(cfg.BaseURL, "/")
	if !strings.HasPrefix(base, "http://") && !strings.HasPrefix(base, "https://") {
		return nil, fmt.Errorf("embed: base URL %q is not an http(s) URL", cfg.BaseURL)
	}
	var endpoint string
	switch cfg.Provider {
	case OpenAI:
		endpoint = strings.TrimSuffix(base, "/v1") + "/v1/embeddings"
	case Ollama:
		endpoint = base + "/api/embed"
	default:
		return nil, fmt.Errorf("embed: unknown provider %q (want %q or %q)", cfg.Provider, OpenAI, Ollama)
	}
	switch {
	case cfg.Model == "":
		return nil, errors.New("embed: no model named")
	case cfg.Dim < 1:
		return nil, fmt.Errorf("embed: dimension %d is not positive", cfg.Dim)
	case cfg.Timeout < 0 || cfg.BatchSize < 0 || cfg.MaxResponseBytes < 0:
		return nil, errors.New("embed: negative timeout, batch size or response limit")
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.BatchSize == 0 {
		cfg.BatchSize = DefaultBatchSize
	}
	if cfg.MaxResponseBytes == 0 {
		cfg.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{}
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("embed: base URL %q: %w", cfg.BaseURL, err)
	}
	return &HTTP{cfg: cfg, url: endpoint, shown: u.Redacted()}, nil
}

// Name is "{provider}:{model}".
func (h *HTTP) Name() string { return string(h.cfg.Provider) + ":" + h.cfg.Model }

// Dim is the configured dimension.
func (h *HTTP) Dim() int { return h.cfg.Dim }

// Embed sends the texts in batches of BatchSize, one request after the
// other, and returns their vectors in order. An empty text is sent as a
// single space, which every server accepts. Any failure (transport,
// status, body, shape) fails the whole call.
func (h *HTTP) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for lo := 0; lo < len(texts); lo += h.cfg.BatchSize {
		batch := texts[lo:min(lo+h.cfg.BatchSize, len(texts))]
		vecs, err := h.batch(ctx, batch)
		if err != nil {
			return nil, fmt.Errorf("embed: %s at %s, texts %d-%d: %w", h.Name(), h.shown, lo, lo+len(batch)-1, err)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// StatusError is the error of a response whose status is not 2xx.
type StatusError struct {
	StatusCode int
	// Message is the server's error message, or the start of its body.
	Message string
}

// Error says the status and the message.
func (e *StatusError) Error() string {
	return fmt.Sprintf("status %d %s: %s", e.StatusCode, http.StatusText(e.StatusCode), e.Message)
}

// batch embeds one batch of texts in one request.
func (h *HTTP) batch(ctx context.Context, texts []string) ([][]float32, error) {
	input := make([]string, len(texts))
	for i, t := range texts {
		if t == "" {
			t = " "
		}
		input[i] = t
	}
	body, err := json.Marshal(struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}{h.cfg.Model, input})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, h.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if h.cfg.Token != "" {
		req.Header.Set("Authorization", "Bearer "+h.cfg.Token)
	}
	resp, err := h.cfg.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, h.cfg.MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading the response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &StatusError{StatusCode: resp.StatusCode, Message: errorMessage(data)}
	}
	if int64(len(data)) > h.cfg.MaxResponseBytes {
		return nil, fmt.Errorf("response body larger than %d bytes", h.cfg.MaxResponseBytes)
	}
	var vecs [][]float32
	if h.cfg.Provider == OpenAI {
		vecs, err = decodeOpenAI(data, len(texts))
	} else {
		vecs, err = decodeOllama(data)
	}
	if err != nil {
		return nil, err
	}
	if err := checkShape(vecs, len(texts), h.cfg.Dim); err != nil {
		return nil, err
	}
	return vecs, nil
}

// decodeOpenAI returns the embeddings of an OpenAI answer, put in the
// order of their index fields (a permutation of 0..n-1), or in the order
// given when the server sends no index.
func decodeOpenAI(data []byte, n int) ([][]float32, error) {
	var r struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("response is not an embeddings object: %w", err)
	}
	if r.Data == nil {
		return nil, errors.New(`response has no "data" array`)
	}
	if len(r.Data) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(r.Data), n)
	}
	vecs := make([][]float32, n)
	for i, d := range r.Data {
		j := i
		if d.Index != nil {
			j = *d.Index
		}
		if j < 0 || j >= n || vecs[j] != nil {
			return nil, fmt.Errorf("embedding %d has index %d, out of range or repeated", i, j)
		}
		if d.Embedding == nil {
			return nil, fmt.Errorf("embedding %d has no vector", i)
		}
		vecs[j] = d.Embedding
	}
	return vecs, nil
}

// decodeOllama returns the embeddings of an Ollama answer.
func decodeOllama(data []byte) ([][]float32, error) {
	var r struct {
		Embeddings [][]float32 `json:"embeddings"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("response is not an embeddings object: %w", err)
	}
	if r.Embeddings == nil {
		return nil, errors.New(`response has no "embeddings" array`)
	}
	return r.Embeddings, nil
}

// errorMessage extracts the message of an error body: OpenAI's
// {"error":{"message"}}, Ollama's {"error":"…"}, else the body's start.
func errorMessage(data []byte) string {
	var r struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(data, &r) == nil && r.Error != nil {
		var s string
		if json.Unmarshal(r.Error, &s) == nil && s != "" {
			return s
		}
		var o struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(r.Error, &o) == nil && o.Message != "" {
			return o.Message
		}
	}
	const maxShown = 200
	s := strings.TrimSpace(string(data))
	if len(s) > maxShown {
		s = strings.ToValidUTF8(s[:maxShown], "") + "…"
	}
	if s == "" {
		return "(empty body)"
	}
	return s
}
