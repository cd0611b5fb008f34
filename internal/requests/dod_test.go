package requests

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// withDoD returns a request classified as c with the states of a.
func withDoD(c *Classification, a Attachments) *Request {
	return &Request{ID: "REQ-2026-0001", Classification: c, DoD: a.DoD, CodeownerApproval: a.CodeownerApproval}
}

func TestDoDDoneOnlyWithCodeownerApproval(t *testing.T) {
	a := allPass()
	if c := DoD(withDoD(classification(false), a)); c.Result != ResultDone || len(c.Reasons) > 0 || len(c.Items) != 12 {
		t.Fatalf("all core items pass: %+v", c)
	}
	for _, approval := range []*Approval{nil, {Approved: false, By: "github:carol"}, {Approved: true}} {
		a.CodeownerApproval = approval
		c := DoD(withDoD(classification(false), a))
		want := []string{"no code-owner approval: attach codeownerApproval {approved: true, by: <code owner>}"}
		if c.Result != ResultNotDone || !cmp.Equal(c.Reasons, want) {
			t.Errorf("approval %+v: result %s, reasons %q", approval, c.Result, c.Reasons)
		}
	}
}

func TestDoDConditionalItems(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    *Classification
		want []string
	}{
		{"unclassified", nil, nil},
		{"plain feature", classification(false), nil},
		{"breaking", &Classification{Type: "fix", Area: "api", Impact: &Impact{Breaking: true}}, []string{"M1"}},
		{"security impact", &Classification{Type: "fix", Area: "api", Impact: &Impact{Security: true}}, []string{"S1", "S2"}},
		{"security type", &Classification{Type: "security", Area: "api", Impact: &Impact{}}, []string{"S1", "S2"}},
		{"deps", &Classification{Type: "deps", Area: "api", Impact: &Impact{}}, []string{"D1"}},
		{"design-class", classification(true), []string{"R1", "R2"}},
		{"rfc needed", &Classification{Type: "feature", Area: "api", Impact: &Impact{}, RFCNeeded: true}, []string{"R1", "R2"}},
		{"perf", &Classification{Type: "refactor", Area: "api", Impact: &Impact{Perf: true}}, []string{"P1"}},
		{"ui area", &Classification{Type: "feature", Area: "ui", Impact: &Impact{}}, []string{"A1"}},
		{"frontend area", &Classification{Type: "feature", Area: "frontend", Impact: &Impact{}}, []string{"A1"}},
		{"accessibility flag", &Classification{Type: "feature", Area: "cli", Impact: &Impact{}, Accessibility: true}, []string{"A1"}},
		{"everything", &Classification{Type: "deps", Area: "ui", Impact: &Impact{Breaking: true, Perf: true, Security: true}, DesignClass: true},
			[]string{"M1", "S1", "S2", "D1", "R1", "R2", "P1", "A1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := DoD(withDoD(tc.c, allPass()))
			var got []string
			for _, it := range c.Items[12:] {
				got = append(got, it.ID)
				if it.Core || it.Condition == "" || it.Status != Fail {
					t.Errorf("%s: %+v", it.ID, it)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("conditional items (-want +got):\n%s", diff)
			}
			if want := len(tc.want) == 0; (c.Result == ResultDone) != want {
				t.Errorf("result %s with unrecorded conditional items %v", c.Result, got)
			}
		})
	}
}

func TestDoDItemStates(t *testing.T) {
	secure := &Classification{Type: "fix", Area: "api", Impact: &Impact{Security: true}}
	for _, tc := range []struct {
		name    string
		id      string
		state   *ItemState // nil: not recorded
		status  ItemStatus
		message string
	}{
		{"not recorded", "C2", nil, Fail, "no state recorded; attach dod.C2 {status: pass, evidence: <where it shows>}"},
		{"pass without evidence", "C2", &ItemState{Status: Pass}, Fail, "passes without evidence; attach dod.C2.evidence (a CI run, a review, a document)"},
		{"recorded fail", "C2", &ItemState{Status: Fail, Evidence: "run 9 red"}, Fail, "recorded as failing; fix it and record pass with evidence"},
		{"core waived", "C1", &ItemState{Status: Waived, Waiver: &Waiver{Approver: "github:carol", Reason: "urgent"}}, Fail, "core items can never be waived; record pass with evidence"},
		{"core n/a", "C5", &ItemState{Status: NA, Evidence: "no commits"}, Fail, "core items cannot be n/a; record pass with evidence"},
		{"evals n/a with a reason", "C3", &ItemState{Status: NA, Evidence: "no agent behaviour changed"}, NA, ""},
		{"evals n/a without a reason", "C3", &ItemState{Status: NA}, Fail, "n/a needs the reason as evidence (e.g. no agent behaviour changed)"},
		{"conditional n/a", "S1", &ItemState{Status: NA, Evidence: "nothing to model"}, Fail, "applies because of impact.security or type security, so it cannot be n/a; record pass, or waive it with approver and reason"},
		{"conditional waived", "S1", &ItemState{Status: Waived, Waiver: &Waiver{Approver: "github:carol", Reason: "covered by the platform threat model"}}, Waived, ""},
		{"waiver without approver", "S2", &ItemState{Status: Waived, Waiver: &Waiver{Reason: "later"}}, Fail, "the waiver needs an approver and a reason: attach dod.S2.waiver {approver, reason}"},
		{"waiver without reason", "S2", &ItemState{Status: Waived, Waiver: &Waiver{Approver: "github:carol"}}, Fail, "the waiver needs an approver and a reason: attach dod.S2.waiver {approver, reason}"},
		{"waived without waiver", "S2", &ItemState{Status: Waived}, Fail, "the waiver needs an approver and a reason: attach dod.S2.waiver {approver, reason}"},
		{"unknown status", "C2", &ItemState{Status: "green"}, Fail, `unknown status "green"; record pass, fail, n/a or waived`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := allPass()
			a.DoD["S1"] = ItemState{Status: Pass, Evidence: "threat-model.md"}
			a.DoD["S2"] = ItemState{Status: Pass, Evidence: "review #4"}
			delete(a.DoD, tc.id)
			if tc.state != nil {
				a.DoD[tc.id] = *tc.state
			}
			c := DoD(withDoD(secure, a))
			var it Item
			for _, x := range c.Items {
				if x.ID == tc.id {
					it = x
				}
			}
			if it.Status != tc.status || it.Message != tc.message {
				t.Errorf("got %s %q, want %s %q", it.Status, it.Message, tc.status, tc.message)
			}
			wantDone := tc.status != Fail
			if (c.Result == ResultDone) != wantDone {
				t.Errorf("result %s, reasons %q", c.Result, c.Reasons)
			}
			if !wantDone && (len(c.Reasons) != 1 || c.Reasons[0] != tc.id+" "+it.Title+": "+tc.message) {
				t.Errorf("reasons %q", c.Reasons)
			}
		})
	}
}
