package wordnet

import (
	"bytes"
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Lexicon is what this server takes from WordNet: which words are English
// words (Known, for docs search's spelling repair), the taxonomy of nouns
// (the senses of each noun, and under each sense the kinds of it, its
// hyponyms and instances: a whippet under dog, a fracture under injury),
// and the words related to a word by form (teach, teacher, taught;
// retire, retirement; child, children). It is immutable and safe for
// concurrent use.
//
// Only one-word lemmas are kept. They are held in a few flat arrays
// (about 3 MB), so a server that keeps a Lexicon gives the garbage
// collector next to nothing to mark. Each list is cut from one array by
// a table of starts: the list of item i is array[start[i]:start[i+1]].
type Lexicon struct {
	names     string   // the words, sorted, end to end
	nameStart []uint32 // word i is names[nameStart[i]:nameStart[i+1]]
	// senseStart: word i's noun synsets, most frequent first, in senses.
	senseStart []int32
	senses     []int32
	// wordStart: synset s's words (word numbers), in words.
	wordStart []int32
	words     []int32
	// kindStart: the noun synsets directly under synset s, in kinds.
	kindStart []int32
	kinds     []int32
	// relatedStart: the words related to word i by form, in related.
	relatedStart []int32
	related      []int32
	plurals      map[string]string // irregular plural -> noun lemma (geese -> goose)
}

// list returns array[start[i]:start[i+1]].
func list(array, start []int32, i int32) []int32 { return array[start[i]:start[i+1]] }

// synsetRef names a synset by part of speech and offset in its data file.
type synsetRef struct {
	pos    byte // n, v, a (satellites included) or r
	offset uint32
}

// dataFiles are the data and exception files of each part of speech.
var dataFiles = []struct {
	pos       byte
	data, exc string
}{{'n', "data.noun", "noun.exc"}, {'v', "data.verb", "verb.exc"}, {'a', "data.adj", "adj.exc"}, {'r', "data.adv", "adv.exc"}}

// loader holds a Lexicon's parts while the files are read. Words are
// numbered as they are first met; the numbers are made alphabetical at
// the end (finish).
type loader struct {
	x        *Lexicon
	number   map[string]int32 // word -> its number
	words    []string         // number -> word
	bySynset map[synsetRef]int32
	// kindTo are the targets of x.kinds, resolved at the end.
	kindTo []synsetRef
	// derived are the derivational links: word from (a number) to the
	// word at index to (from 0) of synset target.
	derived []derivedLink
	pairs   [][2]int32 // words related by form, both ways
	// senses are index.noun's words with their senses, in order.
	senses [][2]int32 // word, synset
}

// derivedLink is one derivational pointer of a data file, while loading.
type derivedLink struct {
	from   int32
	to     int
	target synsetRef
}

// LoadLexicon reads the data files, index.noun and the exception lists
// of the WordNet database in dir. Lines that do not parse are skipped.
func LoadLexicon(dir string) (*Lexicon, error) {
	// Room for the synsets and words saves regrowing the maps: WordNet
	// 3.0's data files hold a synset in about 185 bytes, and a word for
	// each synset or so.
	size := int64(0)
	for _, f := range dataFiles {
		if fi, err := os.Stat(filepath.Join(dir, f.data)); err == nil {
			size += min(fi.Size(), maxFile)
		}
	}
	l := &loader{
		x:        &Lexicon{plurals: map[string]string{}, wordStart: []int32{0}, kindStart: []int32{0}},
		number:   make(map[string]int32, size/150),
		bySynset: make(map[synsetRef]int32, size/185),
	}
	for _, f := range dataFiles {
		err := eachLine(filepath.Join(dir, f.data), func(fields [][]byte) { l.synset(f.pos, fields) })
		if err != nil {
			return nil, err
		}
		err = eachLine(filepath.Join(dir, f.exc), func(fields [][]byte) {
			form := l.intern(fields[0])
			for _, lemma := range fields[1:] {
				n := l.intern(lemma)
				l.relate(form, n)
				if f.pos == 'n' && form >= 0 && n >= 0 {
					l.x.plurals[l.words[form]] = l.words[n]
				}
			}
		})
		if err != nil {
			return nil, err
		}
	}
	// index.noun: lemma pos synset_cnt p_cnt ptr... sense_cnt tagsense_cnt offset...
	err := eachLine(filepath.Join(dir, "index.noun"), func(f [][]byte) {
		w, ok := l.number[string(f[0])]
		if len(f) < 4 || !ok {
			return
		}
		sc, err1 := strconv.Atoi(string(f[2]))
		pc, err2 := strconv.Atoi(string(f[3]))
		if err1 != nil || err2 != nil || sc < 0 || pc < 0 || sc > len(f) || pc > len(f) || len(f) < 6+pc+sc {
			return
		}
		for _, o := range f[6+pc : 6+pc+sc] {
			off, err := strconv.ParseUint(string(o), 10, 32)
			if s, ok := l.bySynset[synsetRef{'n', uint32(off)}]; err == nil && ok {
				l.senses = append(l.senses, [2]int32{w, s})
			}
		}
	})
	if err != nil {
		return nil, err
	}
	if len(l.senses) == 0 {
		return nil, fmt.Errorf("wordnet: no nouns in %s", dir)
	}
	return l.finish(), nil
}

// intern returns the number of the word w (lower-cased, without a
// syntactic marker); -1 for a multi-word lemma (joined by "_").
func (l *loader) intern(w []byte) int32 {
	if i := bytes.IndexByte(w, '('); i > 0 {
		w = w[:i] // a marker: "(p)" and the like
	}
	if bytes.IndexByte(w, '_') >= 0 {
		return -1
	}
	if hasUpper(w) {
		w = bytes.ToLower(w)
	}
	if n, ok := l.number[string(w)]; ok {
		return n
	}
	n := int32(len(l.words))
	l.words = append(l.words, string(w))
	l.number[l.words[n]] = n
	return n
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if c >= 'A' && c <= 'Z' {
			return true
		}
	}
	return false
}

