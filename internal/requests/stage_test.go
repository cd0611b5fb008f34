package requests

import (
	"slices"
	"testing"
)

func TestStages(t *testing.T) {
	want := []Stage{StageIntake, StageEvaluate, StagePlan, StageDocument, StageImplement, StageReview, StageDone}
	if !slices.Equal(ordered, want) {
		t.Fatalf("stages %v", ordered)
	}
	for in, want := range map[string]Stage{"Review": StageReview, " rejected ": StageRejected, "done": StageDone} {
		if got, err := ParseStage(in); err != nil || got != want {
			t.Errorf("%q: %s %v", in, got, err)
		}
	}
	if _, err := ParseStage("shipped"); err == nil {
		t.Error("parsed an unknown stage")
	}
	for _, s := range append(want, StageRejected) {
		if s.Terminal() != (s == StageDone || s == StageRejected) {
			t.Errorf("%s terminal %v", s, s.Terminal())
		}
	}
}

func TestIDs(t *testing.T) {
	for in, want := range map[string]string{"REQ-2026-0001": "REQ-2026-0001", "req-2026-0042": "REQ-2026-0042", "Req-2026-12345": "REQ-2026-12345", "REQ-2026-00007": "REQ-2026-0007"} {
		if got, err := ParseID(in); err != nil || got != want {
			t.Errorf("%q: %s %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "REQ-2026-001", "REQ-2026-0001 ", "REQ-2026-0001\u0000", "RQ-2026-0001", "REQ-2026-0001/../x"} {
		if _, err := ParseID(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if a, b := newProposalID(), newProposalID(); a == b || !proposalIDPattern.MatchString(a) {
		t.Errorf("proposal ids %s %s", a, b)
	}
	if compareIDs("REQ-2026-9999", "REQ-2026-10000") >= 0 || compareIDs("REQ-2027-0001", "REQ-2026-9999") <= 0 {
		t.Error("ids sort by text")
	}
}
