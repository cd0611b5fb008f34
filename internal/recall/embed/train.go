package embed

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Training parameters of TrainCorpus.
const (
	// DefaultDim is the dimension TrainCorpus uses when asked for none.
	DefaultDim = 128
	// maxTrainDocs bounds the documents the decomposition sees; the terms
	// of the others are folded in afterwards (foldTerms).
	maxTrainDocs = 8192
	// maxVocab bounds the vocabulary, keeping the terms in most documents.
	maxVocab = 1 << 18
	// oversample and powerIters set the randomized SVD's accuracy: the
	// range is sought in dim+oversample directions, refined powerIters
	// times (Halko, Martinsson and Tropp 2011).
	oversample = 10
	powerIters = 1
	// seed makes the random start, and so the model, deterministic.
	seed = 0x6c7361
)

// TrainCorpus learns a Model from texts by latent semantic analysis. The
// term-document matrix of the texts, weighted by (1+ln tf)·idf with every
// document of unit length, is reduced by a truncated SVD to its dim
// strongest directions (after the first; see decompose), and a term's
// vector is its row of U·Σ, the classic LSA term coordinates. Terms that
// occur in the same contexts (paraphrases, a product and what it does)
// end up close, so a text and a query about the same thing are close even
// when they share few words.
//
// The vocabulary is every term of the texts (at most 262,144: those in
// most texts); a query reaches misspelt words through the vocabulary's
// spelling (see Model.Embed). Training is deterministic: the same texts
// and dim give the same model, whatever the number of CPUs. dim < 1
// means DefaultDim.
func TrainCorpus(texts []string, dim int) *Model {
	if dim < 1 {
		dim = DefaultDim
	}
	docs, terms := countTexts(texts)
	vocab, idf := selectVocab(docs, terms, len(texts))
	rows := weightRows(docs, vocab, idf)
	vecs := decompose(rows, len(idf), dim, maxTrainDocs)
	m := &Model{dim: dim, vocab: map[string]int32{}, idf: make([]float32, len(idf)), vecs: vecs}
	for id, v := range vocab {
		if v >= 0 {
			m.vocab[terms[id]] = v
			m.idf[v] = float32(idf[v])
		}
	}
	m.terms = make([]string, len(idf))
	for t, v := range m.vocab {
		m.terms[v] = t
	}
	m.speller = analyze.NewSpeller(m.terms)
	m.name = modelName(m)
	return m
}

// countTexts counts the terms of each text.
func countTexts(texts []string) ([][]analyze.Count, []string) {
	return analyze.CountAll(len(texts), 1, func(d, _ int) string { return texts[d] }, analyze.Prose)
}

// selectVocab keeps the terms, at most maxVocab of them by document
// frequency. It returns each term's vocabulary number (-1 when left out)
// and the idf, ln(1 + n/df), of each vocabulary term.
func selectVocab(docs [][]analyze.Count, terms []string, n int) ([]int32, []float64) {
	df := make([]int32, len(terms))
	for _, d := range docs {
		for _, c := range d {
			df[c.Term]++
		}
	}
	keep := make([]int32, len(terms))
	for id := range keep {
		keep[id] = int32(id)
	}
	if len(keep) > maxVocab {
		slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(df[b], df[a]) })
		keep = keep[:maxVocab]
		slices.Sort(keep)
	}
	vocab := make([]int32, len(terms))
	for i := range vocab {
		vocab[i] = -1
	}
	idf := make([]float64, len(keep))
	for v, id := range keep {
		vocab[id] = int32(v)
		idf[v] = math.Log(1 + float64(n)/float64(df[id]))
	}
	return vocab, idf
}

// weightRows returns the document-term matrix over the vocabulary, one
// row per document, weighted (1+ln tf)·idf and of unit length.
func weightRows(docs [][]analyze.Count, vocab []int32, idf []float64) *sparse {
	s := &sparse{start: make([]int32, 1, len(docs)+1)}
	for _, d := range docs {
		first := len(s.val)
		var norm float64
		for _, c := range d {
			v := vocab[c.Term]
			if v < 0 {
				continue
			}
			w := (1 + math.Log(float64(c.N))) * idf[v]
			norm += w * w
			s.idx = append(s.idx, v)
			s.val = append(s.val, float32(w))
		}
		if norm > 0 {
			inv := float32(1 / math.Sqrt(norm))
			for i := first; i < len(s.val); i++ {
				s.val[i] *= inv
			}
		}
		s.start = append(s.start, int32(len(s.val)))
	}
	return s
}

