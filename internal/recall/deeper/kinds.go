package deeper

import (
	"sync"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
	"github.com/getbourdon/bourdon-go/internal/recall/wordnet"
)

// Kinds. A question "What injury did Tom get?" is answered by a turn that
// names a kind of injury ("a stress fracture"), rarely by one that says
// "injury". With WordNet's noun taxonomy at hand (Options.Nouns), the
// noun such a question asks a kind of (focusWord) is searched together
// with the library's terms for its kinds, each at kindWeight of a prompt
// word, the rarest maxKindTerms of them. Only the first kindSenses
// senses of the noun are followed (its most frequent ones), and a noun
// whose kinds span more than kindMaxSynsets synsets says too little to
// search by ("thing", "activity").
const (
	kindWeight     = 0.5
	kindSenses     = 2
	kindMaxSynsets = 3000
	maxKindTerms   = 16
	// maxKindMemo bounds the nouns whose kinds' terms are kept.
	maxKindMemo = 4096
)

// kindFinder finds the terms of the kinds of a question's focus noun,
// and keeps them by noun. The taxonomy is loaded on the first prompt
// that has a focus word.
type kindFinder struct {
	load  func() *wordnet.Nouns // nil: no taxonomy
	once  sync.Once
	nouns *wordnet.Nouns
	mu    sync.Mutex
	memo  map[string][]string
}

// kinds returns the noun prompt asks a kind of, as WordNet lemmatises
// it, and the analysed terms of its kinds; none without a taxonomy or a
// focus noun.
func (k *kindFinder) kinds(prompt string) (focus string, terms []string) {
	w := focusWord(prompt)
	if w == "" || k.load == nil {
		return "", nil
	}
	k.once.Do(func() { k.nouns = k.load() })
	if k.nouns == nil {
		return "", nil
	}
	lemma := k.nouns.Lemma(w)
	if lemma == "" {
		return "", nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if terms, ok := k.memo[lemma]; ok {
		return lemma, terms
	}
	kinds, _ := k.nouns.Kinds(lemma, kindSenses, kindMaxSynsets)
	seen := map[string]bool{}
	for _, kind := range kinds {
		if t, ok := analyze.Normalize(kind); ok && !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	if k.memo == nil || len(k.memo) >= maxKindMemo {
		k.memo = map[string][]string{}
	}
	k.memo[lemma] = terms
	return lemma, terms
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
	if v.kindCount.Add(1) <= maxKindMemo {
		v.kindTerms.Store(q.focus, terms)
	}
	return terms
}
