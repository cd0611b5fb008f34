package requests

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// GateError is a refused transition. Problems says, one line each, what is
// missing or wrong and how to supply it.
type GateError struct {
	ID       string
	From, To Stage
	Problems []string
}

func (e *GateError) Error() string {
	return fmt.Sprintf("%s %s → %s refused: %s", e.ID, e.From, e.To, strings.Join(e.Problems, "; "))
}

// checkTransition validates t against r, proposed by actor at time at. It
// returns the request as the transition would leave it (without the
// history entry) and the stages it skips, or a *GateError.
func checkTransition(r *Request, t TransitionRequest, actor string, at time.Time) (*Request, []Stage, error) {
	refuse := func(problems ...string) (*Request, []Stage, error) {
		return nil, nil, &GateError{ID: r.ID, From: r.Stage, To: t.To, Problems: problems}
	}
	to, err := ParseStage(string(t.To))
	if err != nil {
		return refuse(err.Error())
	}
	t.To = to
	if len(t.Reason) > maxText || hasControl(t.Reason) {
		return refuse(fmt.Sprintf("reason: at most %d bytes, no control characters", maxText))
	}
	if ps := attachmentProblems(&t.Attachments, r.Stage); len(ps) > 0 {
		return refuse(ps...)
	}
	m := merge(r, &t.Attachments, actor, at)
	m.Stage = to
	step, skipped, problem := route(r, t, m.DesignClass())
	if problem != "" {
		return refuse(problem)
	}
	if len(t.Attachments.PlanApprovedBy) > 0 && m.Plan == nil {
		return refuse("planApprovedBy approves a plan, and there is none: attach plan too")
	}
	if step == forward {
		if ps := gate(r.Stage, m); len(ps) > 0 {
			return refuse(ps...)
		}
	}
	return m, skipped, nil
}

// A step is the kind of move a transition makes.
type step int

const (
	forward step = iota // to the next stage (or past document), through the gate
	back                // to the prior stage: a failed gate, with a reason
	loop                // document to document: changes requested, with a reason
	reject              // to rejected, with a reason
)

// route classifies the move from r's stage to t.To, or says why the
// lifecycle does not allow it; designClass is the request's class with
// the transition's classification applied.
func route(r *Request, t TransitionRequest, designClass bool) (step, []Stage, string) {
	from, to := r.Stage, t.To
	reason := strings.TrimSpace(t.Reason) != ""
	switch {
	case from.Terminal():
		return 0, nil, fmt.Sprintf("%s is %s, a terminal stage: nothing can follow it", r.ID, from)
	case to == StageRejected && !reason:
		return 0, nil, "rejecting needs a reason (out of scope, duplicate of REQ-…): send reason"
	case to == StageRejected:
		return reject, nil, ""
	case from == StageDocument && to == StageDocument && !reason:
		return 0, nil, "document → document records the changes requested: send reason naming them"
	case from == StageDocument && to == StageDocument:
		return loop, nil, ""
	case to == from:
		return 0, nil, fmt.Sprintf("%s is already in %s: propose %s to advance, or rejected with a reason", r.ID, from, from.next())
	case to == prior(r) && !reason:
		return 0, nil, fmt.Sprintf("returning to %s needs a reason: send reason saying which gate failed and why", to)
	case to == prior(r):
		return back, nil, ""
	}
	switch {
	case from == StagePlan && to == StageDocument && !designClass:
		return 0, nil, fmt.Sprintf("document is for design-class work only and %s is not (classification.designClass and rfcNeeded are false): propose implement, which records the skip", r.ID)
	case from == StagePlan && to == StageImplement && designClass:
		return 0, nil, fmt.Sprintf("%s is design-class (classification.designClass or rfcNeeded): it cannot skip document; propose document", r.ID)
	case from == StagePlan && to == StageImplement:
		return forward, []Stage{StageDocument}, ""
	case to == from.next():
		return forward, nil, ""
	}
	back := ""
	if p := prior(r); p != "" {
		back = fmt.Sprintf(", go back to %s with a reason,", p)
	}
	return 0, nil, fmt.Sprintf("%s → %s is not a step of the lifecycle: from %s propose %s%s or rejected with a reason", from, to, from, nextFor(r), back)
}

// prior is the stage a failed gate returns r to ("" from intake).
func prior(r *Request) Stage {
	if r.Stage == StageImplement && !r.DesignClass() {
		return StagePlan
	}
	i := slices.Index(ordered, r.Stage)
	if i <= 0 {
		return ""
	}
	return ordered[i-1]
}

