package requests

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGateRefusals(t *testing.T) {
	noOwner := request(StageIntake, false)
	noOwner.Owner, noOwner.Requester = "", ""
	badSignOff := request(StageEvaluate, false)
	badSignOff.Assessments = []Assessment{{Kind: "triage", Result: "signed-off", By: "cogitave/other"}, {Kind: "security", Result: "clear"}}
	planWith := func(p *Plan) TransitionRequest {
		return TransitionRequest{To: StageImplement, Attachments: Attachments{Plan: p}}
	}
	for _, tc := range []struct {
		name string
		r    *Request
		tr   TransitionRequest
		want []string
	}{
		{"done is terminal", request(StageDone, false), TransitionRequest{To: StageReview, Reason: "reopen"},
			[]string{"REQ-2026-0001 is done, a terminal stage: nothing can follow it"}},
		{"rejected is terminal", &Request{ID: "REQ-2026-0001", Stage: StageRejected}, TransitionRequest{To: StageIntake, Reason: "again"},
			[]string{"REQ-2026-0001 is rejected, a terminal stage: nothing can follow it"}},
		{"unknown stage", request(StageIntake, false), TransitionRequest{To: "shipped"},
			[]string{`unknown stage "shipped": want one of intake, evaluate, plan, document, implement, review, done, rejected`}},
		{"reject without reason", request(StagePlan, false), TransitionRequest{To: StageRejected, Reason: "  "},
			[]string{"rejecting needs a reason (out of scope, duplicate of REQ-…): send reason"}},
		{"same stage", request(StageImplement, false), TransitionRequest{To: StageImplement},
			[]string{"REQ-2026-0001 is already in implement: propose review to advance, or rejected with a reason"}},
		{"document loop without reason", request(StageDocument, true), TransitionRequest{To: StageDocument},
			[]string{"document → document records the changes requested: send reason naming them"}},
		{"back without reason", request(StageReview, false), TransitionRequest{To: StageImplement},
			[]string{"returning to implement needs a reason: send reason saying which gate failed and why"}},
		{"two stages ahead", request(StageIntake, false), TransitionRequest{To: StagePlan},
			[]string{"intake → plan is not a step of the lifecycle: from intake propose evaluate or rejected with a reason"}},
		{"far ahead", request(StageEvaluate, false), TransitionRequest{To: StageReview},
			[]string{"evaluate → review is not a step of the lifecycle: from evaluate propose plan, go back to intake with a reason, or rejected with a reason"}},
		{"two stages back", request(StageReview, false), TransitionRequest{To: StagePlan, Reason: "replan"},
			[]string{"review → plan is not a step of the lifecycle: from review propose done, go back to implement with a reason, or rejected with a reason"}},
		{"back past a skipped document", request(StageImplement, false), TransitionRequest{To: StageDocument, Reason: "needs an ADR"},
			[]string{"implement → document is not a step of the lifecycle: from implement propose review, go back to plan with a reason, or rejected with a reason"}},
		{"document for work that is not design-class", request(StagePlan, false), TransitionRequest{To: StageDocument, Attachments: steps()[2].Attachments},
			[]string{"document is for design-class work only and REQ-2026-0001 is not (classification.designClass and rfcNeeded are false): propose implement, which records the skip"}},
		{"design-class work skipping document", request(StagePlan, true), TransitionRequest{To: StageImplement, Attachments: steps()[2].Attachments},
			[]string{"REQ-2026-0001 is design-class (classification.designClass or rfcNeeded): it cannot skip document; propose document"}},
		{"intake without owner or requester", noOwner, TransitionRequest{To: StageEvaluate}, []string{
			`owner "" is not a team: no owner, no request; the owner is set at intake as org/team, e.g. cogitave/platform`,
			"no requester identity: it is set at intake (identity)",
		}},
		{"evaluate with nothing", request(StageEvaluate, false), TransitionRequest{To: StagePlan, Attachments: Attachments{Classification: &Classification{}}}, []string{
			`classification.area "": want lower-case letters, digits and dashes, e.g. platform`,
			"classification.impact is missing: send impact {breaking, perf, security}, each true or false",
			`classification.type "": want one of feature, fix, docs, chore, refactor, infra, security, deps`,
		}},
		{"evaluate unclassified", &Request{ID: "REQ-2026-0001", Stage: StageEvaluate, Owner: owner}, TransitionRequest{To: StagePlan}, []string{
			"no classification: attach classification {type, area, impact {breaking, perf, security}, rfcNeeded, designClass}",
			"no triage sign-off by the owner cogitave/platform: attach signedOffBy: cogitave/platform",
			"no security clear: attach securityClear: true once the security assessment is clear (or propose rejected with the reason)",
		}},
		{"evaluate signed off by another team", badSignOff, TransitionRequest{To: StagePlan},
			[]string{"no triage sign-off by the owner cogitave/platform: attach signedOffBy: cogitave/platform"}},
		{"plan missing", request(StagePlan, false), TransitionRequest{To: StageImplement},
			[]string{"no plan: attach plan {tasks: [{id, scope, dependsOn}], blastRadius, approvers}"}},
		{"plan without tasks", request(StagePlan, false), planWith(&Plan{ApprovedBy: []string{owner}}),
			[]string{"attachments.plan has no tasks: send tasks [{id, scope, dependsOn}]"}},
		{"plan tasks wrong", request(StagePlan, false), planWith(&Plan{Tasks: []Task{
			{ID: "T1", DependsOn: []string{"T2"}}, {ID: "T2", Scope: "read", DependsOn: []string{"T1", "T9"}}, {ID: "T3", Scope: "x"}, {ID: "T3", Scope: "y"},
		}}), []string{
			"attachments.plan.tasks[0].scope is missing",
			`attachments.plan.tasks[1] (T2) depends on "T9", which is not a task of the plan`,
			`attachments.plan.tasks[3]: task id "T3" is used twice`,
			"attachments.plan: the tasks form a cycle through T1; dependsOn must make a DAG",
		}},
		{"plan not approved", request(StagePlan, false), planWith(&Plan{Tasks: []Task{{ID: "T1", Scope: "read"}}, Approvers: []string{"cogitave/docs"}, ApprovedBy: []string{"cogitave/docs"}}),
			[]string{"the plan is not approved by cogitave/platform: attach planApprovedBy: [cogitave/platform]"}},
		{"plan not approved by a codeowner", request(StagePlan, false), planWith(&Plan{Tasks: []Task{{ID: "T1", Scope: "read"}}, Approvers: []string{"cogitave/docs"}, ApprovedBy: []string{owner}}),
			[]string{"the plan is not approved by cogitave/docs: attach planApprovedBy: [cogitave/docs]"}},
		{"approval without a plan", request(StagePlan, false), TransitionRequest{To: StageImplement, Attachments: Attachments{PlanApprovedBy: []string{owner}}},
			[]string{"planApprovedBy approves a plan, and there is none: attach plan too"}},
		{"document without decision", request(StageDocument, true), TransitionRequest{To: StageImplement},
			[]string{"no decision record: attach links [{kind: adr, uid: <decision uid>, status: accepted}] once the final comment period has closed"}},
		{"document with a proposed decision", request(StageDocument, true), TransitionRequest{To: StageImplement, Attachments: Attachments{Links: []Link{{Kind: LinkRFC, UID: "cogitave.rfc.0001", Status: "proposed"}}}},
			[]string{`decision cogitave.rfc.0001 has status "proposed", not accepted: the final comment period must close with the decision accepted, then attach links [{kind: rfc, uid: cogitave.rfc.0001, status: accepted}]`}},
		{"implement without branch or PR", request(StageImplement, false), TransitionRequest{To: StageReview}, []string{
			"no branch: attach links [{kind: branch, name: <branch>}]",
			"no pull request: attach links [{kind: pr, url: <pull request URL>}]",
		}},
		{"review without evidence", request(StageReview, false), TransitionRequest{To: StageDone, Attachments: allPass()},
			[]string{"no evidence recorded: attach evidence [{kind: changelog, ref: <entry>}] or a completion token"}},
		{"review with a core item waived", request(StageReview, false), func() TransitionRequest {
			a := allPass()
			a.DoD["C10"] = ItemState{Status: Waived, Waiver: &Waiver{Approver: "github:carol", Reason: "later"}}
			a.Evidence = []Evidence{{Kind: "completion-token", Ref: "tok-1"}}
			return TransitionRequest{To: StageDone, Attachments: a}
		}(), []string{"Definition of Done not met: C10 No secrets: core items can never be waived; record pass with evidence"}},
		{"classification after planning", request(StageImplement, false), TransitionRequest{To: StageReview, Attachments: Attachments{Classification: classification(false)}},
			[]string{"attachments.classification: the classification can change only while the request is in intake, evaluate or plan"}},
		{"malformed attachments", request(StageImplement, false), TransitionRequest{To: StageReview, Attachments: Attachments{
			Links:    []Link{{Kind: "ticket", URL: "ftp://x"}, {Kind: LinkDoc, Status: "accepted"}},
			DoD:      map[string]ItemState{"C13": {Status: "ok"}},
			Evidence: []Evidence{{Kind: "log"}},
		}}, []string{
			`attachments.dod.C13.status "ok": want pass, fail, n/a or waived`,
			`attachments.dod.C13: unknown item "C13"; the items are C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, M1, S1, S2, D1, R1, R2, P1, A1`,
			"attachments.evidence[0]: give ref (where the evidence is) or summary",
			`attachments.links[0].kind "ticket": want one of issue, pr, branch, adr, rfc, doc, commit`,
			`attachments.links[0].url "ftp://x": want an http(s) URL of at most 2000 bytes`,
			"attachments.links[1].status: only adr and rfc links carry a status",
			"attachments.links[1]: a doc link needs uid or url",
		}},
		{"reason with control characters", request(StageReview, false), TransitionRequest{To: StageImplement, Reason: "bad\x00"},
			[]string{"reason: at most 10000 bytes, no control characters"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := checkTransition(tc.r, tc.tr, agent, clock)
			var ge *GateError
			if !errors.As(err, &ge) {
				t.Fatalf("got %v, want a *GateError", err)
			}
			if diff := cmp.Diff(tc.want, ge.Problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

func TestGateErrorMessage(t *testing.T) {
	_, _, err := checkTransition(request(StageImplement, false), TransitionRequest{To: StageReview}, agent, clock)
	want := "REQ-2026-0001 implement → review refused: no branch: attach links [{kind: branch, name: <branch>}]; no pull request: attach links [{kind: pr, url: <pull request URL>}]"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
}

func TestAllowedMoves(t *testing.T) {
	for _, tc := range []struct {
		name        string
		r           *Request
		tr          TransitionRequest
		skipped     []Stage
		designClass bool
	}{
		{"plan to implement records the skip", request(StagePlan, false), steps()[2], []Stage{StageDocument}, false},
		{"document loop", request(StageDocument, true), TransitionRequest{To: StageDocument, Reason: "reviewers asked for a rollback section"}, nil, true},
		{"review back to implement", request(StageReview, false), TransitionRequest{To: StageImplement, Reason: "C2 failed: flaky test"}, nil, false},
		{"implement back to document", request(StageImplement, true), TransitionRequest{To: StageDocument, Reason: "the ADR missed a case"}, nil, true},
		{"implement back to plan", request(StageImplement, false), TransitionRequest{To: StagePlan, Reason: "scope grew"}, nil, false},
		{"evaluate back to intake", request(StageEvaluate, false), TransitionRequest{To: StageIntake, Reason: "the form was unclear"}, nil, false},
		{"reclassified at plan as design-class", request(StagePlan, false), TransitionRequest{To: StageDocument, Attachments: Attachments{
			Classification: classification(true), Plan: steps()[2].Attachments.Plan, PlanApprovedBy: []string{owner},
		}}, nil, true},
		{"stage names ignore case", request(StageIntake, false), TransitionRequest{To: "Evaluate"}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, skipped, err := checkTransition(tc.r, tc.tr, agent, clock)
			if err != nil {
				t.Fatal(err)
			}
			if want, _ := ParseStage(string(tc.tr.To)); m.Stage != want {
				t.Errorf("stage %s, want %s", m.Stage, want)
			}
			if diff := cmp.Diff(tc.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
			if m.DesignClass() != tc.designClass {
				t.Errorf("design-class %v", m.DesignClass())
			}
		})
	}
}

func TestRejectFromEveryStage(t *testing.T) {
	for _, st := range ordered {
		for _, dc := range []bool{false, true} {
			if st == StageDocument && !dc {
				continue
			}
			_, _, err := checkTransition(request(st, dc), TransitionRequest{To: StageRejected, Reason: "duplicate of REQ-2026-0002"}, agent, clock)
			if st == StageDone {
				if err == nil || !strings.Contains(err.Error(), "terminal") {
					t.Errorf("rejecting a done request: %v", err)
				}
				continue
			}
			if err != nil {
				t.Errorf("rejecting from %s: %v", st, err)
			}
		}
	}
}

func TestGateSeesEarlierAttachments(t *testing.T) {
	// The sign-off and the security clear may come with the move into
	// evaluate; leaving evaluate then needs nothing more.
	r := request(StageIntake, false)
	m, _, err := checkTransition(r, TransitionRequest{To: StageEvaluate, Attachments: Attachments{Classification: classification(false), SignedOffBy: owner, SecurityClear: true}}, agent, clock)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := checkTransition(m, TransitionRequest{To: StagePlan}, agent, clock); err != nil {
		t.Fatal(err)
	}
}
