package deeper

import (
	"sync"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

// WordNet's help. With WordNet's lexicon (Options.WordNet; the server's
// is built into the binary), a prompt also searches for words it does
// not say but means, each at relatedWeight of a prompt word:
//
//   - Words related by form to each prompt word: the lemma of an
//     inflected form and its irregular forms (bought, buy), and the words
//     derived from it or it from them (teach, teacher; retire,
//     retirement), which the analyser's light stemming does not join.
//     At most maxRelated per word.
//   - The kinds of what a "what X" question asks (focusWord): "What
//     injury did Tom get?" is answered by a turn that names a kind of
//     injury ("a stress fracture"), rarely by one that says "injury".
//     The library's terms for the kinds of X, at any depth below its
//     first kindSenses senses (its most frequent ones), are searched, the
//     rarest maxKindTerms of them. A noun whose kinds span more than
//     kindMaxSynsets synsets says too little to search by ("thing",
//     "activity").
const (
	relatedWeight  = 0.5
	maxRelated     = 4
	kindSenses     = 2
	kindMaxSynsets = 3000
	maxKindTerms   = 16
	// maxLexiconMemo bounds the words whose related or kind terms are
	// kept.
	maxLexiconMemo = 4096
)

// lexicon finds the related and kind terms of a prompt's words, and keeps
// them by word. The lexicon is read on the first prompt.
type lexicon struct {
	load    func() *wordnet.Lexicon // nil: no WordNet
	once    sync.Once
	x       *wordnet.Lexicon
	mu      sync.Mutex
	kinds   map[string][]string // focus noun lemma -> the terms of its kinds
	related map[string][]string // word -> the terms of its related words
}

// ready returns WordNet, reading it on the first call; nil without it.
func (l *lexicon) ready() *wordnet.Lexicon {
	if l.load == nil {
		return nil
	}
	l.once.Do(func() { l.x = l.load() })
	return l.x
}

// kindTerms returns the noun prompt asks a kind of, as WordNet
// lemmatises it, and the analysed terms of its kinds; none without
// WordNet or a focus noun.
func (l *lexicon) kindTerms(prompt string) (focus string, terms []string) {
	w := focusWord(prompt)
	if w == "" {
		return "", nil
	}
	x := l.ready()
	if x == nil {
		return "", nil
	}
	lemma := x.NounLemma(w)
	if lemma == "" {
		return "", nil
	}
	return lemma, l.memo(&l.kinds, lemma, func() []string {
		kinds, _ := x.Kinds(lemma, kindSenses, kindMaxSynsets)
		return kinds
	})
}

// relatedTerms returns the analysed terms of the words related to word
// by form; none without WordNet.
func (l *lexicon) relatedTerms(word string) []string {
	x := l.ready()
	if x == nil {
		return nil
	}
	return l.memo(&l.related, word, func() []string { return x.Related(word) })
}

// memo returns the analysed terms of the words find returns for key,
// finding them once per key.
func (l *lexicon) memo(m *map[string][]string, key string, find func() []string) []string {
	l.mu.Lock()
	terms, ok := (*m)[key]
	l.mu.Unlock()
	if ok {
		return terms
	}
	seen := map[string]bool{}
	for _, w := range find() {
		if t, ok := analyze.Normalize(w); ok && !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if *m == nil || len(*m) >= maxLexiconMemo {
		*m = map[string][]string{}
	}
	(*m)[key] = terms
	return terms
}

// kindTermsIn returns the terms of q's kinds that the view holds, found
// once per view and focus noun.
func (v *view) kindTermsIn(q query) []string {
	if len(q.kinds) == 0 {
		return nil
	}
	if terms, ok := v.kindTerms.Load(q.focus); ok {
		return terms.([]string)
	}
	var terms []string
	for _, t := range q.kinds {
		if v.hasTerm(t) {
			terms = append(terms, t)
		}
	}
	if v.kindCount.Add(1) <= maxLexiconMemo {
		v.kindTerms.Store(q.focus, terms)
	}
	return terms
}