// decompose returns the term vectors, nterms rows of dim float32: the
// rows of U·Σ of the truncated SVD A ≈ U·Σ·Vᵀ of the term-document matrix
// A, strongest direction first, zero beyond its rank. At most maxDocs
// rows (documents) are decomposed; the terms only the others have are
// folded in. The very strongest direction is left out: in a matrix of
// non-negative weights it is the corpus's mean, on which every document
// loads, so it says that a text is from the corpus rather than what it is
// about, and it would dominate every cosine.
func decompose(rows *sparse, nterms, dim, maxDocs int) []float32 {
	sample := sampleRows(rows, maxDocs)
	l := min(dim+1+oversample, sample.rows(), nterms)
	vecs := make([]float32, nterms*dim)
	if l == 0 {
		return vecs
	}
	u, sigma := randomizedSVD(sample, nterms, l)
	if len(sigma) < 2 {
		return vecs
	}
	k := min(dim, len(sigma)-1)
	for t := range nterms {
		for j := range k {
			vecs[t*dim+j] = float32(u.a[t*u.cols+j+1] * sigma[j+1])
		}
	}
	if sample.rows() < rows.rows() {
		foldTerms(rows, sample, vecs, dim, sigma[1:k+1])
	}
	return vecs
}

// sampleRows returns at most n rows of s, evenly spread.
func sampleRows(s *sparse, n int) *sparse {
	if s.rows() <= n {
		return s
	}
	out := &sparse{start: make([]int32, 1, n+1)}
	for i := range n {
		r := i * s.rows() / n
		lo, hi := s.start[r], s.start[r+1]
		out.idx = append(out.idx, s.idx[lo:hi]...)
		out.val = append(out.val, s.val[lo:hi]...)
		out.start = append(out.start, int32(len(out.val)))
	}
	return out
}

// randomizedSVD returns the left singular vectors (one row per term, the
// strongest first) and the singular values of the term-document matrix
// whose document rows are docs, searched in l directions. Directions with
// a vanishing singular value are dropped.
func randomizedSVD(docs *sparse, nterms, l int) (*dense, []float64) {
	terms := docs.transpose(nterms)
	rng := rand.New(rand.NewPCG(seed, seed))
	omega := newDense(docs.rows(), l)
	for i := range omega.a {
		omega.a[i] = rng.NormFloat64()
	}
	q := terms.mul(omega)
	orthonormalize(q)
	for range powerIters {
		z := docs.mul(q)
		orthonormalize(z)
		q = terms.mul(z)
		orthonormalize(q)
	}
	lambda, w := symEigen(gram(docs.mul(q)))
	k := 0
	for k < len(lambda) && lambda[k] > 1e-9*lambda[0] {
		k++
	}
	wk := newDense(l, k)
	for r := range l {
		copy(wk.row(r), w.row(r)[:k])
	}
	sigma := make([]float64, k)
	for i := range sigma {
		sigma[i] = math.Sqrt(lambda[i])
	}
	return mulSmall(q, wk), sigma
}

// foldTerms gives the terms that no sampled document has a vector, by
// folding them into the decomposition. A term's row of U·Σ is a·V, where
// a is its row of the full matrix; V = D·Σ⁻², where D are the documents'
// coordinates A'ᵀ·U·Σ (each document row times the term vectors learnt
// from the sample); so the vector is a·D·Σ⁻², sigma being the singular
// values of the directions kept.
func foldTerms(all, sample *sparse, vecs []float32, dim int, sigma []float64) {
	nterms := len(vecs) / dim
	seen := make([]bool, nterms)
	for _, t := range sample.idx {
		seen[t] = true
	}
	// row numbers, in coords, of the documents with an unseen term
	docRow := make([]int32, all.rows())
	var needed []int32
	for d := range all.rows() {
		docRow[d] = -1
		for _, t := range all.idx[all.start[d]:all.start[d+1]] {
			if !seen[t] {
				docRow[d] = int32(len(needed))
				needed = append(needed, int32(d))
				break
			}
		}
	}
	if len(needed) == 0 {
		return
	}
	k := len(sigma)
	coords := newDense(len(needed), k)
	parallel(len(needed), func(lo, hi int) {
		for r := lo; r < hi; r++ {
			d := needed[r]
			for f := all.start[d]; f < all.start[d+1]; f++ {
				if t := all.idx[f]; seen[t] {
					addScaled(coords.row(r), float64(all.val[f]), vecs[int(t)*dim:int(t)*dim+k])
				}
			}
		}
	})
	byTerm := all.transpose(nterms)
	parallel(nterms, func(lo, hi int) {
		acc := make([]float64, k)
		for t := lo; t < hi; t++ {
			if seen[t] {
				continue
			}
			clear(acc)
			for e := byTerm.start[t]; e < byTerm.start[t+1]; e++ {
				axpy(acc, float64(byTerm.val[e]), coords.row(int(docRow[byTerm.idx[e]])))
			}
			for j := range k {
				vecs[t*dim+j] = float32(acc[j] / (sigma[j] * sigma[j]))
			}
		}
	})
}

// addScaled adds a·x to y, x in float32.
func addScaled(y []float64, a float64, x []float32) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * float64(x[i])
	}
}
