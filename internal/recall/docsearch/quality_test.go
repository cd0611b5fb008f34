package docsearch

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

// The retrieval quality set: labelled queries over the learn corpus
// (testdata/queries.json), graded 2 for the answer and 1 for related
// nodes. TestSearchQuality measures nDCG@10 and recall@10 of the BM25
// arm alone, the vector arm alone and the full hybrid (fusion, graph
// rerank, boosts), prints them per kind of query, and fails when the
// hybrid's nDCG@10 is below either arm's (no tolerance) or the hybrid is
// below the floors. DOCSEARCH_EVAL_DETAIL=1 logs every query's ranking.
//
// Recall@10 is held to its floor only, not to the vector arm's: fusing
// normalized scores (retrieve.go) ranks a strong lexical match over the
// vector arm's vague neighbours, which on this set trades recall@10 (the
// vector arm's 0.970 against the hybrid's 0.951) for nDCG@10, and on the
// prose set raises nDCG@10 of both splits.

// Floors of the hybrid: the measured nDCG@10 0.906 and recall@10 0.935,
// minus 0.03. They were 0.89 and 0.95 (0.921 and 0.981 minus 0.03)
// before bodies counted: scoring bodies by passage and embedding
// passages (which raise nDCG@10 on the prose set's dev split from 0.834
// to 0.878 and on its test split from 0.828 to 0.872) let units whose
// bodies answer rank beside the titles this set grades, lowering it here.
const (
	floorNDCG   = 0.87
	floorRecall = 0.90
)

// evalQuery is one labelled query.
type evalQuery struct {
	ID              string         `json:"id"`
	Kind            string         `json:"kind"`
	Text            string         `json:"text"`
	Product         string         `json:"product"`
	Types           []graph.Label  `json:"types"`
	IncludeInternal bool           `json:"includeInternal"`
	Relevant        map[string]int `json:"relevant"`
}

func (e evalQuery) query() Query {
	return Query{Text: e.Text, Product: e.Product, Types: e.Types, IncludeInternal: e.IncludeInternal, TopK: 10}
}

// The learn corpus and its index, built once for the tests of the package.
var learn = sync.OnceValues(func() (*Index, error) {
	c, err := docs.Load("../../../testdata/learn")
	if err != nil {
		return nil, err
	}
	return buildWithDictionary(c.Graph)
})

// buildWithDictionary indexes g as the server does: with the offline
// embedder, and with WordNet's built-in lexicon as the dictionary
// (DOCSEARCH_NO_DICTIONARY=1 leaves it out, to measure it).
func buildWithDictionary(g *graph.Graph) (*Index, error) {
	emb, opts := TrainEmbedder(g, 128), Options{}
	if os.Getenv("DOCSEARCH_NO_DICTIONARY") == "" {
		d := wordnet.DefaultLexicon()
		emb, opts.Dictionary = emb.WithDictionary(d), d
	}
	return Build(context.Background(), g, emb, opts)
}

func learnIndex(t testing.TB) *Index {
	t.Helper()
	ix, err := learn()
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

func loadQueries(t testing.TB) []evalQuery { return loadSet[evalQuery](t, "testdata/queries.json") }

// loadSet reads the queries of a labelled set.
func loadSet[Q any](t testing.TB, path string) []Q {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Queries []Q }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Queries
}

// arm names a ranking under evaluation.
type arm string

const (
	armBM25   arm = "bm25"
	armVector arm = "vector"
	armHybrid arm = "hybrid"
)

// ranking returns the uids the arm ranks first for q, at most ten.
func ranking(t testing.TB, ix *Index, q Query, a arm) []string {
	t.Helper()
	ctx := context.Background()
	if a == armHybrid {
		res, err := ix.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		var uids []string
		for _, r := range res.Results {
			uids = append(uids, r.UID)
		}
		return uids
	}
	if err := q.normalize(); err != nil {
		t.Fatal(err)
	}
	allowed, err := ix.allowedDocs(q)
	if err != nil {
		t.Fatal(err)
	}
	var hits []hit
	if a == armBM25 {
		hits = ix.docs.lexical(ix.docs.resolve(queryTerms(q.Text), ix.realTerms(q.Text)), allowed, q.TopK)
	} else {
		qv, err := queryVector(ctx, ix.emb, nil, q.Text)
		if err != nil {
			t.Fatal(err)
		}
		hits = ix.docs.vector(qv, ix.docs.titles(qv, allowed), nil)
		hits = hits[:min(len(hits), q.TopK)]
	}
	var uids []string
	for _, h := range hits {
		uids = append(uids, ix.g.Node(ix.docs.nodes[h.doc]).UID)
	}
	return uids
}

