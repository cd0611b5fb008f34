package requests

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// TransitionRequest is a proposed change of a request's stage, with what
// the gate of the current stage needs attached.
type TransitionRequest struct {
	To          Stage       `json:"to" jsonschema:"The stage to move to: the next one, implement from plan to skip document (non-design-class work only), the prior one (a failed gate, with a reason), document from document (changes requested, with a reason), or rejected (with a reason)."`
	Reason      string      `json:"reason,omitempty" jsonschema:"Why; required for rejected, for going back and for the document loop."`
	Attachments Attachments `json:"attachments,omitzero"`
}

// Attachments are what a transition adds to the request when it is
// approved; the gate looks at the request with them merged in.
type Attachments struct {
	Classification    *Classification      `yaml:"classification,omitempty" json:"classification,omitempty" jsonschema:"The classification (while the request is in intake, evaluate or plan); replaces the current one."`
	SecurityClear     bool                 `yaml:"securityClear,omitempty" json:"securityClear,omitempty" jsonschema:"The security assessment is clear; needed to leave evaluate."`
	SignedOffBy       string               `yaml:"signedOffBy,omitempty" json:"signedOffBy,omitempty" jsonschema:"Who signed the triage off; the owner's sign-off is needed to leave evaluate."`
	Assessments       []Assessment         `yaml:"assessments,omitempty" json:"assessments,omitempty" jsonschema:"Further assessments to record."`
	Plan              *Plan                `yaml:"plan,omitempty" json:"plan,omitempty" jsonschema:"The plan; replaces the current one."`
	PlanApprovedBy    []string             `yaml:"planApprovedBy,omitempty" json:"planApprovedBy,omitempty" jsonschema:"Approvals of the plan to add; the owner and every plan approver are needed to leave plan."`
	Links             []Link               `yaml:"links,omitempty" json:"links,omitempty" jsonschema:"Links to add; one of the same kind and target replaces the old one (a decision's new status)."`
	DoD               map[string]ItemState `yaml:"dod,omitempty" json:"dod,omitempty" jsonschema:"Definition of Done states to record, by item id."`
	CodeownerApproval *Approval            `yaml:"codeownerApproval,omitempty" json:"codeownerApproval,omitempty"`
	Evidence          []Evidence           `yaml:"evidence,omitempty" json:"evidence,omitempty" jsonschema:"Evidence to record; leaving review needs at least one entry."`
}

// Bounds of attached values.
const (
	maxText  = 10000 // a reason, a summary, a diagram
	maxShort = 200   // a title, an id, a kind
	maxURL   = 2000
	maxList  = 200 // entries of any list
)

// The request types a classification may name.
var requestTypes = []string{"feature", "fix", "docs", "chore", "refactor", "infra", "security", "deps"}

