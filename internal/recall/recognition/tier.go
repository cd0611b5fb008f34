package recognition

import "slices"

// Tier says how strongly a name matches a prompt: the reference's shared
// match-tier ladder (core/recognition_contract.py). Higher is stronger.
type Tier int

// The tiers, weakest first.
const (
	// TierNone: no match.
	TierNone Tier = iota
	// TierTokenOverlap: prompt and name share a meaningful term (at least
	// three characters, not a stopword), but the name's tokens do not
	// appear as a run. Not a recognition.
	TierTokenOverlap
	// TierTokenSubsequence: the name's tokens appear as a contiguous run
	// of the prompt's. The reference defines this tier, but its ladder
	// checks NAME_SUBSTRING first, and a token run is always a substring
	// of the space-joined prompt, so [MatchTier] never returns it; it is
	// kept for [Bucket].
	TierTokenSubsequence
	// TierNameSubstring: the name's tokens appear as a contiguous run of
	// the prompt's (the reference: the space-joined name is a substring of
	// the space-joined prompt on whole-token boundaries).
	TierNameSubstring
	// TierExact: the prompt's tokens are exactly the name's.
	TierExact
)

// String returns the reference's name of the tier ("NAME_SUBSTRING", ...).
func (t Tier) String() string {
	switch t {
	case TierTokenOverlap:
		return "TOKEN_OVERLAP"
	case TierTokenSubsequence:
		return "TOKEN_SUBSEQUENCE"
	case TierNameSubstring:
		return "NAME_SUBSTRING"
	case TierExact:
		return "EXACT"
	}
	return "NONE"
}

// The confidence buckets of the payload's confidence key.
const (
	ConfidenceNone   = "none"
	ConfidenceLow    = "low"
	ConfidenceMedium = "medium"
	ConfidenceHigh   = "high"
)

// minTermLen is the shortest token that counts as a meaningful term.
const minTermLen = 3

// stopwords are the reference's general-English stopwords (STOPWORDS in
// core/recognition_contract.py); they never count as meaningful terms.
var stopwords = map[string]bool{}

func init() {
	for _, w := range []string{
		"a", "about", "again", "am", "an", "and", "anything", "are", "as", "at",
		"be", "can", "did", "do", "for", "from", "how", "i", "is", "it", "its",
		"keep", "like", "made", "make", "me", "new", "no", "now", "of", "ok",
		"okay", "on", "or", "our", "please", "should", "so", "some", "tell",
		"that", "the", "then", "there", "this", "to", "us", "want", "was", "we",
		"what", "whats", "when", "where", "which", "will", "with", "work",
		"worked", "working", "would", "yes", "you",
	} {
		stopwords[w] = true
	}
}

// MatchTier returns the tier at which name matches prompt.
func MatchTier(prompt, name string) Tier {
	return tierOf(Tokenize(prompt), Tokenize(name))
}

// BestTier returns the strongest tier any of names reaches against prompt
// (TierNone for no names).
func BestTier(prompt string, names []string) Tier {
	p := Tokenize(prompt)
	best := TierNone
	for _, n := range names {
		best = max(best, tierOf(p, Tokenize(n)))
	}
	return best
}

// tierOf is MatchTier over token lists.
func tierOf(prompt, name []string) Tier {
	switch {
	case len(name) == 0:
		return TierNone
	case slices.Equal(prompt, name):
		return TierExact
	case containsRun(prompt, name):
		return TierNameSubstring
	}
	for _, n := range name {
		if meaningful(n) && slices.Contains(prompt, n) {
			return TierTokenOverlap
		}
	}
	return TierNone
}

// meaningful reports whether token t carries recognition signal.
func meaningful(t string) bool {
	return len(t) >= minTermLen && !stopwords[t]
}

// containsRun reports whether needle appears as a contiguous run of
// haystack.
func containsRun(haystack, needle []string) bool {
	if len(needle) == 0 || len(needle) > len(haystack) {
		return false
	}
	for i := 0; i+len(needle) <= len(haystack); i++ {
		if slices.Equal(haystack[i:i+len(needle)], needle) {
			return true
		}
	}
	return false
}

// Bucket maps a tier and the optional lifts to a confidence bucket, the
// reference's normalized_confidence: a tier score (TOKEN_OVERLAP 0.30,
// TOKEN_SUBSEQUENCE 0.55, NAME_SUBSTRING 0.75, EXACT 0.90), plus 0.15 for
// TOKEN_OVERLAP with two or more anchor terms, 0.10 for a cwd hit, 0.05
// for fresh recency; high from 0.80, medium from 0.45, else low. The sums
// are kept in hundredths, so the bucket edges are exact.
func Bucket(t Tier, anchorTerms int, cwdHit, recencyFresh bool) string {
	var score int
	switch t {
	case TierTokenOverlap:
		score = 30
		if anchorTerms >= 2 {
			score += 15
		}
	case TierTokenSubsequence:
		score = 55
	case TierNameSubstring:
		score = 75
	case TierExact:
		score = 90
	default:
		return ConfidenceNone
	}
	if cwdHit {
		score += 10
	}
	if recencyFresh {
		score += 5
	}
	switch {
	case score >= 80:
		return ConfidenceHigh
	case score >= 45:
		return ConfidenceMedium
	}
	return ConfidenceLow
}

// Confidence is the bucket the payload reports for a recognised entity:
// Bucket of the best tier across its name and aliases, with no lifts (the
// reference's recognition_confidence). For an entity that matched, that is
// "high" when the prompt is exactly the name or an alias and "medium"
// otherwise.
func Confidence(prompt string, names []string) string {
	return Bucket(BestTier(prompt, names), 1, false, false)
}
