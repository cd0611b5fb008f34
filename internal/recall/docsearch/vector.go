package docsearch

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// vectors is the vector arm: one unit vector per document, in one
// row-major matrix (a dot product of unit vectors is their cosine),
// searched by an exact scan or, for a large matrix, through its coarse
// quantiser.
type vectors struct {
	dim  int
	data []float32
	ivf  *ivf // nil: exact scan
}

// rows is the number of vectors.
func (v *vectors) rows() int { return len(v.data) / v.dim }

// row is vector d.
func (v *vectors) row(d int) []float32 { return v.data[d*v.dim : (d+1)*v.dim] }

// embedAll embeds texts with emb, batch texts per call, and checks and
// normalizes what comes back.
func embedAll(ctx context.Context, emb embed.Embedder, texts []string, batch int) (*vectors, error) {
	dim := emb.Dim()
	if dim < 1 {
		return nil, fmt.Errorf("docsearch: embedder %s has dimension %d", emb.Name(), dim)
	}
	v := &vectors{dim: dim, data: make([]float32, 0, len(texts)*dim)}
	for lo := 0; lo < len(texts); lo += batch {
		part := texts[lo:min(lo+batch, len(texts))]
		vecs, err := emb.Embed(ctx, part)
		if err != nil {
			return nil, fmt.Errorf("docsearch: embedding the corpus: %w", err)
		}
		if err := embed.Check(vecs, len(part), dim); err != nil {
			return nil, fmt.Errorf("docsearch: embedder %s: %w", emb.Name(), err)
		}
		for _, x := range vecs {
			embed.Normalize(x)
			v.data = append(v.data, x...)
		}
	}
	return v, nil
}

// scanShard is the least number of rows a goroutine of search scans.
const scanShard = 8192

// search returns the k allowed documents most similar to the unit vector
// q, best first; a cosine of zero or less is no match. The quantiser
// answers when the matrix has one; otherwise the scan is exact.
func (v *vectors) search(q []float32, allowed bitset, k int) []hit {
	if v.ivf != nil {
		return v.ivf.search(q, allowed, k)
	}
	return v.exact(q, allowed, k)
}

// exact returns the k allowed documents most similar to q by an exact
// scan. A large matrix is scanned in shards on GOMAXPROCS goroutines,
// whose best k are merged.
func (v *vectors) exact(q []float32, allowed bitset, k int) []hit {
	n := v.rows()
	shards := max(1, min(runtime.GOMAXPROCS(0), n/scanShard))
	if shards == 1 {
		return v.scan(q, allowed, k, 0, n).best()
	}
	tops := make([]*topK, shards)
	var wg sync.WaitGroup
	for s := range shards {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tops[s] = v.scan(q, allowed, k, s*n/shards, (s+1)*n/shards)
		}()
	}
	wg.Wait()
	top := tops[0]
	for _, t := range tops[1:] {
		for _, h := range t.h {
			top.push(h.doc, h.score)
		}
	}
	return top.best()
}

// scan returns the k best allowed documents among rows [lo, hi).
func (v *vectors) scan(q []float32, allowed bitset, k, lo, hi int) *topK {
	top := newTopK(k)
	for d := lo; d < hi; d++ {
		if !allowed.has(d) {
			continue
		}
		if c := embed.Dot(q, v.row(d)); c > 0 {
			top.push(int32(d), c)
		}
	}
	return top
}

// cosine returns the similarity of q to document d.
func (v *vectors) cosine(q []float32, d int32) float32 {
	return embed.Dot(q, v.row(int(d)))
}
