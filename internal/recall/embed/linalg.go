package embed

import (
	"cmp"
	"math"
	"runtime"
	"slices"
	"sync"
)

// dense is a row-major matrix of float64.
type dense struct {
	rows, cols int
	a          []float64
}

func newDense(rows, cols int) *dense {
	return &dense{rows: rows, cols: cols, a: make([]float64, rows*cols)}
}

func (m *dense) row(i int) []float64 { return m.a[i*m.cols : (i+1)*m.cols] }

// sparse is a matrix in compressed rows: the entries of row i are
// idx[start[i]:start[i+1]] (column numbers) and the matching val.
type sparse struct {
	start []int32
	idx   []int32
	val   []float32
}

func (s *sparse) rows() int { return len(s.start) - 1 }

// mul returns s·m, where m has one row per column of s.
func (s *sparse) mul(m *dense) *dense {
	out := newDense(s.rows(), m.cols)
	parallel(s.rows(), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o := out.row(i)
			for k := s.start[i]; k < s.start[i+1]; k++ {
				axpy(o, float64(s.val[k]), m.row(int(s.idx[k])))
			}
		}
	})
	return out
}

// transpose returns s with rows and columns swapped; cols is the number
// of columns of s.
func (s *sparse) transpose(cols int) *sparse {
	t := &sparse{start: make([]int32, cols+1), idx: make([]int32, len(s.idx)), val: make([]float32, len(s.val))}
	for _, j := range s.idx {
		t.start[j+1]++
	}
	for j := 1; j <= cols; j++ {
		t.start[j] += t.start[j-1]
	}
	next := append([]int32(nil), t.start[:cols]...)
	for i := 0; i < s.rows(); i++ {
		for k := s.start[i]; k < s.start[i+1]; k++ {
			j := s.idx[k]
			t.idx[next[j]] = int32(i)
			t.val[next[j]] = s.val[k]
			next[j]++
		}
	}
	return t
}

// axpy adds a·x to y.
func axpy(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	for i := range y {
		y[i] += a * x[i]
	}
}

// mulSmall returns m·s for a small square or wide s (s.rows == m.cols).
func mulSmall(m, s *dense) *dense {
	out := newDense(m.rows, s.cols)
	parallel(m.rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			o, r := out.row(i), m.row(i)
			for k, x := range r {
				if x != 0 {
					axpy(o, x, s.row(k))
				}
			}
		}
	})
	return out
}

// gramChunks is the fixed number of partial sums of gram, so the result
// does not depend on the number of CPUs.
const gramChunks = 16

// gram returns mᵀm.
func gram(m *dense) *dense {
	parts := make([]*dense, gramChunks)
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := range parts {
		lo, hi := c*m.rows/gramChunks, (c+1)*m.rows/gramChunks
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			g := newDense(m.cols, m.cols)
			for i := lo; i < hi; i++ {
				r := m.row(i)
				for p, x := range r {
					if x != 0 {
						axpy(g.row(p)[p:], x, r[p:])
					}
				}
			}
			parts[c] = g
		}()
	}
	wg.Wait()
	g := newDense(m.cols, m.cols)
	for _, p := range parts {
		axpy(g.a, 1, p.a)
	}
	for p := 0; p < g.cols; p++ {
		for q := p + 1; q < g.cols; q++ {
			g.a[q*g.cols+p] = g.a[p*g.cols+q]
		}
	}
	return g
}

// orthonormalize replaces the columns of m by an orthonormal basis of
// their span, by Cholesky QR done twice; a column that depends on the ones
// before it becomes zero.
func orthonormalize(m *dense) {
	for range 2 {
		l := cholesky(gram(m))
		parallel(m.rows, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				solveLowerT(l, m.row(i))
			}
		})
	}
}

