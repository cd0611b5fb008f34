package docs

import (
	"cmp"
	"fmt"
	"slices"
)

// The rules a Problem names: the blocking gates of docs.config.json that
// this loader enforces, plus duplicate-uid, uid-pattern and
// dependency-cycle.
const (
	// RuleSchema: a file is not of its YamlMime type's shape (unknown
	// discriminator or key, wrong value type), is unreadable, too large or
	// not text, or a markdown extension (moniker block, config) is malformed.
	RuleSchema = "schema"
	// RuleMetadataRequired: a required field is missing or out of range.
	RuleMetadataRequired = "metadata-required"
	// RuleBrokenXref: a uid reference (@uid, <xref:uid>, [text](xref:uid),
	// or a dependsOn, teachesSkill, certifies, supersededBy or
	// implementedBy entry) names no node.
	RuleBrokenXref = "broken-xref"
	// RuleBrokenLink: an include path does not resolve to a readable file
	// inside the corpus root, or includes form a cycle.
	RuleBrokenLink = "broken-link"
	// RuleCodeSnippet: a :::code reference does not resolve.
	RuleCodeSnippet = "code-snippet-resolves"
	// RuleQuizShape: a knowledge check is not single-answer shaped.
	RuleQuizShape = "quiz-shape"
	// RuleAchievement: a badge or trophy uid is not an achievement.
	RuleAchievement = "achievement-resolves"
	// RuleUnitMembership: a unit is listed by no module or by several, or
	// a module or path lists something that is not a unit or module.
	RuleUnitMembership = "unit-membership"
	// RuleDuplicateUID: a uid is defined twice; the second is skipped.
	RuleDuplicateUID = "duplicate-uid"
	// RuleUIDPattern: an authored uid does not match build.xref.uidPattern.
	RuleUIDPattern = "uid-pattern"
	// RuleDependencyCycle: dependsOn edges form a cycle.
	RuleDependencyCycle = "dependency-cycle"
)

// Problem is one finding of a validation gate, located at the key or text
// that causes it.
type Problem struct {
	// Root is the corpus root the file belongs to, as passed to Load.
	Root string
	// File is the file's slash-separated path relative to Root.
	File string
	// Line is 1-based.
	Line    int
	Rule    string
	Message string
}

// String formats the problem as file:line: rule: message.
func (p Problem) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Rule, p.Message)
}

// sortProblems orders problems by root (in the order given), file, line,
// rule and message, and drops exact repeats (a shared include reports its
// problems once, however many units include it).
func sortProblems(ps []Problem, roots []string) []Problem {
	rank := func(r string) int { return slices.Index(roots, r) }
	slices.SortFunc(ps, func(a, b Problem) int {
		return cmp.Or(
			cmp.Compare(rank(a.Root), rank(b.Root)),
			cmp.Compare(a.File, b.File),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(a.Message, b.Message),
		)
	})
	return slices.Compact(ps)
}
