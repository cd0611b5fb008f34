package recognition

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// Keys are what the index derives from an entity to find and merge it:
// the merge key of its row and the phrase keys of its name and aliases.
// A reader that answers one prompt from stored entities (a command run on
// every turn) keeps the keys with them, and indexes only the entities
// [PromptPhrases.Select] picks.
type Keys struct {
	// Merge is the row's merge key; "" for an entity the index leaves
	// out (blank name).
	Merge string
	// Phrases are the phrase keys of the name and the aliases, without
	// blanks or duplicates.
	Phrases []string
}

// KeysOf returns e's keys as [Index.Update] computes them.
func KeysOf(e *Entity) Keys {
	name := pyStrip(e.Name)
	if name == "" {
		return Keys{}
	}
	k := Keys{Merge: mergeKey(name)}
	if nk := phraseKey(name); nk != "" {
		k.Phrases = append(k.Phrases, nk)
	}
	for _, alias := range strippedItems(e.Aliases) {
		if ak := phraseKey(alias); ak != "" && !slices.Contains(k.Phrases, ak) {
			k.Phrases = append(k.Phrases, ak)
		}
	}
	return k
}

// PromptPhrases says which phrases a prompt names: the contiguous runs of
// its tokens, as [Index.Detect] looks them up.
type PromptPhrases struct {
	tokens []string
	at     map[string][]int // token -> its positions
}

// NewPromptPhrases tokenizes prompt.
func NewPromptPhrases(prompt string) *PromptPhrases {
	p := &PromptPhrases{tokens: analyze.Tokens(prompt)}
	p.at = make(map[string][]int, len(p.tokens))
	for i, t := range p.tokens {
		p.at[t] = append(p.at[t], i)
	}
	return p
}

// Names reports whether the phrase key (tokens joined by single spaces)
// is a contiguous run of the prompt's tokens.
func (p *PromptPhrases) Names(phrase string) bool {
	first, rest, _ := strings.Cut(phrase, " ")
	for _, i := range p.at[first] {
		j, r, ok := i+1, rest, true
		for r != "" {
			var t string
			t, r, _ = strings.Cut(r, " ")
			if j >= len(p.tokens) || p.tokens[j] != t {
				ok = false
				break
			}
			j++
		}
		if ok {
			return true
		}
	}
	return false
}

// Select returns, of each agent's entities (keys[i][j] being the keys of
// entities[i][j]), those an index needs to answer the prompt: every
// entity of every row that one of the prompt's phrases may recognise. An
// index of the selection, updated agent by agent in the same order,
// detects the same rows, merged the same way and in the same order, as an
// index of all the entities: a row is matched and merged from its own
// contributions only, and the selection keeps whole rows in list order.
func (p *PromptPhrases) Select(entities [][]Entity, keys [][]Keys) [][]Entity {
	named := map[string]bool{}
	for _, ks := range keys {
		for _, k := range ks {
			if k.Merge == "" || named[k.Merge] {
				continue
			}
			for _, ph := range k.Phrases {
				if p.Names(ph) {
					named[k.Merge] = true
					break
				}
			}
		}
	}
	out := make([][]Entity, len(entities))
	if len(named) == 0 {
		return out
	}
	for i, es := range entities {
		for j := range es {
			if named[keys[i][j].Merge] {
				out[i] = append(out[i], es[j])
			}
		}
	}
	return out
}