// relate records that words a and b are related by form.
func (l *loader) relate(a, b int32) {
	if a >= 0 && b >= 0 && a != b {
		l.pairs = append(l.pairs, [2]int32{a, b}, [2]int32{b, a})
	}
}

// synset reads one line of a data file:
//
//	offset lex_filenum ss_type w_cnt (word lex_id)... p_cnt (symbol offset pos source/target)...
//
// A multi-word lemma keeps its place in the synset's words (as -1), so
// that the pointers' word numbers still count right.
func (l *loader) synset(pos byte, f [][]byte) {
	if len(f) < 5 {
		return
	}
	off, err1 := strconv.ParseUint(string(f[0]), 10, 32)
	wc, err2 := strconv.ParseUint(string(f[3]), 16, 8)
	p := 4 + 2*int(wc)
	if err1 != nil || err2 != nil || len(f) <= p {
		return
	}
	x := l.x
	l.bySynset[synsetRef{pos, uint32(off)}] = int32(len(x.wordStart) - 1)
	first := len(x.words)
	for i := range int(wc) {
		x.words = append(x.words, l.intern(f[4+2*i]))
	}
	x.wordStart = append(x.wordStart, int32(len(x.words)))
	if pc, err := strconv.Atoi(string(f[p])); err == nil && pc >= 0 && pc <= len(f) && len(f) >= p+1+4*pc {
		for i := range pc {
			l.pointer(pos, f[p+1+4*i:p+5+4*i], x.words[first:])
		}
	}
	x.kindStart = append(x.kindStart, int32(len(l.kindTo)))
}

