package requests

import (
	"fmt"
	"slices"
	"strings"
)

// Stage is where a request stands in the lifecycle.
type Stage string

// The seven ordered stages, and the terminal rejected.
const (
	StageIntake    Stage = "intake"
	StageEvaluate  Stage = "evaluate"
	StagePlan      Stage = "plan"
	StageDocument  Stage = "document"
	StageImplement Stage = "implement"
	StageReview    Stage = "review"
	StageDone      Stage = "done"
	StageRejected  Stage = "rejected"
)

var ordered = []Stage{StageIntake, StageEvaluate, StagePlan, StageDocument, StageImplement, StageReview, StageDone}

// ParseStage reads a stage name, ignoring case and surrounding space.
func ParseStage(s string) (Stage, error) {
	st := Stage(strings.ToLower(strings.TrimSpace(s)))
	if st == StageRejected || slices.Contains(ordered, st) {
		return st, nil
	}
	return "", fmt.Errorf("unknown stage %q: want one of intake, evaluate, plan, document, implement, review, done, rejected", s)
}

// Terminal reports whether nothing can follow the stage.
func (s Stage) Terminal() bool { return s == StageDone || s == StageRejected }

// next returns the stage after s in lifecycle order ("" after done and
// for rejected).
func (s Stage) next() Stage {
	i := slices.Index(ordered, s)
	if i < 0 || i+1 == len(ordered) {
		return ""
	}
	return ordered[i+1]
}
