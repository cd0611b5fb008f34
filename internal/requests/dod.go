package requests

import (
	"fmt"
	"slices"
)

// itemDef is one item of the Definition of Done.
type itemDef struct {
	id, title string
	// when names the classification that adds a conditional item; ""
	// for a core item.
	when    string
	applies func(*Request) bool
	// naAllowed marks the core item that may be n/a, with the reason as
	// its evidence: evals are needed for agent-behaviour changes only.
	naAllowed bool
}

func (d itemDef) core() bool { return d.when == "" }

var dodItems = []itemDef{
	{id: "C1", title: "Code review complete"},
	{id: "C2", title: "Tests green"},
	{id: "C3", title: "Evals green for agent-behaviour changes", naAllowed: true},
	{id: "C4", title: "docs-required gate passes"},
	{id: "C5", title: "Signed Conventional Commits"},
	{id: "C6", title: "English only"},
	{id: "C7", title: "Least privilege: the work stayed inside its grant"},
	{id: "C8", title: "Standards honoured"},
	{id: "C9", title: "No unapproved mutation"},
	{id: "C10", title: "No secrets"},
	{id: "C11", title: "Links complete"},
	{id: "C12", title: "Evidence recorded"},
	{id: "M1", title: "Migration notes", when: "impact.breaking", applies: func(r *Request) bool { return impact(r).Breaking }},
	{id: "S1", title: "Threat model", when: "impact.security or type security", applies: securityWork},
	{id: "S2", title: "Security review", when: "impact.security or type security", applies: securityWork},
	{id: "D1", title: "Dependency review", when: "type deps", applies: func(r *Request) bool { return classified(r).Type == "deps" }},
	{id: "R1", title: "Accepted RFC or ADR", when: "design-class", applies: (*Request).DesignClass},
	{id: "R2", title: "RFC implementation notes", when: "design-class", applies: (*Request).DesignClass},
	{id: "P1", title: "Performance budget", when: "impact.perf", applies: func(r *Request) bool { return impact(r).Perf }},
	{id: "A1", title: "Accessibility", when: "area ui or frontend, or accessibility", applies: func(r *Request) bool {
		c := classified(r)
		return c.Accessibility || c.Area == "ui" || c.Area == "frontend"
	}},
}

func classified(r *Request) Classification {
	if r.Classification == nil {
		return Classification{}
	}
	return *r.Classification
}

func impact(r *Request) Impact {
	if c := r.Classification; c != nil && c.Impact != nil {
		return *c.Impact
	}
	return Impact{}
}

func securityWork(r *Request) bool { return impact(r).Security || classified(r).Type == "security" }

func itemByID(id string) (itemDef, bool) {
	i := slices.IndexFunc(dodItems, func(d itemDef) bool { return d.id == id })
	if i < 0 {
		return itemDef{}, false
	}
	return dodItems[i], true
}

func itemIDs() []string {
	ids := make([]string, len(dodItems))
	for i, d := range dodItems {
		ids[i] = d.id
	}
	return ids
}

// The overall results of a checklist.
const (
	ResultDone    = "done"
	ResultNotDone = "not-done"
)

// Checklist is a request's Definition of Done: every item that applies to
// it, judged from the recorded states.
type Checklist struct {
	RequestID string `json:"requestId"`
	Items     []Item `json:"items"`
	// CodeownerApproval is the recorded approval; the zero value when
	// none is.
	CodeownerApproval Approval `json:"codeownerApproval"`
	// Result is done only when every item passes, is validly waived or
	// validly n/a, and the code owner approved.
	Result string `json:"result" jsonschema:"done or not-done."`
	// Reasons says why the result is not done, one line per cause.
	Reasons []string `json:"reasons,omitempty"`
}

// Item is one judged item of a checklist.
type Item struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Core items can never be waived.
	Core bool `json:"core"`
	// Condition names the classification that adds a conditional item.
	Condition string     `json:"condition,omitempty"`
	Status    ItemStatus `json:"status" jsonschema:"pass, fail, n/a or waived; an invalid state counts as fail."`
	Evidence  string     `json:"evidence,omitempty"`
	Waiver    *Waiver    `json:"waiver,omitempty"`
	// Message says why the item fails and what to record instead.
	Message string `json:"message,omitempty"`
}

// DoD judges a request's Definition of Done: the twelve core items and
// the conditional items its classification adds, each from its recorded
// state. An item with no state, a pass without evidence, a waiver of a
// core item, a waiver without approver or reason, or an n/a where n/a is
// not allowed counts as fail, with a message saying what to record.
func DoD(r *Request) Checklist {
	c := Checklist{RequestID: r.ID, Items: []Item{}}
	for _, d := range dodItems {
		if d.applies != nil && !d.applies(r) {
			continue
		}
		it := judge(d, r.DoD)
		c.Items = append(c.Items, it)
		if it.Status == Fail {
			c.Reasons = append(c.Reasons, fmt.Sprintf("%s %s: %s", it.ID, it.Title, it.Message))
		}
	}
	if a := r.CodeownerApproval; a != nil {
		c.CodeownerApproval = *a
	}
	if !c.CodeownerApproval.Approved || c.CodeownerApproval.By == "" {
		c.Reasons = append(c.Reasons, "no code-owner approval: attach codeownerApproval {approved: true, by: <code owner>}")
	}
	c.Result = ResultDone
	if len(c.Reasons) > 0 {
		c.Result = ResultNotDone
	}
	return c
}

// judge turns the recorded state of one item into its checklist entry.
func judge(d itemDef, states map[string]ItemState) Item {
	s, recorded := states[d.id]
	it := Item{ID: d.id, Title: d.title, Core: d.core(), Condition: d.when, Status: s.Status, Evidence: s.Evidence, Waiver: s.Waiver}
	fail := func(format string, args ...any) Item {
		it.Status, it.Message = Fail, fmt.Sprintf(format, args...)
		return it
	}
	switch {
	case !recorded:
		return fail("no state recorded; attach dod.%s {status: pass, evidence: <where it shows>}", d.id)
	case s.Status == Pass && s.Evidence == "":
		return fail("passes without evidence; attach dod.%s.evidence (a CI run, a review, a document)", d.id)
	case s.Status == Pass:
		return it
	case s.Status == Fail:
		return fail("recorded as failing; fix it and record pass with evidence")
	case s.Status == NA && d.naAllowed && s.Evidence != "":
		return it
	case s.Status == NA && d.naAllowed:
		return fail("n/a needs the reason as evidence (e.g. no agent behaviour changed)")
	case s.Status == NA && d.core():
		return fail("core items cannot be n/a; record pass with evidence")
	case s.Status == NA:
		return fail("applies because of %s, so it cannot be n/a; record pass, or waive it with approver and reason", d.when)
	case s.Status == Waived && d.core():
		return fail("core items can never be waived; record pass with evidence")
	case s.Status == Waived && (s.Waiver == nil || checkIdentity("waiver approver", s.Waiver.Approver) != nil || s.Waiver.Reason == ""):
		return fail("the waiver needs an approver and a reason: attach dod.%s.waiver {approver, reason}", d.id)
	case s.Status == Waived:
		return it
	}
	return fail("unknown status %q; record pass, fail, n/a or waived", s.Status)
}
