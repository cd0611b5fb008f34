package analyze

import "slices"

// Tier says how strongly a name matches a prompt, by their reference
// tokens (Tokens): the reference's shared match-tier ladder
// (core/recognition_contract.py), used by recognition's confidence and
// the turn compiler's prompt score. Higher is stronger.
type Tier int

// The tiers, weakest first.
const (
	// TierNone: no match.
	TierNone Tier = iota
	// TierTokenOverlap: prompt and name share a meaningful term, but the
	// name's tokens do not appear as a run. Not a recognition.
	TierTokenOverlap
	// TierTokenSubsequence: the name's tokens appear as a contiguous run
	// of the prompt's. The reference defines this tier, but its ladder
	// checks NAME_SUBSTRING first, and a token run is always a substring
	// of the space-joined prompt, so [TierOf] never returns it; it is
	// kept for the confidence buckets.
	TierTokenSubsequence
	// TierNameSubstring: the name's tokens appear as a contiguous run of
	// the prompt's (the reference: the space-joined name is a substring of
	// the space-joined prompt on whole-token boundaries).
	TierNameSubstring
	// TierExact: the prompt's tokens are exactly the name's.
	TierExact
)

// minTermLen is the shortest token that counts as a meaningful term of
// the ladder.
const minTermLen = 3

// Meaningful reports whether token t carries match signal: at least
// minTermLen bytes and in none of the lists.
func Meaningful(t string, lists ...Stopwords) bool {
	if len(t) < minTermLen {
		return false
	}
	for _, l := range lists {
		if l.Has(t) {
			return false
		}
	}
	return true
}

// TierOf returns the tier at which name's tokens match prompt's; a token
// overlap counts only tokens Meaningful under the lists.
func TierOf(prompt, name []string, lists ...Stopwords) Tier {
	switch {
	case len(name) == 0:
		return TierNone
	case slices.Equal(prompt, name):
		return TierExact
	case ContainsRun(prompt, name):
		return TierNameSubstring
	}
	for _, n := range name {
		if Meaningful(n, lists...) && slices.Contains(prompt, n) {
			return TierTokenOverlap
		}
	}
	return TierNone
}

// ContainsRun reports whether needle appears as a contiguous run of
// haystack.
func ContainsRun(haystack, needle []string) bool {
	if len(needle) == 0 || len(needle) > len(haystack) {
		return false
	}
	for i := 0; i+len(needle) <= len(haystack); i++ {
		if haystack[i] == needle[0] && slices.Equal(haystack[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}