// nextFor is the stage r advances to: past document when r is not
// design-class.
func nextFor(r *Request) Stage {
	if r.Stage == StagePlan && !r.DesignClass() {
		return StageImplement
	}
	return r.Stage.next()
}

// gate returns what m, the request with the attachments merged, lacks to
// leave stage from.
func gate(from Stage, m *Request) []string {
	switch from {
	case StageIntake:
		return intakeGate(m)
	case StageEvaluate:
		return evaluateGate(m)
	case StagePlan:
		return planGate(m)
	case StageDocument:
		return documentGate(m)
	case StageImplement:
		return implementGate(m)
	case StageReview:
		return reviewGate(m)
	}
	return nil
}

func intakeGate(m *Request) []string {
	var ps []string
	if !ownerPattern.MatchString(m.Owner) {
		ps = append(ps, fmt.Sprintf("owner %q is not a team: no owner, no request; the owner is set at intake as org/team, e.g. cogitave/platform", m.Owner))
	}
	if checkIdentity("requester", m.Requester) != nil {
		ps = append(ps, "no requester identity: it is set at intake (identity)")
	}
	return ps
}

func evaluateGate(m *Request) []string {
	var ps []string
	if m.Classification == nil {
		ps = append(ps, "no classification: attach classification {type, area, impact {breaking, perf, security}, rfcNeeded, designClass}")
	} else {
		ps = append(ps, classificationProblems(m.Classification)...)
	}
	if !slices.ContainsFunc(m.Assessments, func(a Assessment) bool {
		return a.Kind == "triage" && a.Result == "signed-off" && sameIdentity(a.By, m.Owner)
	}) {
		ps = append(ps, fmt.Sprintf("no triage sign-off by the owner %s: attach signedOffBy: %s", m.Owner, m.Owner))
	}
	if !slices.ContainsFunc(m.Assessments, func(a Assessment) bool { return a.Kind == "security" && a.Result == "clear" }) {
		ps = append(ps, "no security clear: attach securityClear: true once the security assessment is clear (or propose rejected with the reason)")
	}
	return ps
}

func planGate(m *Request) []string {
	if m.Plan == nil {
		return []string{"no plan: attach plan {tasks: [{id, scope, dependsOn}], blastRadius, approvers}"}
	}
	ps := planProblems("plan", m.Plan)
	for _, who := range slices.Concat([]string{m.Owner}, m.Plan.Approvers) {
		if !slices.ContainsFunc(m.Plan.ApprovedBy, func(s string) bool { return sameIdentity(s, who) }) {
			ps = append(ps, fmt.Sprintf("the plan is not approved by %s: attach planApprovedBy: [%s]", who, who))
		}
	}
	return ps
}

func documentGate(m *Request) []string {
	var ps []string
	for _, l := range m.Links {
		if l.Kind != LinkADR && l.Kind != LinkRFC || l.UID == "" {
			continue
		}
		if l.Status == "accepted" {
			return nil
		}
		ps = append(ps, fmt.Sprintf("decision %s has status %q, not accepted: the final comment period must close with the decision accepted, then attach links [{kind: %s, uid: %s, status: accepted}]", l.UID, l.Status, l.Kind, l.UID))
	}
	if len(ps) == 0 {
		ps = append(ps, "no decision record: attach links [{kind: adr, uid: <decision uid>, status: accepted}] once the final comment period has closed")
	}
	return ps
}

func implementGate(m *Request) []string {
	var ps []string
	if !slices.ContainsFunc(m.Links, func(l Link) bool { return l.Kind == LinkBranch }) {
		ps = append(ps, "no branch: attach links [{kind: branch, name: <branch>}]")
	}
	if !slices.ContainsFunc(m.Links, func(l Link) bool { return l.Kind == LinkPR && l.URL != "" }) {
		ps = append(ps, "no pull request: attach links [{kind: pr, url: <pull request URL>}]")
	}
	return ps
}

func reviewGate(m *Request) []string {
	var ps []string
	for _, r := range DoD(m).Reasons {
		ps = append(ps, "Definition of Done not met: "+r)
	}
	if len(m.Evidence) == 0 {
		ps = append(ps, "no evidence recorded: attach evidence [{kind: changelog, ref: <entry>}] or a completion token")
	}
	return ps
}