// pointer reads one pointer of a synset whose words are words: a kind
// below a noun, or a derivationally related form.
func (l *loader) pointer(pos byte, ptr [][]byte, words []int32) {
	to, err := strconv.ParseUint(string(ptr[1]), 10, 32)
	if err != nil || len(ptr[2]) != 1 || len(ptr[3]) != 4 {
		return
	}
	target := synsetRef{partOfSpeech(ptr[2][0]), uint32(to)}
	switch string(ptr[0]) {
	case "~", "~i": // hyponym, instance
		if pos == 'n' && target.pos == 'n' {
			l.kindTo = append(l.kindTo, target)
		}
	case "+":
		src, err1 := strconv.ParseUint(string(ptr[3][:2]), 16, 8)
		dst, err2 := strconv.ParseUint(string(ptr[3][2:]), 16, 8)
		if err1 == nil && err2 == nil && src >= 1 && int(src) <= len(words) && dst >= 1 {
			l.derived = append(l.derived, derivedLink{from: words[src-1], to: int(dst) - 1, target: target})
		}
	}
}

// partOfSpeech folds an adjective satellite (s) into the adjectives, as
// data.adj holds both.
func partOfSpeech(c byte) byte {
	if c == 's' {
		return 'a'
	}
	return c
}

// finish resolves the links, numbers the words alphabetically and cuts
// the lists.
func (l *loader) finish() *Lexicon {
	x := l.x
	for s := range len(x.kindStart) - 1 {
		targets := l.kindTo[x.kindStart[s]:x.kindStart[s+1]]
		x.kindStart[s] = int32(len(x.kinds))
		for _, t := range targets {
			if k, ok := l.bySynset[t]; ok {
				x.kinds = append(x.kinds, k)
			}
		}
	}
	x.kindStart[len(x.kindStart)-1] = int32(len(x.kinds))
	for _, d := range l.derived {
		if s, ok := l.bySynset[d.target]; ok {
			if words := list(x.words, x.wordStart, s); d.to < len(words) {
				l.relate(d.from, words[d.to])
			}
		}
	}
	// Alphabetical numbers.
	order := make([]int32, len(l.words))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(l.words[a], l.words[b]) })
	renumber := make([]int32, len(l.words))
	var names strings.Builder
	x.nameStart = make([]uint32, 1, len(order)+1)
	for i, old := range order {
		renumber[old] = int32(i)
		names.WriteString(l.words[old])
		x.nameStart = append(x.nameStart, uint32(names.Len()))
	}
	x.names = names.String()
	// Synsets' words, without multi-word lemmas.
	kept := x.words[:0]
	for s := range len(x.wordStart) - 1 {
		words := x.words[x.wordStart[s]:x.wordStart[s+1]]
		x.wordStart[s] = int32(len(kept))
		for _, w := range words {
			if w >= 0 {
				kept = append(kept, renumber[w])
			}
		}
	}
	x.wordStart[len(x.wordStart)-1] = int32(len(kept))
	x.words = slices.Clip(kept)
	// Senses and related words, by word.
	for i := range l.senses {
		l.senses[i][0] = renumber[l.senses[i][0]]
	}
	slices.SortStableFunc(l.senses, func(a, b [2]int32) int { return cmp.Compare(a[0], b[0]) })
	x.senseStart, x.senses = cut(l.senses, len(order))
	for i := range l.pairs {
		l.pairs[i] = [2]int32{renumber[l.pairs[i][0]], renumber[l.pairs[i][1]]}
	}
	slices.SortFunc(l.pairs, func(a, b [2]int32) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	x.relatedStart, x.related = cut(slices.Compact(l.pairs), len(order))
	return x
}

// cut turns pairs sorted by their first member into lists by it: the
// second members of item i are values[start[i]:start[i+1]].
func cut(pairs [][2]int32, items int) (start, values []int32) {
	start = make([]int32, items+1)
	values = make([]int32, len(pairs))
	for i, p := range pairs {
		start[p[0]+1]++
		values[i] = p[1]
	}
	for i := range items {
		start[i+1] += start[i]
	}
	return start, values
}

