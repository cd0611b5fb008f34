package docsearch

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/recall/embed"
)

// randomVectors returns n random unit vectors of dimension dim.
func randomVectors(n, dim int) *vectors {
	r := rand.New(rand.NewPCG(3, 4))
	v := &vectors{dim: dim}
	for range n {
		x := make([]float32, dim)
		for j := range x {
			x[j] = float32(r.NormFloat64())
		}
		embed.Normalize(x)
		v.data = append(v.data, x...)
	}
	return v
}

func TestIVFFilesEveryVectorOnce(t *testing.T) {
	v := randomVectors(2000, 16)
	ix := buildIVF(v)
	if got := ix.centroids.rows(); got != 44 {
		t.Fatalf("%d lists, want sqrt(2000) = 44", got)
	}
	order := slices.Clone(ix.order)
	slices.Sort(order)
	for i, d := range order {
		if int(d) != i {
			t.Fatalf("vector %d filed %d times", i, slices.Index(order, int32(i)))
		}
	}
	again := buildIVF(v)
	if !slices.Equal(ix.order, again.order) || !slices.Equal(ix.centroids.data, again.centroids.data) {
		t.Fatal("two builds differ")
	}
}

func TestIVFSearch(t *testing.T) {
	v := randomVectors(2000, 16)
	v.ivf = buildIVF(v)
	all, few := newBitset(2000), newBitset(2000)
	for d := range 2000 {
		all.set(d)
		if d%97 == 0 {
			few.set(d)
		}
	}
	q := v.row(7)
	// Probing every list is the exact scan.
	v.ivf.probe = v.ivf.centroids.rows()
	if got, want := v.search(q, all, 50), v.exact(q, all, 50); !slices.Equal(got, want) {
		t.Errorf("all lists probed: %v, exact %v", got, want)
	}
	// A selective filter widens the probe until k hits are found.
	v.ivf.probe = 1
	got, want := v.search(q, few, 10), v.exact(q, few, 10)
	if len(got) != len(want) {
		t.Errorf("filtered: %d hits, exact %d", len(got), len(want))
	}
	if got := v.search(q, all, 5); len(got) != 5 || got[0].doc != 7 {
		t.Errorf("one list: %v, want 5 hits led by the query's own vector", got)
	}
}
