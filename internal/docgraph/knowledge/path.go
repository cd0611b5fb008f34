package knowledge

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// PathRequest asks for a learning path. Skills and the role are named by
// uid (as written or cited) or by title, case ignored.
type PathRequest struct {
	// Target is the skill to reach.
	Target string
	// Known are skills already held: they and their prerequisites are
	// not taught again.
	Known []string
	// Audience is a role: when several modules teach a skill, one for the
	// role is preferred. A role the graph lacks is no preference.
	Audience string
}

// LearningPath is what to learn, in order, to reach a skill.
type LearningPath struct {
	Target *graph.Node
	// Skills are the target and every skill it depends on, prerequisites
	// first (a depth-first post-order along dependsOn, ties by uid).
	Skills []PathSkill
	// Steps are the modules to take, each after the modules it depends
	// on: for each skill to learn, its first teaching module (one for the
	// audience first, then by uid).
	Steps []PathStep
	// Untaught are the skills to learn that no visible module teaches.
	Untaught []*graph.Node
}

// PathSkill is a skill on the way and whether it is already held.
type PathSkill struct {
	Skill *graph.Node
	Known bool
}

// PathStep is one module to take: the skills it teaches and its units,
// in their order.
type PathStep struct {
	Module  *graph.Node
	Teaches []*graph.Node
	Units   []*graph.Node
}

// UnknownSkillError is a skill name that matches no visible skill.
type UnknownSkillError struct {
	Skill string
	// Known says it was one of PathRequest.Known, not the target.
	Known bool
}

func (e *UnknownSkillError) Error() string {
	if e.Known {
		return fmt.Sprintf("known skill %q is not a skill of the graph", e.Skill)
	}
	return fmt.Sprintf("no skill %q", e.Skill)
}

// maxModuleDepth bounds the chain of module prerequisites a path follows.
const maxModuleDepth = 64

// LearningPath plans the way to r.Target over the visible graph: an
// *UnknownSkillError when the target or a known skill is no visible
// skill.
func (v View) LearningPath(r PathRequest) (*LearningPath, error) {
	p := planner{v: v, g: v.snap.Graph}
	target, ok := p.skill(r.Target)
	if !ok {
		return nil, &UnknownSkillError{Skill: r.Target}
	}
	known := map[graph.NodeID]bool{}
	for _, k := range r.Known {
		id, ok := p.skill(k)
		if !ok {
			return nil, &UnknownSkillError{Skill: k, Known: true}
		}
		for _, pre := range p.prerequisites(id) {
			known[pre] = true
		}
	}
	audience, hasAudience := p.find(r.Audience, graph.Role)
	out := &LearningPath{Target: p.g.Node(target)}
	emitted := map[graph.NodeID]bool{}
	var emit func(mod graph.NodeID, depth int)
	emit = func(mod graph.NodeID, depth int) {
		if emitted[mod] || depth > maxModuleDepth {
			return
		}
		emitted[mod] = true
		for _, pre := range p.neighbours(mod, graph.DependsOn, false, graph.Module) {
			if !p.teachesOnly(pre, known) {
				emit(pre, depth+1)
			}
		}
		step := PathStep{Module: p.g.Node(mod)}
		for _, sk := range p.neighbours(mod, graph.TeachesSkill, false, graph.Skill) {
			step.Teaches = append(step.Teaches, p.g.Node(sk))
		}
		for _, u := range p.units(mod) {
			step.Units = append(step.Units, p.g.Node(u))
		}
		out.Steps = append(out.Steps, step)
	}
	for _, sk := range p.prerequisites(target) {
		out.Skills = append(out.Skills, PathSkill{Skill: p.g.Node(sk), Known: known[sk]})
		if known[sk] {
			continue
		}
		teachers := p.neighbours(sk, graph.TeachesSkill, true, graph.Module)
		if len(teachers) == 0 {
			out.Untaught = append(out.Untaught, p.g.Node(sk))
			continue
		}
		if hasAudience {
			slices.SortStableFunc(teachers, func(a, b graph.NodeID) int {
				return cmp.Compare(p.forRole(b, audience), p.forRole(a, audience))
			})
		}
		emit(teachers[0], 0)
	}
	return out, nil
}

// planner walks the visible graph for LearningPath.
type planner struct {
	v View
	g *graph.Graph
}

// find resolves a uid or a title (case-insensitive) among the visible
// nodes of a label.
func (p planner) find(s string, l graph.Label) (graph.NodeID, bool) {
	if s == "" {
		return 0, false
	}
	if id, n, ok := p.v.Lookup(s); ok && n.Label == l {
		return id, true
	}
	for _, id := range p.g.ByLabel(l) {
		if p.v.visible(id) && strings.EqualFold(p.g.Node(id).Title(), strings.TrimSpace(s)) {
			return id, true
		}
	}
	return 0, false
}

func (p planner) skill(s string) (graph.NodeID, bool) { return p.find(s, graph.Skill) }

// neighbours returns the visible nodes of a label joined to id by edges of
// type t (leaving id, or arriving when incoming), by uid.
func (p planner) neighbours(id graph.NodeID, t graph.EdgeType, incoming bool, l graph.Label) []graph.NodeID {
	adj := p.g.Out(id)
	if incoming {
		adj = p.g.In(id)
	}
	var out []graph.NodeID
	for _, a := range adj {
		if a.Type == t && p.v.visible(a.Node) && p.g.Node(a.Node).Label == l {
			out = append(out, a.Node)
		}
	}
	slices.SortFunc(out, func(a, b graph.NodeID) int { return strings.Compare(p.g.Node(a).UID, p.g.Node(b).UID) })
	return out
}

// prerequisites returns the skill and every skill it depends on,
// prerequisites first (a depth-first post-order; ties by uid).
func (p planner) prerequisites(skill graph.NodeID) []graph.NodeID {
	var order []graph.NodeID
	seen := map[graph.NodeID]bool{}
	var visit func(graph.NodeID)
	visit = func(id graph.NodeID) {
		if seen[id] {
			return
		}
		seen[id] = true
		for _, pre := range p.neighbours(id, graph.DependsOn, false, graph.Skill) {
			visit(pre)
		}
		order = append(order, id)
	}
	visit(skill)
	return order
}

// teachesOnly reports whether a module teaches skills and all of them are
// known.
func (p planner) teachesOnly(mod graph.NodeID, known map[graph.NodeID]bool) bool {
	skills := p.neighbours(mod, graph.TeachesSkill, false, graph.Skill)
	if len(skills) == 0 {
		return false
	}
	for _, sk := range skills {
		if !known[sk] {
			return false
		}
	}
	return true
}

func (p planner) forRole(mod, role graph.NodeID) int {
	if slices.Contains(p.neighbours(mod, graph.ForRole, false, graph.Role), role) {
		return 1
	}
	return 0
}

// units returns a module's visible units in their order.
func (p planner) units(mod graph.NodeID) []graph.NodeID {
	type unit struct {
		id    graph.NodeID
		order float32
	}
	var us []unit
	for _, a := range p.g.In(mod) {
		if a.Type == graph.PartOf && p.v.visible(a.Node) && p.g.Node(a.Node).Label == graph.Unit {
			us = append(us, unit{a.Node, a.Weight})
		}
	}
	slices.SortFunc(us, func(a, b unit) int { return cmp.Compare(a.order, b.order) })
	out := make([]graph.NodeID, len(us))
	for i, u := range us {
		out[i] = u.id
	}
	return out
}
