package docsearch

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// DefaultEmbedBatch is the default of Options.EmbedBatch.
const DefaultEmbedBatch = 256

// Options tune Build; the zero value means the defaults.
type Options struct {
	// EmbedBatch is the number of texts per call of the embedder;
	// DefaultEmbedBatch when zero.
	EmbedBatch int
	// Dictionary, when set, keeps the spelling repair to misspelt words:
	// a query word that the index lacks and the dictionary knows (a real
	// word the documents do not use) is not replaced by the indexed word
	// nearest in spelling. Nil repairs every unknown word.
	Dictionary embed.Dictionary
}

// Index is a search index over a documentation graph: a BM25F arm, a
// vector arm when built with an embedder, and the graph for the rerank.
// It is immutable and safe for concurrent use.
type Index struct {
	g     *graph.Graph
	emb   embed.Embedder   // nil: lexical only
	dict  embed.Dictionary // nil: none
	docs  arms
	attrs []docAttrs // by document number
	code  arms
	cattr []codeAttrs // by code document number
	// ranges are the distinct moniker ranges of documents: ranges[r][m]
	// tells whether range r includes registry moniker m.
	ranges   [][]bool
	monikers map[string]int // registry index by moniker name
	public   bitset         // documents that are not internal
	all      bitset
	stats    Stats
}

// arms are the two retrievers over one set of nodes, numbered in uid
// order (so ties between equal scores go to the lower uid).
type arms struct {
	nodes []graph.NodeID
	lex   *bm25
	// pass scores the documents' bodies by passage; nil for code samples.
	pass    *passageIndex
	vocab   []string         // the terms of lex and pass, sorted
	speller *analyze.Speller // over vocab
	vec     *vectors         // nil without an embedder
}

// Stats describe a built index.
type Stats struct {
	Docs        int `json:"docs"`
	CodeSamples int `json:"codeSamples"`
	// Passages are the units the documents' bodies are scored by.
	Passages int `json:"passages"`
	// Terms and Postings are those of the documents' BM25 indexes
	// (fields and passages).
	Terms    int    `json:"terms"`
	Postings int    `json:"postings"`
	Embedder string `json:"embedder,omitempty"`
	Dim      int    `json:"dim,omitempty"`
	// BadMonikerRanges counts documents whose monikerRange does not parse
	// (docs.ParseMonikerRange); they match no requested moniker.
	BadMonikerRanges int           `json:"badMonikerRanges,omitempty"`
	BuildTime        time.Duration `json:"buildTime"`
}

// Build indexes the searchable nodes of g (the labels of Searchable) and
// its CodeSample nodes. With a nil emb the index is lexical only;
// otherwise every node is embedded now, and the index remembers the
// embedder's name and dimension.
func Build(ctx context.Context, g *graph.Graph, emb embed.Embedder, opts Options) (*Index, error) {
	start := time.Now()
	if opts.EmbedBatch <= 0 {
		opts.EmbedBatch = DefaultEmbedBatch
	}
	ix := &Index{g: g, emb: emb, dict: opts.Dictionary, monikers: map[string]int{}}
	for i, m := range g.Monikers() {
		ix.monikers[m.Name] = i
	}
	ix.docs.nodes = byUID(g, searchable)
	ix.code.nodes = byUID(g, []graph.Label{graph.CodeSample})
	ix.resolveDocAttrs()
	ix.resolveCodeAttrs()

	docs := ix.docs.nodes
	ix.docs.lex = buildBM25(len(docs), docFields, func(d, f int) string { return docField(g.Node(docs[d]), f) }, analyzer)
	var passageTexts []string
	ix.docs.pass, passageTexts = buildPassages(g, docs)
	ix.docs.vocab = union(ix.docs.lex.words, ix.docs.pass.lex.words)
	ix.docs.speller = analyze.NewSpeller(ix.docs.vocab)
	codes := ix.code.nodes
	ix.code.lex = buildBM25(len(codes), codeFields, func(d, f int) string { return ix.codeField(codes[d], f) }, analyze.Code)
	ix.code.vocab = ix.code.lex.words
	ix.code.speller = analyze.NewSpeller(ix.code.vocab)
	if emb != nil {
		var err error
		if ix.docs.vec, err = embedAll(ctx, emb, ix.texts(ix.docs.nodes, embedText), opts.EmbedBatch); err != nil {
			return nil, err
		}
		if ix.docs.pass.vec, err = embedAll(ctx, emb, passageTexts, opts.EmbedBatch); err != nil {
			return nil, err
		}
		if ix.code.vec, err = embedAll(ctx, emb, ix.texts(ix.code.nodes, ix.codeText), opts.EmbedBatch); err != nil {
			return nil, err
		}
		ix.docs.vec.quantize()
		ix.code.vec.quantize()
		ix.stats.Embedder, ix.stats.Dim = emb.Name(), emb.Dim()
	}
	ix.stats.Docs, ix.stats.CodeSamples = len(docs), len(codes)
	ix.stats.Passages = len(ix.docs.pass.doc)
	ix.stats.Terms, ix.stats.Postings = len(ix.docs.vocab), ix.docs.lex.postings()+ix.docs.pass.lex.postings()
	ix.stats.BuildTime = time.Since(start)
	return ix, nil
}