var (
	areaPattern  = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	ownerPattern = regexp.MustCompile(`^[a-z0-9-]+/[a-z0-9-]+$`)
	uidPattern   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:/-]*$`)
)

var (
	linkKinds        = []string{LinkIssue, LinkPR, LinkBranch, LinkADR, LinkRFC, LinkDoc, LinkCommit}
	decisionStatuses = []string{"proposed", "accepted", "rejected", "superseded"}
)

// attachmentProblems checks the shape of attachments for a request in
// stage from; the gates judge whether they are enough.
func attachmentProblems(a *Attachments, from Stage) []string {
	var ps []string
	add := func(format string, args ...any) { ps = append(ps, fmt.Sprintf(format, args...)) }
	if a.Classification != nil {
		if from != StageIntake && from != StageEvaluate && from != StagePlan {
			add("attachments.classification: the classification can change only while the request is in intake, evaluate or plan")
		}
		ps = append(ps, classificationProblems(a.Classification)...)
	}
	if a.SignedOffBy != "" {
		if err := checkIdentity("attachments.signedOffBy", a.SignedOffBy); err != nil {
			ps = append(ps, err.Error())
		}
	}
	for i, as := range a.Assessments {
		ps = append(ps, textProblems(fmt.Sprintf("attachments.assessments[%d]", i), map[string]string{"kind": as.Kind, "result": as.Result}, map[string]string{"by": as.By, "summary": as.Summary})...)
	}
	if a.Plan != nil {
		ps = append(ps, planProblems("attachments.plan", a.Plan)...)
	}
	for i, id := range a.PlanApprovedBy {
		if err := checkIdentity(fmt.Sprintf("attachments.planApprovedBy[%d]", i), id); err != nil {
			ps = append(ps, err.Error())
		}
	}
	for i, l := range a.Links {
		ps = append(ps, linkProblems(fmt.Sprintf("attachments.links[%d]", i), l)...)
	}
	for _, id := range slices.Sorted(maps.Keys(a.DoD)) {
		ps = append(ps, itemStateProblems("attachments.dod."+id, id, a.DoD[id])...)
	}
	if c := a.CodeownerApproval; c != nil && (c.Approved || c.By != "") {
		if err := checkIdentity("attachments.codeownerApproval.by", c.By); err != nil {
			ps = append(ps, err.Error())
		}
	}
	for i, e := range a.Evidence {
		at := fmt.Sprintf("attachments.evidence[%d]", i)
		ps = append(ps, textProblems(at, map[string]string{"kind": e.Kind}, map[string]string{"ref": e.Ref, "summary": e.Summary})...)
		if e.Ref == "" && e.Summary == "" {
			add("%s: give ref (where the evidence is) or summary", at)
		}
	}
	for what, n := range map[string]int{"assessments": len(a.Assessments), "planApprovedBy": len(a.PlanApprovedBy), "links": len(a.Links), "dod": len(a.DoD), "evidence": len(a.Evidence)} {
		if n > maxList {
			add("attachments.%s: %d entries; send at most %d", what, n, maxList)
		}
	}
	slices.Sort(ps)
	return ps
}

func classificationProblems(c *Classification) []string {
	var ps []string
	if !slices.Contains(requestTypes, c.Type) {
		ps = append(ps, fmt.Sprintf("classification.type %q: want one of %s", c.Type, strings.Join(requestTypes, ", ")))
	}
	if len(c.Area) > 64 || !areaPattern.MatchString(c.Area) {
		ps = append(ps, fmt.Sprintf("classification.area %q: want lower-case letters, digits and dashes, e.g. platform", c.Area))
	}
	if c.Impact == nil {
		ps = append(ps, "classification.impact is missing: send impact {breaking, perf, security}, each true or false")
	}
	return ps
}

func planProblems(at string, p *Plan) []string {
	var ps []string
	add := func(format string, args ...any) { ps = append(ps, fmt.Sprintf(format, args...)) }
	if len(p.Tasks) == 0 {
		add("%s has no tasks: send tasks [{id, scope, dependsOn}]", at)
	}
	if len(p.Tasks) > maxList {
		add("%s has %d tasks; send at most %d", at, len(p.Tasks), maxList)
	}
	ids := map[string]bool{}
	for i, t := range p.Tasks {
		tat := fmt.Sprintf("%s.tasks[%d]", at, i)
		ps = append(ps, textProblems(tat, map[string]string{"id": t.ID, "scope": t.Scope}, map[string]string{"title": t.Title})...)
		if ids[t.ID] && t.ID != "" {
			add("%s: task id %q is used twice", tat, t.ID)
		}
		ids[t.ID] = true
	}
	for i, t := range p.Tasks {
		for _, d := range t.DependsOn {
			if !ids[d] {
				add("%s.tasks[%d] (%s) depends on %q, which is not a task of the plan", at, i, t.ID, d)
			}
		}
	}
	if c := cycle(p.Tasks); c != "" {
		add("%s: the tasks form a cycle through %s; dependsOn must make a DAG", at, c)
	}
	if len(p.Mermaid) > maxText {
		add("%s.mermaid is longer than %d bytes", at, maxText)
	}
	for i, u := range p.BlastRadius {
		if len(u) > maxShort || !uidPattern.MatchString(u) {
			add("%s.blastRadius[%d] %q is not a uid", at, i, u)
		}
	}
	for i, who := range slices.Concat(p.Approvers, p.ApprovedBy) {
		if err := checkIdentity(fmt.Sprintf("%s approver %d", at, i), who); err != nil {
			ps = append(ps, err.Error())
		}
	}
	return ps
}

// cycle returns the id of a task on a dependency cycle, or "".
func cycle(tasks []Task) string {
	deps := map[string][]string{}
	for _, t := range tasks {
		deps[t.ID] = t.DependsOn
	}
	const visiting, visited = 1, 2
	state := map[string]int{}
	var visit func(id string) string
	visit = func(id string) string {
		switch state[id] {
		case visiting:
			return id
		case visited:
			return ""
		}
		state[id] = visiting
		for _, d := range deps[id] {
			if c := visit(d); c != "" {
				return c
			}
		}
		state[id] = visited
		return ""
	}
	for _, t := range tasks {
		if c := visit(t.ID); c != "" {
			return c
		}
	}
	return ""
}

func linkProblems(at string, l Link) []string {
	var ps []string
	add := func(format string, args ...any) { ps = append(ps, fmt.Sprintf(format, args...)) }
	if !slices.Contains(linkKinds, l.Kind) {
		add("%s.kind %q: want one of %s", at, l.Kind, strings.Join(linkKinds, ", "))
	}
	if l.URL != "" {
		if u, err := url.Parse(l.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(l.URL) > maxURL || hasSpaceOrControl(l.URL) {
			add("%s.url %q: want an http(s) URL of at most %d bytes", at, l.URL, maxURL)
		}
	}
	if l.UID != "" && (len(l.UID) > maxShort || !uidPattern.MatchString(l.UID)) {
		add("%s.uid %q is not a uid", at, l.UID)
	}
	if l.Name != "" && (len(l.Name) > maxShort || hasSpaceOrControl(l.Name)) {
		add("%s.name %q: want a branch name or commit id without spaces", at, l.Name)
	}
	switch l.Kind {
	case LinkIssue, LinkPR:
		if l.URL == "" {
			add("%s: a %s link needs url", at, l.Kind)
		}
	case LinkBranch, LinkCommit:
		if l.Name == "" && l.URL == "" {
			add("%s: a %s link needs name or url", at, l.Kind)
		}
	case LinkADR, LinkRFC, LinkDoc:
		if l.UID == "" && l.URL == "" {
			add("%s: a %s link needs uid or url", at, l.Kind)
		}
	}
	if l.Status != "" {
		if l.Kind != LinkADR && l.Kind != LinkRFC {
			add("%s.status: only adr and rfc links carry a status", at)
		} else if !slices.Contains(decisionStatuses, l.Status) {
			add("%s.status %q: want one of %s", at, l.Status, strings.Join(decisionStatuses, ", "))
		}
	}
	return ps
}

func itemStateProblems(at, id string, s ItemState) []string {
	var ps []string
	if _, ok := itemByID(id); !ok {
		ps = append(ps, fmt.Sprintf("%s: unknown item %q; the items are %s", at, id, strings.Join(itemIDs(), ", ")))
	}
	if !slices.Contains([]ItemStatus{Pass, Fail, NA, Waived}, s.Status) {
		ps = append(ps, fmt.Sprintf("%s.status %q: want pass, fail, n/a or waived", at, s.Status))
	}
	if s.Waiver != nil && s.Status != Waived {
		ps = append(ps, fmt.Sprintf("%s: a waiver goes with status waived only", at))
	}
	if len(s.Evidence) > maxText || hasControl(s.Evidence) {
		ps = append(ps, fmt.Sprintf("%s.evidence: at most %d bytes, no control characters", at, maxText))
	}
	if w := s.Waiver; w != nil && (len(w.Approver) > maxIdentity || len(w.Reason) > maxText) {
		ps = append(ps, fmt.Sprintf("%s.waiver: approver at most %d bytes, reason at most %d", at, maxIdentity, maxText))
	}
	return ps
}

// textProblems checks required short fields and optional text fields of
// the value at at.
func textProblems(at string, required, optional map[string]string) []string {
	var ps []string
	for _, k := range slices.Sorted(maps.Keys(required)) {
		v := required[k]
		if strings.TrimSpace(v) == "" {
			ps = append(ps, fmt.Sprintf("%s.%s is missing", at, k))
		} else if len(v) > maxShort || hasControl(v) {
			ps = append(ps, fmt.Sprintf("%s.%s: at most %d bytes on one line", at, k, maxShort))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(optional)) {
		if v := optional[k]; len(v) > maxText || hasControl(v) {
			ps = append(ps, fmt.Sprintf("%s.%s: at most %d bytes, no control characters", at, k, maxText))
		}
	}
	return ps
}

// hasControl reports control characters other than tab and line breaks.
func hasControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' }) >= 0
}

func hasSpaceOrControl(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) }) >= 0
}
