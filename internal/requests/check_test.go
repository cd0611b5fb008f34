package requests

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestCheckApprovalForeseesApprove: CheckApproval answers what Approve
// then does (the same refusal, the same resulting stage), and changes
// nothing on disk.
func TestCheckApprovalForeseesApprove(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		ctx := context.Background()
		s := newStore(t)
		p, err := s.ProposeIntake(ctx, formJSON(t, nil), agent)
		if err != nil {
			t.Fatal(err)
		}
		before := documents(t, s)

		var self *SelfApprovalError
		if c, err := s.CheckApproval(p.ID, agent); err != nil || !errors.As(c.Refusal, &self) {
			t.Fatalf("the proposer's own approval: %+v, %v", c, err)
		}
		c, err := s.CheckApproval(p.ID, operator)
		if err != nil || c.Refusal != nil || c.Stage != StageIntake || len(c.Next) != 0 {
			t.Fatalf("an intake another operator approves: %+v, %v", c, err)
		}
		if after := documents(t, s); !reflect.DeepEqual(before, after) {
			t.Fatalf("checking changed the store:\n%v\n%v", before, after)
		}
		_, r, err := s.Approve(ctx, p.ID, operator)
		if err != nil {
			t.Fatal(err)
		}
		if c, _ := s.CheckApproval(p.ID, operator); !errors.Is(c.Refusal, ErrDecided) {
			t.Errorf("a decided proposal: %+v", c)
		}

		// Two transitions from the same version: the first approved makes the
		// second stale, which the check says as Approve does.
		tr := TransitionRequest{To: StageEvaluate, Attachments: Attachments{Classification: classification(false)}}
		a, err := s.ProposeTransition(ctx, r.ID, tr, agent)
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.ProposeTransition(ctx, r.ID, tr, agent)
		if err != nil {
			t.Fatal(err)
		}
		c, err = s.CheckApproval(a.ID, operator)
		if err != nil || c.Refusal != nil || c.Stage != StageEvaluate || len(c.Next) == 0 {
			t.Fatalf("a transition to evaluate: %+v, %v (want the evaluate gate's missing sign-offs in Next)", c, err)
		}
		if _, _, err := s.Approve(ctx, a.ID, operator); err != nil {
			t.Fatal(err)
		}
		c, err = s.CheckApproval(b.ID, operator)
		_, _, approveErr := s.Approve(ctx, b.ID, operator)
		if err != nil || !errors.Is(c.Refusal, ErrStale) || approveErr == nil || c.Refusal.Error() != approveErr.Error() {
			t.Errorf("a stale transition: check %v (%v), approve %v", c.Refusal, err, approveErr)
		}
		if _, err := s.CheckApproval("prop-000000000000", operator); !errors.Is(err, ErrNotFound) {
			t.Errorf("an unknown proposal: %v", err)
		}
	})
}

// tree lists every file under dir with its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		out[path] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
