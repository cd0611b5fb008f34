package requests

import (
	"maps"
	"slices"
	"strings"
	"time"
)

// merge returns a copy of r with the attachments added, as an approval at
// time at by the proposer actor would record them.
func merge(r *Request, a *Attachments, actor string, at time.Time) *Request {
	m := *r
	m.Assessments = slices.Clone(r.Assessments)
	m.Links = slices.Clone(r.Links)
	m.Evidence = slices.Clone(r.Evidence)
	m.History = slices.Clone(r.History)
	m.DoD = maps.Clone(r.DoD)
	if c := a.Classification; c != nil {
		cc := *c
		m.Classification = &cc
		m.Type, m.Area = c.Type, c.Area
	}
	if a.SignedOffBy != "" {
		m.Assessments = append(m.Assessments, Assessment{Kind: "triage", Result: "signed-off", By: a.SignedOffBy, At: at})
	}
	if a.SecurityClear {
		m.Assessments = append(m.Assessments, Assessment{Kind: "security", Result: "clear", By: actor, At: at})
	}
	for _, as := range a.Assessments {
		as.At = at
		m.Assessments = append(m.Assessments, as)
	}
	if a.Plan != nil {
		p := *a.Plan
		m.Plan = &p
	}
	if len(a.PlanApprovedBy) > 0 && m.Plan != nil {
		p := *m.Plan
		p.ApprovedBy = slices.Clone(p.ApprovedBy)
		for _, who := range a.PlanApprovedBy {
			if !slices.ContainsFunc(p.ApprovedBy, func(s string) bool { return sameIdentity(s, who) }) {
				p.ApprovedBy = append(p.ApprovedBy, who)
			}
		}
		m.Plan = &p
	}
	for _, l := range a.Links {
		if i := slices.IndexFunc(m.Links, func(o Link) bool { return sameTarget(o, l) }); i >= 0 {
			m.Links[i] = l
		} else {
			m.Links = append(m.Links, l)
		}
	}
	if len(a.DoD) > 0 && m.DoD == nil {
		m.DoD = map[string]ItemState{}
	}
	maps.Copy(m.DoD, a.DoD)
	if c := a.CodeownerApproval; c != nil {
		cc := *c
		cc.At = at
		m.CodeownerApproval = &cc
	}
	for _, e := range a.Evidence {
		e.At = at
		m.Evidence = append(m.Evidence, e)
	}
	return &m
}

// sameTarget reports whether two links point at the same artifact.
func sameTarget(a, b Link) bool {
	return a.Kind == b.Kind && strings.EqualFold(a.UID, b.UID) && a.URL == b.URL && a.Name == b.Name
}
