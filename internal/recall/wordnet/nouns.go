package wordnet

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Nouns is WordNet's taxonomy of nouns: the senses of each one-word noun,
// and under each sense the kinds of it (its hyponyms and instances: a
// whippet under dog, a fracture under injury). It is immutable and safe
// for concurrent use.
//
// It is held in a few flat arrays (about 2 MB), so a server that keeps it
// gives the garbage collector next to nothing to mark. Each list
// is cut from one array by a table of starts: the list of item i is
// array[start[i]:start[i+1]].
type Nouns struct {
	names      string   // the one-word lemmas, sorted, end to end
	nameStart  []uint32 // lemma i is names[nameStart[i]:nameStart[i+1]]
	senseStart []int32  // lemma i's synsets, most frequent first, in senses
	senses     []int32
	wordStart  []int32 // synset s's one-word lemmas (lemma numbers), in words
	words      []int32
	kindStart  []int32 // the synsets directly under synset s, in kinds
	kinds      []int32
	plurals    map[string]string // irregular plural -> lemma (geese -> goose)
}

// list returns array[start[i]:start[i+1]].
func list(array, start []int32, i int32) []int32 { return array[start[i]:start[i+1]] }

// LoadNouns reads index.noun, data.noun and noun.exc of the WordNet
// database in dir.
func LoadNouns(dir string) (*Nouns, error) {
	// index.noun: lemma pos synset_cnt p_cnt ptr... sense_cnt tagsense_cnt offset...
	type lemma struct {
		name    string
		offsets []uint32
	}
	var lemmas []lemma
	err := eachLine(filepath.Join(dir, "index.noun"), func(f [][]byte) {
		if len(f) < 4 || bytes.IndexByte(f[0], '_') >= 0 {
			return
		}
		sc, err1 := strconv.Atoi(string(f[2]))
		pc, err2 := strconv.Atoi(string(f[3]))
		if err1 != nil || err2 != nil || sc < 0 || pc < 0 || len(f) < 6+pc+sc {
			return
		}
		l := lemma{name: string(f[0])}
		for _, o := range f[6+pc : 6+pc+sc] {
			if off, err := strconv.ParseUint(string(o), 10, 32); err == nil {
				l.offsets = append(l.offsets, uint32(off))
			}
		}
		lemmas = append(lemmas, l)
	})
	if err != nil {
		return nil, err
	}
	if len(lemmas) == 0 {
		return nil, fmt.Errorf("wordnet: no nouns in %s", dir)
	}
	slices.SortFunc(lemmas, func(a, b lemma) int { return strings.Compare(a.name, b.name) })
	lemmas = slices.CompactFunc(lemmas, func(a, b lemma) bool { return a.name == b.name })
	n := &Nouns{nameStart: []uint32{0}, plurals: map[string]string{}}
	var names strings.Builder
	for _, l := range lemmas {
		names.WriteString(l.name)
		n.nameStart = append(n.nameStart, uint32(names.Len()))
	}
	n.names = names.String()

	// data.noun: offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt (ptr offset pos st)...
	synset := map[uint32]int32{} // file offset -> synset number
	var under [][]uint32         // synset -> the offsets of its kinds
	n.wordStart = []int32{0}
	err = eachLine(filepath.Join(dir, "data.noun"), func(f [][]byte) {
		if len(f) < 5 {
			return
		}
		off, err1 := strconv.ParseUint(string(f[0]), 10, 32)
		wc, err2 := strconv.ParseUint(string(f[3]), 16, 8)
		p := 4 + 2*int(wc)
		if err1 != nil || err2 != nil || len(f) <= p {
			return
		}
		synset[uint32(off)] = int32(len(under))
		for i := range int(wc) {
			if w, ok := n.lemma(strings.ToLower(trimMarker(string(f[4+2*i])))); ok {
				n.words = append(n.words, w)
			}
		}
		n.wordStart = append(n.wordStart, int32(len(n.words)))
		var kinds []uint32
		if pc, err := strconv.Atoi(string(f[p])); err == nil && pc >= 0 && len(f) >= p+1+4*pc {
			for i := range pc {
				ptr := f[p+1+4*i:]
				sym := string(ptr[0])
				if (sym == "~" || sym == "~i") && string(ptr[2]) == "n" {
					if to, err := strconv.ParseUint(string(ptr[1]), 10, 32); err == nil {
						kinds = append(kinds, uint32(to))
					}
				}
			}
		}
		under = append(under, kinds)
	})
	if err != nil {
		return nil, err
	}
	n.kindStart = []int32{0}
	for _, offs := range under {
		for _, o := range offs {
			if s, ok := synset[o]; ok {
				n.kinds = append(n.kinds, s)
			}
		}
		n.kindStart = append(n.kindStart, int32(len(n.kinds)))
	}
	n.senseStart = []int32{0}
	for _, l := range lemmas {
		for _, o := range l.offsets {
			if s, ok := synset[o]; ok {
				n.senses = append(n.senses, s)
			}
		}
		n.senseStart = append(n.senseStart, int32(len(n.senses)))
	}
	err = eachLine(filepath.Join(dir, "noun.exc"), func(f [][]byte) {
		if len(f) > 1 {
			n.plurals[string(f[0])] = string(f[1])
		}
	})
	if err != nil {
		return nil, err
	}
	return n, nil
}