// ndcg is nDCG@len(ranked) with gain 2^grade - 1.
func ndcg(ranked []string, rel map[string]int) float64 {
	var dcg float64
	for i, u := range ranked {
		dcg += (math.Pow(2, float64(rel[u])) - 1) / math.Log2(float64(i+2))
	}
	var grades []int
	for _, g := range rel {
		grades = append(grades, g)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(grades)))
	var ideal float64
	for i, g := range grades[:min(len(grades), len(ranked), 10)] {
		ideal += (math.Pow(2, float64(g)) - 1) / math.Log2(float64(i+2))
	}
	if ideal == 0 {
		return 0
	}
	return dcg / ideal
}

// recall is the share of the relevant uids among the ranked ones.
func recall(ranked []string, rel map[string]int) float64 {
	found := 0
	for u, g := range rel {
		if g > 0 && slices.Contains(ranked, u) {
			found++
		}
	}
	return float64(found) / float64(len(rel))
}

type scores struct{ ndcg, recall float64 }

func TestSearchQuality(t *testing.T) {
	ix := learnIndex(t)
	qs := loadQueries(t)
	if len(qs) < 40 {
		t.Fatalf("%d labelled queries, want at least 40", len(qs))
	}
	for _, q := range qs {
		for uid := range q.Relevant {
			if _, ok := ix.g.Lookup(uid); !ok {
				t.Fatalf("query %s: labelled uid %s is not in the corpus", q.ID, uid)
			}
		}
	}
	arms := []arm{armBM25, armVector, armHybrid}
	total := map[arm]scores{}
	byKind := map[string]map[arm]scores{}
	kinds := []string{}
	count := map[string]int{}
	for _, q := range qs {
		if byKind[q.Kind] == nil {
			byKind[q.Kind] = map[arm]scores{}
			kinds = append(kinds, q.Kind)
		}
		count[q.Kind]++
		for _, a := range arms {
			r := ranking(t, ix, q.query(), a)
			s := scores{ndcg(r, q.Relevant), recall(r, q.Relevant)}
			if testing.Verbose() && os.Getenv("DOCSEARCH_EVAL_DETAIL") != "" {
				t.Logf("%-22s %-6s ndcg=%.3f recall=%.3f %s", q.ID, a, s.ndcg, s.recall, marked(r, q.Relevant))
			}
			add(total, a, s)
			add(byKind[q.Kind], a, s)
		}
	}
	n := float64(len(qs))
	var b strings.Builder
	fmt.Fprintf(&b, "\n%-12s %3s  %-17s %-17s %-17s\n", "queries", "n", "bm25 ndcg/recall", "vector ndcg/rec", "hybrid ndcg/rec")
	for _, k := range kinds {
		c := float64(count[k])
		fmt.Fprintf(&b, "%-12s %3d", k, count[k])
		for _, a := range arms {
			fmt.Fprintf(&b, "  %.3f / %.3f    ", byKind[k][a].ndcg/c, byKind[k][a].recall/c)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%-12s %3d", "all", len(qs))
	for _, a := range arms {
		fmt.Fprintf(&b, "  %.3f / %.3f    ", total[a].ndcg/n, total[a].recall/n)
	}
	t.Log(b.String())

	hy := scores{total[armHybrid].ndcg / n, total[armHybrid].recall / n}
	for _, a := range []arm{armBM25, armVector} {
		s := scores{total[a].ndcg / n, total[a].recall / n}
		if hy.ndcg < s.ndcg-1e-9 {
			t.Errorf("hybrid (nDCG@10 %.3f, recall@10 %.3f) is worse than %s alone (%.3f, %.3f)", hy.ndcg, hy.recall, a, s.ndcg, s.recall)
		}
	}
	if hy.ndcg < floorNDCG || hy.recall < floorRecall {
		t.Errorf("hybrid nDCG@10 %.3f, recall@10 %.3f: below the floors %.2f, %.2f", hy.ndcg, hy.recall, floorNDCG, floorRecall)
	}
}

func add(m map[arm]scores, a arm, s scores) {
	x := m[a]
	m[a] = scores{x.ndcg + s.ndcg, x.recall + s.recall}
}

// marked lists the ranked uids (without the common prefix) with their
// grades, for the detailed log.
func marked(ranked []string, rel map[string]int) string {
	var parts []string
	for _, u := range ranked {
		parts = append(parts, fmt.Sprintf("%s=%d", strings.TrimPrefix(u, "cogitave.learn."), rel[u]))
	}
	return strings.Join(parts, " ")
}