// name returns word i.
func (x *Lexicon) name(i int32) string { return x.names[x.nameStart[i]:x.nameStart[i+1]] }

// word returns the number of the word w.
func (x *Lexicon) word(w string) (int32, bool) {
	count := len(x.nameStart) - 1
	i := sort.Search(count, func(i int) bool { return x.name(int32(i)) >= w })
	return int32(i), w != "" && i < count && x.name(int32(i)) == w
}

// lemmas returns the numbers of the words w (any case) may be a form of:
// w itself when WordNet has it (a lemma or an irregular form), else the
// lemmas a regular ending detaches to (teaches: teach).
func (x *Lexicon) lemmas(word string) []int32 {
	w := strings.ToLower(word)
	if i, ok := x.word(w); ok {
		return []int32{i}
	}
	var out []int32
	for _, s := range suffixes {
		if base, ok := strings.CutSuffix(w, s[0]); ok && base != "" {
			if i, ok := x.word(base + s[1]); ok && !slices.Contains(out, i) {
				out = append(out, i)
			}
		}
	}
	return out
}

// NounLemma returns the noun lemma of word (any case): the word itself,
// the lemma of an irregular plural (geese: goose), or the word without a
// regular plural ending; "" when WordNet has no such one-word noun.
func (x *Lexicon) NounLemma(word string) string {
	w := strings.ToLower(word)
	candidates := []string{w, x.plurals[w]}
	for _, s := range nounSuffixes {
		if base, ok := strings.CutSuffix(w, s[0]); ok && base != "" {
			candidates = append(candidates, base+s[1])
		}
	}
	for _, c := range candidates {
		if i, ok := x.word(c); ok && len(list(x.senses, x.senseStart, i)) > 0 {
			return c
		}
	}
	return ""
}

// Kinds returns the words for every kind of the noun lemma, in its first
// maxSenses senses, down to any depth (for "injury": fracture, sprain,
// bruise, burn, ...), and the other words of those senses (hurt, harm),
// without the lemma itself. ok is false when the lemma is not a noun, or
// is too general to say much: its kinds span more than maxSynsets
// synsets ("thing", "activity").
func (x *Lexicon) Kinds(lemma string, maxSenses, maxSynsets int) (kinds []string, ok bool) {
	l, found := x.word(lemma)
	if !found {
		return nil, false
	}
	senses := list(x.senses, x.senseStart, l)
	if len(senses) == 0 {
		return nil, false
	}
	queue := slices.Clone(senses[:min(len(senses), maxSenses)])
	seen := map[int32]bool{}
	for _, s := range queue {
		seen[s] = true
	}
	for i := 0; i < len(queue); i++ {
		for _, k := range list(x.kinds, x.kindStart, queue[i]) {
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
		for _, w := range list(x.words, x.wordStart, s) {
			if !words[w] {
				words[w] = true
				kinds = append(kinds, x.name(w))
			}
		}
	}
	return kinds, true
}

// Related returns the words related to word (any case) by form: the
// lemma it is a form of (taught: teach; teaches: teach), that lemma's
// irregular forms (taught), and the words WordNet derives from it or it
// from them (teacher, teaching). word itself is not among them.
func (x *Lexicon) Related(word string) []string {
	w := strings.ToLower(word)
	var out []string
	add := func(i int32) {
		if n := x.name(i); n != w && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, l := range x.lemmas(w) {
		add(l)
		for _, r := range list(x.related, x.relatedStart, l) {
			add(r)
		}
	}
	return out
}

// Known tells whether word (any case) is an English word: a WordNet
// lemma, an irregular form of one, or a regular inflection of one. A nil
// Lexicon knows no word.
func (x *Lexicon) Known(word string) bool {
	return x != nil && len(x.lemmas(word)) > 0
}