// cholesky returns the lower-triangular l with l·lᵀ = g for a symmetric
// positive semi-definite g; the column of a pivot that vanishes is zero.
func cholesky(g *dense) *dense {
	n := g.cols
	l := newDense(n, n)
	var maxDiag float64
	for i := range n {
		maxDiag = math.Max(maxDiag, g.a[i*n+i])
	}
	tiny := 1e-10 * maxDiag
	for j := range n {
		d := g.a[j*n+j]
		lj := l.row(j)
		for k := range j {
			d -= lj[k] * lj[k]
		}
		if d <= tiny {
			continue
		}
		d = math.Sqrt(d)
		lj[j] = d
		for i := j + 1; i < n; i++ {
			li := l.row(i)
			s := g.a[i*n+j]
			for k := range j {
				s -= li[k] * lj[k]
			}
			li[j] = s / d
		}
	}
	return l
}

// solveLowerT replaces x by the y with y·lᵀ = x (that is, l·yᵀ = xᵀ),
// leaving a zero where l has a zero pivot.
func solveLowerT(l *dense, x []float64) {
	for j := range x {
		lj := l.row(j)
		if lj[j] == 0 {
			x[j] = 0
			continue
		}
		s := x[j]
		for k := range j {
			s -= lj[k] * x[k]
		}
		x[j] = s / lj[j]
	}
}

// symEigen returns the eigenvalues of the symmetric matrix a in decreasing
// order and the matching unit eigenvectors as the columns of a matrix, by
// cyclic Jacobi rotations. a is overwritten.
func symEigen(a *dense) ([]float64, *dense) {
	n := a.cols
	v := newDense(n, n)
	for i := range n {
		v.a[i*n+i] = 1
	}
	for range 100 {
		var off, norm float64
		for p := range n {
			for q := range n {
				x := a.a[p*n+q] * a.a[p*n+q]
				norm += x
				if p != q {
					off += x
				}
			}
		}
		if off <= 1e-22*norm {
			break
		}
		for p := range n {
			for q := p + 1; q < n; q++ {
				rotate(a, v, p, q)
			}
		}
	}
	vals := make([]float64, n)
	order := make([]int, n)
	for i := range n {
		vals[i] = a.a[i*n+i]
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(vals[y], vals[x]) })
	sorted := newDense(n, n)
	outVals := make([]float64, n)
	for c, i := range order {
		outVals[c] = vals[i]
		for r := range n {
			sorted.a[r*n+c] = v.a[r*n+i]
		}
	}
	return outVals, sorted
}

// rotate applies the Jacobi rotation that zeroes a[p][q] to a and v.
func rotate(a, v *dense, p, q int) {
	n := a.cols
	apq := a.a[p*n+q]
	if apq == 0 {
		return
	}
	app, aqq := a.a[p*n+p], a.a[q*n+q]
	theta := (aqq - app) / (2 * apq)
	t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
	if theta < 0 {
		t = -t
	}
	c := 1 / math.Sqrt(t*t+1)
	s := t * c
	for k := range n {
		akp, akq := a.a[k*n+p], a.a[k*n+q]
		a.a[k*n+p] = c*akp - s*akq
		a.a[k*n+q] = s*akp + c*akq
	}
	for k := range n {
		apk, aqk := a.a[p*n+k], a.a[q*n+k]
		a.a[p*n+k] = c*apk - s*aqk
		a.a[q*n+k] = s*apk + c*aqk
	}
	for k := range n {
		vkp, vkq := v.a[k*n+p], v.a[k*n+q]
		v.a[k*n+p] = c*vkp - s*vkq
		v.a[k*n+q] = s*vkp + c*vkq
	}
}

// parallel calls fn on consecutive ranges that cover [0, n), on up to
// GOMAXPROCS goroutines. Every index is handled by exactly one call, so
// results written per index do not depend on the number of CPUs.
func parallel(n int, fn func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), max(1, n/64))
	if workers <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*n/workers, (w+1)*n/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(lo, hi)
		}()
	}
	wg.Wait()
}
