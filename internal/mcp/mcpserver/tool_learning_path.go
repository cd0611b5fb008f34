package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
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
		path, err := v.LearningPath(knowledge.PathRequest{Target: in.TargetSkill, Known: in.KnownSkills, Audience: in.Audience})
		if err != nil {
			return learningPathOut{}, docsFailure(err)
		}
		out := learningPathOut{Target: refOf(path.Target), Skills: []skillStatus{}, Steps: []learningStep{}, Untaught: refsOf(path.Untaught)}
		for _, sk := range path.Skills {
			status := "learn"
			if sk.Known {
				status = "known"
			}
			out.Skills = append(out.Skills, skillStatus{refOf(sk.Skill), status})
		}
		for i, st := range path.Steps {
			out.Steps = append(out.Steps, learningStep{Step: i + 1, Module: refOf(st.Module), Teaches: refsOf(st.Teaches), Units: refsOf(st.Units)})
		}
		return out, nil
	})
}
