package recognition

import (
	"slices"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/recall/analyze"
)

// DetectEntities returns the entities of one unmerged list that prompt
// names and that are visible at level, in list order: the reference's
// recognition_first over a single manifest. An entity matches when its
// name or one of its aliases, tokenized, appears as a contiguous run of
// the prompt's tokens; it is listed once however many of its names match.
//
// Entities are not merged: names are kept as written, an entity without a
// type keeps an empty Type (so its recognition string reads
// "Oh -- Alpha."), ValidTo and tags are kept as written, and SourceAgents
// is empty. Of the merged-row fields only Name, Type, Aliases, Summary and
// Tags are filled.
//
// It scans every entity, the plain statement of the rules the index must
// agree with: the conformance and fuzz tests compare the two. The
// federation uses [Index].
func DetectEntities(prompt string, entities []Entity, level visibility.Level) []Match {
	p := analyze.Tokens(prompt)
	if len(p) == 0 {
		return nil
	}
	var out []Match
	for i := range entities {
		e := &entities[i]
		if !visibility.Visible(e.Visibility, level) {
			continue
		}
		matched, exact := false, false
		for _, cand := range candidates(e) {
			t := analyze.Tokens(cand)
			if analyze.ContainsRun(p, t) {
				matched = true
				exact = exact || slices.Equal(p, t)
			}
		}
		if !matched {
			continue
		}
		conf := ConfidenceMedium
		if exact {
			conf = ConfidenceHigh
		}
		out = append(out, Match{
			Row: Row{
				Name:         e.Name,
				Type:         e.Type,
				Aliases:      e.Aliases,
				Summary:      e.Summary,
				SourceAgents: []string{},
				Tags:         e.Tags,
			},
			ValidTo:    e.ValidTo,
			Confidence: conf,
		})
	}
	return out
}

// MatchTier returns the tier at which name matches prompt, by reference
// tokens, a token overlap counting only terms outside the reference's
// stopwords (analyze.RecognitionParity).
func MatchTier(prompt, name string) analyze.Tier {
	return analyze.TierOf(analyze.Tokens(prompt), analyze.Tokens(name), analyze.RecognitionParity)
}

// candidates returns the names that recognise e: its name, then its
// aliases.
func candidates(e *Entity) []string {
	return append([]string{e.Name}, e.Aliases...)
}
