package analyze

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
)

// Count is how often a term occurs in one field of a document.
type Count struct {
	Term  int32 // the term's number
	Field uint8
	N     int32
}

// countChunks is the fixed number of parts CountAll splits the documents
// into, so that term numbers do not depend on the number of CPUs.
const countChunks = 16

// CountAll tokenizes the fields of n documents in parallel. text(d, f)
// is field f of document d, for f < fields (at most 255). It returns the
// counts of each document, sorted by term then field, and the terms by
// number, numbered in order of first appearance.
func CountAll(n, fields int, text func(doc, field int) string, analyzer Analyzer) ([][]Count, []string) {
	parts := make([]counter, countChunks)
	eachChunk(func(c int) { parts[c].run(c*n/countChunks, (c+1)*n/countChunks, fields, text, analyzer) })
	global := map[string]int32{}
	var terms []string
	remaps := make([][]int32, len(parts))
	for c, ch := range parts {
		remaps[c] = make([]int32, len(ch.terms))
		for i, t := range ch.terms {
			id, ok := global[t]
			if !ok {
				id = int32(len(terms))
				global[t] = id
				terms = append(terms, t)
			}
			remaps[c][i] = id
		}
	}
	eachChunk(func(c int) {
		for _, d := range parts[c].docs {
			for i := range d {
				d[i].Term = remaps[c][d[i].Term]
			}
			slices.SortFunc(d, func(a, b Count) int {
				return cmp.Or(cmp.Compare(a.Term, b.Term), cmp.Compare(a.Field, b.Field))
			})
		}
	})
	docs := make([][]Count, 0, n)
	for _, ch := range parts {
		docs = append(docs, ch.docs...)
	}
	return docs, terms
}

// eachChunk calls fn for every chunk number, on up to GOMAXPROCS
// goroutines.
func eachChunk(fn func(c int)) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for c := range countChunks {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			fn(c)
		}()
	}
	wg.Wait()
}

// counter counts the documents of one chunk under local term numbers.
type counter struct {
	terms []string
	docs  [][]Count
}

func (ch *counter) run(first, last, fields int, text func(doc, field int) string, analyzer Analyzer) {
	ids := map[string]int32{}      // term → local number
	byWord := map[string][]int32{} // word → its terms' local numbers
	var n []int32                  // occurrences, by local number·fields + field
	var touched []int32            // the keys of n counted in this document
	var buf []string
	for d := first; d < last; d++ {
		touched = touched[:0]
		for f := range fields {
			s := text(d, f)
			for start, end := range words(s) {
				word := s[start:end]
				ws, ok := byWord[word]
				if !ok {
					buf = analyzer(buf[:0], word)
					ws = make([]int32, len(buf))
					for i, t := range buf {
						id, ok := ids[t]
						if !ok {
							id = int32(len(ch.terms))
							ids[t] = id
							ch.terms = append(ch.terms, t)
							n = append(n, make([]int32, fields)...)
						}
						ws[i] = id
					}
					byWord[word] = ws
				}
				for _, id := range ws {
					k := id*int32(fields) + int32(f)
					if n[k] == 0 {
						touched = append(touched, k)
					}
					n[k]++
				}
			}
		}
		slices.Sort(touched)
		counts := make([]Count, len(touched))
		for i, k := range touched {
			counts[i] = Count{Term: k / int32(fields), Field: uint8(k % int32(fields)), N: n[k]}
			n[k] = 0
		}
		ch.docs = append(ch.docs, counts)
	}
}
