package recognition

import "github.com/getbourdon/bourdon-go/internal/recall/analyze"

// The confidence buckets of the payload's confidence key.
const (
	ConfidenceNone   = "none"
	ConfidenceLow    = "low"
	ConfidenceMedium = "medium"
	ConfidenceHigh   = "high"
)

// BestTier returns the strongest tier any of names reaches against prompt
// (TierNone for no names), by reference tokens, a token overlap counting
// only terms outside the reference's stopwords (analyze.RecognitionParity).
func BestTier(prompt string, names []string) analyze.Tier {
	p := analyze.Tokens(prompt)
	best := analyze.TierNone
	for _, n := range names {
		best = max(best, analyze.TierOf(p, analyze.Tokens(n), analyze.RecognitionParity))
	}
	return best
}

// Bucket maps a tier and the optional lifts to a confidence bucket, the
// reference's normalized_confidence: a tier score (TOKEN_OVERLAP 0.30,
// TOKEN_SUBSEQUENCE 0.55, NAME_SUBSTRING 0.75, EXACT 0.90), plus 0.15 for
// TOKEN_OVERLAP with two or more anchor terms, 0.10 for a cwd hit, 0.05
// for fresh recency; high from 0.80, medium from 0.45, else low. The sums
// are kept in hundredths, so the bucket edges are exact.
func Bucket(t analyze.Tier, anchorTerms int, cwdHit, recencyFresh bool) string {
	var score int
	switch t {
	case analyze.TierTokenOverlap:
		score = 30
		if anchorTerms >= 2 {
			score += 15
		}
	case analyze.TierTokenSubsequence:
		score = 55
	case analyze.TierNameSubstring:
		score = 75
	case analyze.TierExact:
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
