package requests

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIntakeIsOnlyADraftUntilApproved(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		if err != nil {
			t.Fatal(err)
		}
		if p.Kind != KindIntake || p.Status != StatusPending || p.To != StageIntake || p.Intake.Title != "Agents cannot see which requests are waiting for review." {
			t.Errorf("%+v", p)
		}
		if page, err := s.List(Filter{}); err != nil || page.Total != 0 {
			t.Fatalf("a proposal made a request: %+v %v", page, err)
		}
		if _, err := readDoc(s, "proposals/"+p.ID+".yaml"); err != nil {
			t.Fatal(err)
		}
		got, r, err := s.Approve(context.Background(), p.ID, operator)
		if err != nil {
			t.Fatal(err)
		}
		if r.ID != "REQ-2026-0001" || r.Stage != StageIntake || r.Owner != owner || r.Requester != "github:bob" || r.Type != "feature" {
			t.Errorf("%+v", r)
		}
		want := []Transition{{To: StageIntake, Actor: agent, ApprovedBy: operator, Proposal: p.ID, At: clock}}
		if diff := cmp.Diff(want, r.History); diff != "" {
			t.Errorf("history (-want +got):\n%s", diff)
		}
		if got.Status != StatusApproved || got.RequestID != r.ID || got.DecidedBy != operator || !got.DecidedAt.Equal(clock) {
			t.Errorf("decided proposal %+v", got)
		}
		if _, err := readDoc(s, "proposals/"+p.ID+".yaml"); !errors.Is(err, os.ErrNotExist) {
			t.Error("the pending copy is still there")
		}
		if again, err := s.Proposal(strings.ToUpper(p.ID)); err != nil || again.Status != StatusApproved {
			t.Errorf("decided proposal read back: %+v %v", again, err)
		}
	})
}

func TestEveryForwardTransition(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		for _, designClass := range []bool{false, true} {
			s := newStore(t)
			id := accepted(t, s).ID
			all := steps()
			if designClass {
				all[0].Attachments.Classification = classification(true)
				all[2].To = StageDocument
				all = append(all[:3:3],
					TransitionRequest{To: StageDocument, Reason: "add a rollback section"},
					TransitionRequest{To: StageImplement, Attachments: Attachments{Links: []Link{{Kind: LinkADR, UID: "cogitave.core.adr-0005", Status: "accepted"}}}},
					all[3], all[4])
				all[len(all)-1].Attachments.DoD["R1"] = ItemState{Status: Pass, Evidence: "cogitave.core.adr-0005"}
				all[len(all)-1].Attachments.DoD["R2"] = ItemState{Status: Pass, Evidence: "implementation notes"}
			}
			var last *Request
			for _, tr := range all {
				last = advance(t, s, id, tr)
			}
			var path []Stage
			var skipped []Stage
			for _, h := range last.History {
				path = append(path, h.To)
				skipped = append(skipped, h.Skipped...)
				if h.Actor != agent || h.ApprovedBy != operator || h.Proposal == "" || !h.At.Equal(clock) {
					t.Errorf("history entry %+v", h)
				}
			}
			want := []Stage{StageIntake, StageEvaluate, StagePlan, StageImplement, StageReview, StageDone}
			wantSkipped := []Stage{StageDocument}
			if designClass {
				want = []Stage{StageIntake, StageEvaluate, StagePlan, StageDocument, StageDocument, StageImplement, StageReview, StageDone}
				wantSkipped = nil
			}
			if diff := cmp.Diff(want, path); diff != "" {
				t.Errorf("design-class %v: path (-want +got):\n%s", designClass, diff)
			}
			if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
				t.Errorf("design-class %v: skipped (-want +got):\n%s", designClass, diff)
			}
			if c := DoD(last); c.Result != ResultDone {
				t.Errorf("done with DoD %+v", c)
			}
			read, err := s.Get(strings.ToLower(id))
			if err != nil || !cmp.Equal(read, last) {
				t.Errorf("read back: %v\n%s", err, cmp.Diff(last, read))
			}
			if _, err := s.ProposeTransition(context.Background(), id, TransitionRequest{To: StageRejected, Reason: "late"}, agent); err == nil {
				t.Error("a done request took a transition")
			}
		}
	})
}

func TestRequestFileIsReadable(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		id := accepted(t, s).ID
		advance(t, s, id, steps()[0])
		data, err := readDoc(s, id+".yaml")
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{fileHeader, "id: REQ-2026-0001\n", "stage: evaluate\n", "owner: cogitave/platform\n", "classification:\n  type: feature\n", "history:\n  - to: intake\n", "  - from: intake\n    to: evaluate\n"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("the file lacks %q:\n%s", want, data)
			}
		}
	})
}
