package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

type learningPathIn struct {
	TargetSkill string   `json:"targetSkill" jsonschema:"The skill to reach: its uid or its title."`
	KnownSkills []string `json:"knownSkills,omitempty" jsonschema:"Skills already held (uids or titles); they and their prerequisites are left out."`
	Audience    string   `json:"audience,omitempty" jsonschema:"A role (uid or title): when several modules teach a skill, one for this role is preferred."`
	docsAccess
}

type learningStep struct {
	Step    int       `json:"step"`
	Module  nodeRef   `json:"module"`
	Teaches []nodeRef `json:"teaches"`
	Units   []nodeRef `json:"units"`
}

type learningPathOut struct {
	Target nodeRef `json:"target"`
	// Skills are the skills on the way, prerequisites first, with
	// known (already held) or learn.
	Skills []skillStatus `json:"skills"`
	// Steps are the modules to take, in prerequisite order.
	Steps []learningStep `json:"steps"`
	// Untaught lists skills needed that no visible module teaches.
	Untaught []nodeRef `json:"untaught"`
}

type skillStatus struct {
	nodeRef
	Status string `json:"status"`
}

func (s *Server) registerGetLearningPath() {
	docsTool(s, &mcp.Tool{
		Name: "get_learning_path",
		Description: "What to learn, in order, to reach a skill: the prerequisite skills along dependsOn (prerequisites first), leaving out what knownSkills already covers, " +
			"and the modules that teach them (after their own prerequisite modules), each with its units.",
	}, nil, func(ctx context.Context, in learningPathIn, v view) (learningPathOut, error) {
		p := planner{v: v, g: v.Graph()}
		target, ok := p.skill(in.TargetSkill)
		if !ok {
			return learningPathOut{}, fmt.Errorf("no skill %q; list skills with query_graph: MATCH (s:Skill) RETURN s.uid, s.title", in.TargetSkill)
		}
		known := map[graph.NodeID]bool{}
		for _, k := range in.KnownSkills {
			id, ok := p.skill(k)
			if !ok {
				return learningPathOut{}, fmt.Errorf("known skill %q is not a skill of the graph", k)
			}
			for _, pre := range p.prerequisites(id) {
				known[pre] = true
			}
		}
		audience, hasAudience := p.find(in.Audience, graph.Role)
		out := learningPathOut{Target: refOf(p.g.Node(target)), Skills: []skillStatus{}, Steps: []learningStep{}, Untaught: []nodeRef{}}
		emitted := map[graph.NodeID]bool{}
		var emit func(mod graph.NodeID, depth int)
		emit = func(mod graph.NodeID, depth int) {
			if emitted[mod] || depth > 64 {
				return
			}
			emitted[mod] = true
			for _, pre := range p.neighbours(mod, graph.DependsOn, false, graph.Module) {
				if !p.teachesOnly(pre, known) {
					emit(pre, depth+1)
				}
			}
			step := learningStep{Step: len(out.Steps) + 1, Module: refOf(p.g.Node(mod)), Teaches: []nodeRef{}, Units: []nodeRef{}}
			for _, sk := range p.neighbours(mod, graph.TeachesSkill, false, graph.Skill) {
				step.Teaches = append(step.Teaches, refOf(p.g.Node(sk)))
			}
			for _, u := range p.units(mod) {
				step.Units = append(step.Units, refOf(p.g.Node(u)))
			}
			out.Steps = append(out.Steps, step)
		}
		for _, sk := range p.prerequisites(target) {
			status := "learn"
			if known[sk] {
				status = "known"
			}
			out.Skills = append(out.Skills, skillStatus{refOf(p.g.Node(sk)), status})
			if known[sk] {
				continue
			}
			teachers := p.neighbours(sk, graph.TeachesSkill, true, graph.Module)
			if len(teachers) == 0 {
				out.Untaught = append(out.Untaught, refOf(p.g.Node(sk)))
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
	})
}

// planner walks the visible graph for get_learning_path.
type planner struct {
	v view
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
		if p.v.Visible(id) && strings.EqualFold(p.g.Node(id).Title(), strings.TrimSpace(s)) {
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
		if a.Type == t && p.v.Visible(a.Node) && p.g.Node(a.Node).Label == l {
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
		if a.Type == graph.PartOf && p.v.Visible(a.Node) && p.g.Node(a.Node).Label == graph.Unit {
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
