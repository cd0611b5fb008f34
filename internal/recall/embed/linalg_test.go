package embed

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randomDense(rows, cols int, seed uint64) *dense {
	rng := rand.New(rand.NewPCG(seed, seed))
	m := newDense(rows, cols)
	for i := range m.a {
		m.a[i] = rng.NormFloat64()
	}
	return m
}

func TestOrthonormalize(t *testing.T) {
	m := randomDense(500, 12, 1)
	// make column 5 depend on columns 0 and 1
	for i := range m.rows {
		r := m.row(i)
		r[5] = 2*r[0] - r[1]
	}
	orthonormalize(m)
	g := gram(m)
	for p := range 12 {
		for q := range 12 {
			want := 0.0
			if p == q && p != 5 {
				want = 1
			}
			if got := g.a[p*12+q]; math.Abs(got-want) > 1e-9 {
				t.Fatalf("(QᵀQ)[%d][%d] = %g, want %g", p, q, got, want)
			}
		}
	}
}

func TestSymEigen(t *testing.T) {
	// A = V diag(9, 4, 1) Vᵀ for a rotation V.
	c, s := math.Cos(0.3), math.Sin(0.3)
	v := [][]float64{{c, -s, 0}, {s, c, 0}, {0, 0, 1}}
	lambda := []float64{4, 9, 1}
	a := newDense(3, 3)
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				a.a[i*3+j] += v[i][k] * lambda[k] * v[j][k]
			}
		}
	}
	vals, vecs := symEigen(a)
	for i, want := range []float64{9, 4, 1} {
		if math.Abs(vals[i]-want) > 1e-9 {
			t.Errorf("eigenvalue %d = %g, want %g", i, vals[i], want)
		}
	}
	// the first eigenvector is ±(−s, c, 0)
	if d := math.Abs(-s*vecs.a[0] + c*vecs.a[3]); math.Abs(d-1) > 1e-9 {
		t.Errorf("first eigenvector (%g, %g, %g) is not ±(−sin, cos, 0)", vecs.a[0], vecs.a[3], vecs.a[6])
	}
}

func TestRandomizedSVDMatchesExact(t *testing.T) {
	// A term-document matrix of rank 3: its singular values are found.
	docs := &sparse{start: []int32{0}}
	rng := rand.New(rand.NewPCG(7, 7))
	basis := [][]float32{{1, 1, 0, 0, 0, 0}, {0, 0, 1, 1, 0, 0}, {0, 0, 0, 0, 1, 1}}
	for range 40 {
		w := []float32{float32(rng.IntN(3) + 1), float32(rng.IntN(3)), float32(rng.IntN(2))}
		for term := range 6 {
			var x float32
			for k := range 3 {
				x += w[k] * basis[k][term]
			}
			if x != 0 {
				docs.idx = append(docs.idx, int32(term))
				docs.val = append(docs.val, x)
			}
		}
		docs.start = append(docs.start, int32(len(docs.val)))
	}
	u, sigma := randomizedSVD(docs, 6, 6)
	if len(sigma) != 3 {
		t.Fatalf("%d singular values, want the rank 3", len(sigma))
	}
	// Exact: AAᵀ = U Σ² Uᵀ, so ‖Aᵀu_i‖ = σ_i.
	for i := range sigma {
		ui := make([]float64, 6)
		for term := range 6 {
			ui[term] = u.a[term*u.cols+i]
		}
		var norm float64
		for d := range docs.rows() {
			var x float64
			for k := docs.start[d]; k < docs.start[d+1]; k++ {
				x += float64(docs.val[k]) * ui[docs.idx[k]]
			}
			norm += x * x
		}
		if math.Abs(math.Sqrt(norm)-sigma[i]) > 1e-6*sigma[0] {
			t.Errorf("‖Aᵀu_%d‖ = %g, σ_%d = %g", i, math.Sqrt(norm), i, sigma[i])
		}
	}
}
