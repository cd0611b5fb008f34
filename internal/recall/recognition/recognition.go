// Package recognition is the turn-start recognition runtime of the Bourdon
// federation server: given a prompt, which known entities does it name,
// what is the one-line acknowledgement ("Oh -- Bourdon, the project."),
// and what bounded prompt-context fragment can an agent prepend to its own
// model prompt. It backs the MCP tool prepare_recognition_context.
//
// The package takes plain entity data (no manifests, no MCP). [Index]
// holds the entities of every agent of a library, merged into one
// recognition row per name the way the reference's
// build_recognition_manifest merges them. It is built once and updated one
// agent at a time ([Index.Update], [Index.Remove]); a query tokenizes the
// prompt once and looks its token runs up in a phrase table, so it never
// visits every entity. Visibility is applied at query time. (The
// reference's other mode, recognition_first over one unmerged manifest, is
// kept in the tests as DetectEntities, the plain statement of the rules
// the index must agree with; ValidTo and an empty Type only come from it.)
//
// [Index.Detect] produces [Match] values; [NewResult] turns them into the
// payload parts (recognition string, matched entities, confidence,
// prompt-context fragment).
//
// Matching follows the reference (core/recognition_runtime.py and
// core/recognition_contract.py, conformance oracle v0.11): text is split
// into lower-cased runs of ASCII letters and digits, and an entity matches
// when its name or one of its aliases appears in the prompt as a contiguous
// run of whole tokens. So "NAS" matches "a NAS box" but not "bananas", and
// "ILTT" does not match "ILTTed". Matches are listed in manifest (merge)
// order, not in the order the prompt mentions them.
package recognition

import (
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// Entity is one known_entities row as an agent published it. Strings are
// taken as written; the index strips and normalises what the reference
// strips.
type Entity struct {
	// Name is the entity's name. Rows whose name is empty or blank take no
	// part in the merged index (the reference skips them).
	Name string
	// Type is the entity's type, "" when missing.
	Type string
	// Aliases are other names that also recognise the entity.
	Aliases []string
	// Summary is the entity's summary text, "" when missing.
	Summary string
	// Tags are the entity's tags; "archived" and "canceled" mark an
	// end-of-life entity in a single-match recognition string.
	Tags []string
	// ValidTo is the end of the entity's validity. Only the tests'
	// unmerged scan reads it: the reference's merged rows drop it.
	ValidTo string
	// Visibility is the row's visibility; a reader at a lower access level
	// never sees the row, its aliases or its summary.
	Visibility visibility.Level
}

// Row is one recognition row: everything the agents visible at some access
// level say about one entity name, merged the way the reference's
// build_recognition_manifest merges known_entities. JSON keys are the
// reference's.
type Row struct {
	// Name is the first-seen name (agents in id order, entities in file
	// order), surrounding whitespace removed.
	Name string `json:"name"`
	// Type is the first-seen type, "topic" when that entity has none.
	// Rows of the tests' unmerged scan keep an empty type.
	Type string `json:"type"`
	// Types lists every type the contributing entities give, in first-seen
	// order ("topic" standing for a missing type).
	Types []string `json:"types"`
	// Aliases is the union of the contributing entities' aliases, trimmed,
	// blanks dropped.
	Aliases []string `json:"aliases"`
	// Summary is the first contribution's summary as written when it has
	// one, else the first later non-blank summary, trimmed.
	Summary string `json:"summary"`
	// Summaries maps each contributing agent to its (trimmed, non-blank)
	// summary.
	Summaries map[string]string `json:"summaries"`
	// SourceAgents lists the contributing agents in id order.
	SourceAgents []string `json:"source_agents"`
	// Tags is the union of the contributing entities' tags, trimmed,
	// blanks dropped.
	Tags []string `json:"tags"`
}

// Match is one recognised entity.
type Match struct {
	Row
	// ValidTo is the entity's valid_to; always "" for index matches.
	ValidTo string `json:"-"`
	// SummaryAgent is the agent whose text Row.Summary is, "" when unknown
	// or when there is no summary.
	SummaryAgent string `json:"-"`
	// Confidence is the entity's confidence bucket: "high" when the whole
	// prompt is the name or an alias, else "medium" (see [Confidence]).
	Confidence string `json:"-"`
}

// MatchedEntity is one item of the payload's matched_entities.
type MatchedEntity struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	SourceAgents []string `json:"source_agents"`
}

// topic is the type the reference gives an entity that has none.
const topic = "topic"

// typeOrTopic returns t, or "topic" when t is empty.
func typeOrTopic(t string) string {
	if t == "" {
		return topic
	}
	return t
}
