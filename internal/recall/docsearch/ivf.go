package docsearch

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// Coarse quantiser parameters (an inverted file, IVF: Jégou, Douze and
// Schmid, "Product quantization for nearest neighbor search", 2011, §4).
const (
	// ivfMinRows is the least number of vectors that get a quantiser;
	// smaller matrices are scanned exactly, so every corpus of that size
	// (testdata/learn among them) keeps exactly the ranking it had. It
	// is 2·scanShard, where the exact scan starts to take more than one
	// goroutine: below it the scan costs under a third of the 50,000-node
	// benchmark's (0.6 to 1.0 ms of one core at dimension 128).
	ivfMinRows = 2 * scanShard
	// ivfProbe is how many lists a query scans at least: those of the
	// nearest centroids. At 50,000 nodes (223 lists) it keeps 0.973 of
	// docs_search's top 10 at half the time of the exact scan
	// (BenchmarkQuantizer50k; docs/retrieval.md for the other counts).
	ivfProbe = 24
	// ivfSample is how many vectors per list train the centroids, and
	// ivfIters how many rounds of k-means they get.
	ivfSample = 64
	ivfIters  = 8
)

// ivf files each vector of a matrix under its nearest centroid (spherical
// k-means over the unit vectors). A query compares itself to the
// centroids and scans the lists of the nearest ones only.
type ivf struct {
	centroids *vectors
	// order holds the vector numbers list by list: list l is
	// order[start[l]:start[l+1]], in ascending number.
	order []int32
	start []int32
	// rows holds the vectors in the same order, so that a list is
	// scanned through contiguous memory (row i is vector order[i]).
	rows  *vectors
	probe int // ivfProbe
}

// quantize gives v a quantiser when it has at least ivfMinRows vectors.
func (v *vectors) quantize() {
	if v.rows() >= ivfMinRows {
		v.ivf = buildIVF(v)
	}
}

// buildIVF trains the quantiser of v: sqrt(n) centroids, seeded by a
// fixed-seed sample of the vectors, refined by ivfIters rounds of
// spherical k-means over ivfSample vectors per centroid, and then every
// vector filed under its nearest. It is deterministic.
func buildIVF(v *vectors) *ivf {
	n := v.rows()
	nlist := max(1, int(math.Sqrt(float64(n))))
	perm := rand.New(rand.NewPCG(1, uint64(n))).Perm(n)
	sample := perm[:min(n, ivfSample*nlist)]
	cent := &vectors{dim: v.dim, data: make([]float32, 0, nlist*v.dim)}
	for _, d := range perm[:nlist] {
		cent.data = append(cent.data, v.row(d)...)
	}
	assign := make([]int32, len(sample))
	sum := make([]float64, nlist*v.dim)
	for range ivfIters {
		parallel(len(sample), func(i int) { assign[i] = cent.nearest(v.row(sample[i])) })
		clear(sum)
		for i, d := range sample {
			s := sum[int(assign[i])*v.dim:]
			for j, x := range v.row(d) {
				s[j] += float64(x)
			}
		}
		for c := range nlist {
			s, row := sum[c*v.dim:(c+1)*v.dim], cent.row(c)
			var norm float64
			for _, x := range s {
				norm += x * x
			}
			if norm == 0 {
				continue // an empty list keeps its centroid
			}
			norm = math.Sqrt(norm)
			for j, x := range s {
				row[j] = float32(x / norm)
			}
		}
	}
	all := make([]int32, n)
	parallel(n, func(d int) { all[d] = cent.nearest(v.row(d)) })
	ix := &ivf{centroids: cent, order: make([]int32, n), start: make([]int32, nlist+1), probe: ivfProbe}
	for _, c := range all {
		ix.start[c+1]++
	}
	for c := range nlist {
		ix.start[c+1] += ix.start[c]
	}
	next := slices.Clone(ix.start[:nlist])
	for d, c := range all {
		ix.order[next[c]] = int32(d)
		next[c]++
	}
	ix.rows = &vectors{dim: v.dim, data: make([]float32, 0, len(v.data))}
	for _, d := range ix.order {
		ix.rows.data = append(ix.rows.data, v.row(int(d))...)
	}
	return ix
}

// nearest returns the row most similar to x (the lowest on a tie).
func (v *vectors) nearest(x []float32) int32 {
	best, bestSim := int32(0), float32(math.Inf(-1))
	for c := range v.rows() {
		if s := embed.Dot(x, v.row(c)); s > bestSim {
			best, bestSim = int32(c), s
		}
	}
	return best
}

// search returns the k allowed vectors of v most similar to q, best
// first, scanning the lists in order of their centroid's similarity to q:
// at least ix.probe of them, and more until k hits are found (a selective
// filter can widen it to the exact scan).
func (ix *ivf) search(q []float32, allowed bitset, k int) []hit {
	lists := make([]hit, ix.centroids.rows())
	for c := range lists {
		lists[c] = hit{int32(c), embed.Dot(q, ix.centroids.row(c))}
	}
	slices.SortFunc(lists, func(a, b hit) int {
		if worse(a, b) {
			return 1
		}
		return -1
	})
	top := newTopK(k)
	for i, l := range lists {
		if i >= ix.probe && len(top.h) >= k {
			break
		}
		for i := ix.start[l.doc]; i < ix.start[l.doc+1]; i++ {
			d := ix.order[i]
			if !allowed.has(int(d)) {
				continue
			}
			if c := embed.Dot(q, ix.rows.row(int(i))); c > 0 {
				top.push(d, c)
			}
		}
	}
	return top.best()
}