// TrainEmbedder trains the offline embedder (embed.TrainCorpus; dim < 1
// means embed.DefaultDim) on the full text of the searchable nodes and
// code samples of g.
func TrainEmbedder(g *graph.Graph, dim int) *embed.Model {
	return embed.TrainCorpus(trainingTexts(g), dim)
}

// trainingTexts are the texts the offline embedder learns from.
func trainingTexts(g *graph.Graph) []string {
	ix := &Index{g: g}
	docs := ix.texts(byUID(g, searchable), func(n *graph.Node) string { return fullText(g, n) })
	code := ix.texts(byUID(g, []graph.Label{graph.CodeSample}), ix.codeText)
	return append(docs, code...)
}

// CachedEmbedder is TrainEmbedder with a cache in dir: the model trained
// on the same texts at the same dimension (the key is a SHA-256 of both,
// the corpus fingerprint) is read back instead of trained again, and a
// model trained is stored for the next start, replacing the entries of
// other corpora (a cache holds the one corpus its server serves). The
// error reports a cache that could not be read or written; the model is
// good either way.
func CachedEmbedder(g *graph.Graph, dim int, dir string) (*embed.Model, error) {
	if dim < 1 {
		dim = embed.DefaultDim
	}
	texts := trainingTexts(g)
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%d\x00", embedCacheVersion, dim)
	for _, t := range texts {
		fmt.Fprintf(h, "%d\x00%s", len(t), t)
	}
	path := filepath.Join(dir, "lsa-"+hex.EncodeToString(h.Sum(nil))[:32]+".bin")
	if b, err := os.ReadFile(path); err == nil {
		if m, err := embed.UnmarshalModel(b); err == nil && m.Dim() == dim {
			return m, nil
		}
	}
	m := embed.TrainCorpus(texts, dim)
	b, err := m.MarshalBinary()
	if err == nil {
		err = writeAtomic(path, b)
	}
	if err != nil {
		return m, fmt.Errorf("docsearch: embedder cache: %w", err)
	}
	old, _ := filepath.Glob(filepath.Join(dir, "lsa-*.bin"))
	for _, o := range old {
		if o != path {
			os.Remove(o)
		}
	}
	return m, nil
}

// embedCacheVersion changes when what the embedder is trained on does.
const embedCacheVersion = "texts-2"

// writeAtomic writes b to path through a temporary file in its directory,
// so that a reader never sees half a file.
func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".lsa-*")
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Stats describes the index.
func (ix *Index) Stats() Stats { return ix.stats }

// Embedder returns the name and dimension of the embedder that built the
// vector arm, or "" and 0 for a lexical-only index.
func (ix *Index) Embedder() (name string, dim int) { return ix.stats.Embedder, ix.stats.Dim }

// byUID returns the nodes of the labels, in uid order.
func byUID(g *graph.Graph, labels []graph.Label) []graph.NodeID {
	var ids []graph.NodeID
	for _, l := range labels {
		ids = append(ids, g.ByLabel(l)...)
	}
	slices.SortFunc(ids, func(a, b graph.NodeID) int { return cmp.Compare(g.Node(a).UID, g.Node(b).UID) })
	return ids
}

// union returns the distinct strings of a and b, sorted.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// texts returns text(n) of each node.
func (ix *Index) texts(ids []graph.NodeID, text func(*graph.Node) string) []string {
	out := make([]string, len(ids))
	parallel(len(out), func(i int) { out[i] = text(ix.g.Node(ids[i])) })
	return out
}

// parallel calls fn(i) for every i < n on GOMAXPROCS goroutines.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	done := make(chan struct{})
	for w := range workers {
		go func() {
			for i := w; i < n; i += workers {
				fn(i)
			}
			done <- struct{}{}
		}()
	}
	for range workers {
		<-done
	}
}
