package docsearch

import "slices"

// hit is a scored document.
type hit struct {
	doc   int32
	score float32
}

// worse orders hits: a lower score, or on a tie a higher number, is worse.
func worse(a, b hit) bool {
	return a.score < b.score || a.score == b.score && a.doc > b.doc
}

// topK keeps the k best hits pushed, in a min-heap of worse.
type topK struct {
	k int
	h []hit
}

func newTopK(k int) *topK { return &topK{k: k, h: make([]hit, 0, k)} }

func (t *topK) push(doc int32, score float32) {
	x := hit{doc, score}
	if len(t.h) < t.k {
		t.h = append(t.h, x)
		t.up(len(t.h) - 1)
		return
	}
	if t.k == 0 || !worse(t.h[0], x) {
		return
	}
	t.h[0] = x
	t.down(0)
}

func (t *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !worse(t.h[i], t.h[p]) {
			return
		}
		t.h[i], t.h[p] = t.h[p], t.h[i]
		i = p
	}
}

func (t *topK) down(i int) {
	for {
		m, l, r := i, 2*i+1, 2*i+2
		if l < len(t.h) && worse(t.h[l], t.h[m]) {
			m = l
		}
		if r < len(t.h) && worse(t.h[r], t.h[m]) {
			m = r
		}
		if m == i {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// best returns the hits kept, best first.
func (t *topK) best() []hit {
	out := slices.Clone(t.h)
	slices.SortFunc(out, func(a, b hit) int {
		if worse(a, b) {
			return 1
		}
		if worse(b, a) {
			return -1
		}
		return 0
	})
	return out
}
