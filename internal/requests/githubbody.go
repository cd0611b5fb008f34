package requests

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// maxIssueBody keeps an issue or comment body under GitHub's bound.
const maxIssueBody = 60000

// intakeBody renders an intake proposal as the body of an issue. Text the
// proposer wrote goes in fenced blocks and identities in code spans, so
// nothing in them renders as markup or mentions anyone.
func intakeBody(p *Proposal) string {
	f := p.Intake
	var b strings.Builder
	fmt.Fprintf(&b, "Request intake proposed by %s, waiting for an operator's approval (proposal `%s`).\n\n", code(p.Proposer), p.ID)
	fmt.Fprintf(&b, "- Type: %s\n- Area: %s\n- Owner: %s\n- Requester: %s\n", code(f.Type), code(f.Area), code(f.Owner), code(f.Identity))
	section(&b, "Problem", "text", f.Problem)
	section(&b, "Desired outcome", "text", f.DesiredOutcome)
	if len(f.Links) > 0 {
		section(&b, "Links", "yaml", yamlText(f.Links))
	}
	return truncate(b.String(), maxIssueBody)
}

// transitionBody renders a transition proposal of request r as the body of
// a comment or an issue.
func transitionBody(p *Proposal, r *Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Transition of %s proposed by %s: **%s → %s**, waiting for an operator's approval (proposal `%s`).\n", r.ID, code(p.Proposer), p.From, p.To, p.ID)
	if p.Reason != "" {
		section(&b, "Reason", "text", p.Reason)
	}
	if a := yamlText(p.Attachments); a != "{}\n" {
		section(&b, "Attachments", "yaml", a)
	}
	return truncate(b.String(), maxIssueBody)
}

func section(b *strings.Builder, title, lang, text string) {
	fence := "~~~"
	for strings.Contains(text, fence) {
		fence += "~"
	}
	fmt.Fprintf(b, "\n### %s\n\n%s%s\n%s\n%s\n", title, fence, lang, strings.TrimRight(text, "\n"), fence)
}

// code renders an identity as a code span.
func code(s string) string { return "`" + strings.ReplaceAll(s, "`", "'") + "`" }

func yamlText(v any) string {
	out, err := yaml.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(out)
}
