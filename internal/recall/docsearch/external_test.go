package docsearch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// The external embedder path (bourdon serve --embedder ollama|openai):
// a fake embedding server that speaks each provider's protocol and
// answers with the vectors of a model, here the offline one trained on
// the corpus, so that the path can be scored against the same model in
// process. TestExternalEmbedder checks that the prose set scores the same
// through HTTP; BenchmarkExternalEmbedderQuery measures what the round
// trip adds to a query.

// fakeEmbedServer serves model's vectors over the provider's protocol and
// counts the requests.
func fakeEmbedServer(t testing.TB, model embed.Embedder, provider embed.Provider) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Model != "fake" {
			http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
			return
		}
		vecs, err := model.Embed(r.Context(), req.Input)
		if err != nil {
			http.Error(w, `{"error":"embedding failed"}`, http.StatusInternalServerError)
			return
		}
		switch {
		case provider == embed.Ollama && r.URL.Path == "/api/embed":
			json.NewEncoder(w).Encode(map[string]any{"embeddings": vecs})
		case provider == embed.OpenAI && r.URL.Path == "/v1/embeddings":
			data := make([]map[string]any, len(vecs))
			for i, v := range vecs {
				data[i] = map[string]any{"index": i, "embedding": v}
			}
			json.NewEncoder(w).Encode(map[string]any{"data": data})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func httpEmbedder(t testing.TB, srv *httptest.Server, provider embed.Provider, dim int) *embed.HTTP {
	t.Helper()
	h, err := embed.NewHTTP(embed.HTTPConfig{Provider: provider, BaseURL: srv.URL, Model: "fake", Dim: dim, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestExternalEmbedder(t *testing.T) {
	fx, err := proseCorpus()
	if err != nil {
		t.Fatal(err)
	}
	c, err := docs.Load("../../../testdata/learn", "../../../testdata/learn-overlay")
	if err != nil {
		t.Fatal(err)
	}
	model := fx.ix.emb
	qs := loadProseQueries(t)
	score := func(ix *Index) float64 {
		var sum float64
		for _, q := range qs {
			sum += ndcg(ranking(t, ix, Query{Text: q.Text, IncludeInternal: true, TopK: 10}, armHybrid), q.Relevant)
		}
		return sum / float64(len(qs))
	}
	want := score(fx.ix)
	for _, p := range []embed.Provider{embed.Ollama, embed.OpenAI} {
		srv, calls := fakeEmbedServer(t, model, p)
		h := httpEmbedder(t, srv, p, model.Dim())
		ix, err := Build(context.Background(), c.Graph, h, Options{Dictionary: fx.ix.dict})
		if err != nil {
			t.Fatal(err)
		}
		built := calls.Load()
		if got := score(ix); got != want {
			t.Errorf("%s: nDCG@10 %.4f through HTTP, %.4f in process", p, got, want)
		}
		if n := calls.Load() - built; n != int64(len(qs)) {
			t.Errorf("%s: %d requests for %d queries, want one each", p, n, len(qs))
		}
		t.Logf("%s: index built in %d requests (batches of %d); nDCG@10 %.3f, as in process", p, built, embed.DefaultBatchSize, want)
	}
}

// BenchmarkExternalEmbedderQuery is a docs_search query on testdata/learn
// whose vector comes from a fake Ollama server over loopback, beside the
// same query embedded in process.
//
//	go test -run '^$' -bench ExternalEmbedderQuery ./internal/recall/docsearch/
func BenchmarkExternalEmbedderQuery(b *testing.B) {
	ix := learnIndex(b)
	srv, _ := fakeEmbedServer(b, ix.emb, embed.Ollama)
	h := httpEmbedder(b, srv, embed.Ollama, ix.emb.Dim())
	c, err := docs.Load("../../../testdata/learn")
	if err != nil {
		b.Fatal(err)
	}
	ext, err := Build(context.Background(), c.Graph, h, Options{})
	if err != nil {
		b.Fatal(err)
	}
	qs := loadProseQueries(b)
	for _, bc := range []struct {
		name string
		ix   *Index
	}{{"in-process", ix}, {"ollama-http", ext}} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := context.Background()
			for i := 0; b.Loop(); i++ {
				if _, err := bc.ix.Search(ctx, Query{Text: qs[i%len(qs)].Text, IncludeInternal: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