// trimMarker drops the syntactic marker, "(p)" and the like, that data
// files append to some words.
func trimMarker(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		return w[:i]
	}
	return w
}

// name returns lemma i.
func (n *Nouns) name(i int32) string { return n.names[n.nameStart[i]:n.nameStart[i+1]] }

// lemma returns the number of the lemma w.
func (n *Nouns) lemma(w string) (int32, bool) {
	count := len(n.nameStart) - 1
	i := sort.Search(count, func(i int) bool { return n.name(int32(i)) >= w })
	return int32(i), i < count && n.name(int32(i)) == w
}

// Lemma returns the noun lemma of word (any case): the word itself, the
// lemma of an irregular plural, or the word without a regular plural
// ending; "" when WordNet has no such one-word noun.
func (n *Nouns) Lemma(word string) string {
	w := strings.ToLower(word)
	if _, ok := n.lemma(w); ok {
		return w
	}
	if l := n.plurals[w]; l != "" {
		if _, ok := n.lemma(l); ok {
			return l
		}
	}
	for _, s := range nounSuffixes {
		if base, ok := strings.CutSuffix(w, s[0]); ok && base != "" {
			if _, ok := n.lemma(base + s[1]); ok {
				return base + s[1]
			}
		}
	}
	return ""
}

// Kinds returns the one-word lemmas of every kind of the noun lemma, in
// its first maxSenses senses, down to any depth (for "injury": fracture,
// sprain, bruise, burn, ...), and the other words of those senses (hurt,
// harm), without the lemma itself. ok is false when the lemma is not a
// noun, or is too general to say much: its kinds span more than
// maxSynsets synsets ("thing", "activity").
func (n *Nouns) Kinds(lemma string, maxSenses, maxSynsets int) (kinds []string, ok bool) {
	l, found := n.lemma(lemma)
	if !found {
		return nil, false
	}
	senses := list(n.senses, n.senseStart, l)
	queue := slices.Clone(senses[:min(len(senses), maxSenses)])
	seen := map[int32]bool{}
	for _, s := range queue {
		seen[s] = true
	}
	for i := 0; i < len(queue); i++ {
		for _, k := range list(n.kinds, n.kindStart, queue[i]) {
			if !seen[k] {
				if len(seen) >= maxSynsets {
					return nil, false
				}
				seen[k] = true
				queue = append(queue, k)
			}
		}
	}
	words := map[int32]bool{l: true}
	for _, s := range queue {
		for _, w := range list(n.words, n.wordStart, s) {
			if !words[w] {
				words[w] = true
				kinds = append(kinds, n.name(w))
			}
		}
	}
	return kinds, true
}

var (
	nounsOnce    sync.Once
	defaultNouns *Nouns
)

// DefaultNouns is the noun taxonomy of DefaultDir, read once; nil when it
// is not installed or does not read.
func DefaultNouns() *Nouns {
	nounsOnce.Do(func() { defaultNouns, _ = LoadNouns(DefaultDir) })
	return defaultNouns
}
