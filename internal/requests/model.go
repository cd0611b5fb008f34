package requests

import "time"

// Request is one accepted request: the file <root>/<ID>.yaml. Its
// fields change only when an operator approves a proposal.
type Request struct {
	ID                string               `yaml:"id" json:"id" jsonschema:"REQ-YYYY-NNNN."`
	Title             string               `yaml:"title" json:"title"`
	Stage             Stage                `yaml:"stage" json:"stage" jsonschema:"intake, evaluate, plan, document, implement, review, done or rejected."`
	Type              string               `yaml:"type" json:"type" jsonschema:"feature, fix, docs, chore, refactor, infra, security or deps; the classification's once classified."`
	Area              string               `yaml:"area" json:"area"`
	Owner             string               `yaml:"owner" json:"owner" jsonschema:"The accountable team, org/team."`
	Requester         string               `yaml:"requester" json:"requester" jsonschema:"The identity that asked for the work."`
	Problem           string               `yaml:"problem" json:"problem"`
	DesiredOutcome    string               `yaml:"desiredOutcome" json:"desiredOutcome"`
	Classification    *Classification      `yaml:"classification,omitempty" json:"classification,omitempty"`
	Plan              *Plan                `yaml:"plan,omitempty" json:"plan,omitempty"`
	Assessments       []Assessment         `yaml:"assessments,omitempty" json:"assessments,omitempty"`
	Links             []Link               `yaml:"links,omitempty" json:"links,omitempty"`
	Evidence          []Evidence           `yaml:"evidence,omitempty" json:"evidence,omitempty"`
	DoD               map[string]ItemState `yaml:"dod,omitempty" json:"dod,omitempty" jsonschema:"Recorded Definition of Done states by item id (C1..C12, M1, S1, S2, D1, R1, R2, P1, A1)."`
	CodeownerApproval *Approval            `yaml:"codeownerApproval,omitempty" json:"codeownerApproval,omitempty"`
	History           []Transition         `yaml:"history" json:"history" jsonschema:"Every accepted change, oldest first; the first entry is the intake."`
	Created           time.Time            `yaml:"created" json:"created"`
	Updated           time.Time            `yaml:"updated" json:"updated"`
}

// DesignClass reports whether the request needs the document stage: its
// classification says designClass or rfcNeeded.
func (r *Request) DesignClass() bool {
	c := r.Classification
	return c != nil && (c.DesignClass || c.RFCNeeded)
}

// Classification is what evaluation decides about a request.
type Classification struct {
	Type          string  `yaml:"type" json:"type" jsonschema:"feature, fix, docs, chore, refactor, infra, security or deps."`
	Area          string  `yaml:"area" json:"area" jsonschema:"Lower-case letters, digits and dashes, e.g. platform."`
	Impact        *Impact `yaml:"impact" json:"impact" jsonschema:"Required: say true or false for each."`
	RFCNeeded     bool    `yaml:"rfcNeeded" json:"rfcNeeded" jsonschema:"An RFC must be accepted before implementation."`
	DesignClass   bool    `yaml:"designClass" json:"designClass" jsonschema:"A design decision (ADR) must be accepted before implementation."`
	Accessibility bool    `yaml:"accessibility,omitempty" json:"accessibility,omitempty" jsonschema:"The change touches what people see or operate; adds the accessibility item A1 (implied by areas ui and frontend)."`
}

// Impact flags what a change may affect; each adds Definition of Done
// items.
type Impact struct {
	Breaking bool `yaml:"breaking" json:"breaking" jsonschema:"Breaks a contract; adds migration notes (M1)."`
	Perf     bool `yaml:"perf" json:"perf" jsonschema:"May change performance; adds a performance budget (P1)."`
	Security bool `yaml:"security" json:"security" jsonschema:"Touches security; adds a threat model (S1) and a security review (S2)."`
}

// Plan is the task graph approved before work starts.
type Plan struct {
	Tasks       []Task   `yaml:"tasks" json:"tasks" jsonschema:"The task DAG; at least one task."`
	Mermaid     string   `yaml:"mermaid,omitempty" json:"mermaid,omitempty" jsonschema:"The task graph as a Mermaid diagram."`
	BlastRadius []string `yaml:"blastRadius,omitempty" json:"blastRadius,omitempty" jsonschema:"Uids of the nodes the work may affect."`
	Approvers   []string `yaml:"approvers,omitempty" json:"approvers,omitempty" jsonschema:"The affected codeowners whose approval the plan needs besides the owner's."`
	ApprovedBy  []string `yaml:"approvedBy,omitempty" json:"approvedBy,omitempty" jsonschema:"Who approved the plan."`
}

// Task is one node of the plan.
type Task struct {
	ID        string   `yaml:"id" json:"id"`
	Title     string   `yaml:"title,omitempty" json:"title,omitempty"`
	Scope     string   `yaml:"scope" json:"scope" jsonschema:"The least-privilege scope the task needs, e.g. write:internal/requests."`
	DependsOn []string `yaml:"dependsOn,omitempty" json:"dependsOn,omitempty" jsonschema:"Ids of the tasks that must finish first."`
}

// Assessment is one recorded judgement: the owner's triage sign-off, the
// security clear, a dependency assessment.
type Assessment struct {
	Kind    string    `yaml:"kind" json:"kind" jsonschema:"triage, security, dependency, ..."`
	Result  string    `yaml:"result" json:"result" jsonschema:"signed-off, clear, ..."`
	By      string    `yaml:"by,omitempty" json:"by,omitempty"`
	Summary string    `yaml:"summary,omitempty" json:"summary,omitempty"`
	At      time.Time `yaml:"at,omitempty" json:"at,omitzero" jsonschema:"Set when the assessment is accepted."`
}

// The link kinds.
const (
	LinkIssue  = "issue"
	LinkPR     = "pr"
	LinkBranch = "branch"
	LinkADR    = "adr"
	LinkRFC    = "rfc"
	LinkDoc    = "doc"
	LinkCommit = "commit"
)

// Link points from a request to an artifact: an issue or pull request
// (url), a branch (name), a decision record or document (uid).
type Link struct {
	Kind   string `yaml:"kind" json:"kind" jsonschema:"issue, pr, branch, adr, rfc, doc or commit."`
	URL    string `yaml:"url,omitempty" json:"url,omitempty"`
	UID    string `yaml:"uid,omitempty" json:"uid,omitempty" jsonschema:"The uid of a node of the docs graph (adr, rfc, doc)."`
	Name   string `yaml:"name,omitempty" json:"name,omitempty" jsonschema:"A branch name or commit id."`
	Status string `yaml:"status,omitempty" json:"status,omitempty" jsonschema:"For adr and rfc: proposed, accepted, rejected or superseded."`
}

// Evidence is a record that work happened: a changelog entry, a
// completion token, a test run.
type Evidence struct {
	Kind    string    `yaml:"kind" json:"kind" jsonschema:"changelog, completion-token, test-run, docs-sync, ..."`
	Ref     string    `yaml:"ref,omitempty" json:"ref,omitempty" jsonschema:"Where to find it: a URL, a uid, a token."`
	Summary string    `yaml:"summary,omitempty" json:"summary,omitempty"`
	At      time.Time `yaml:"at,omitempty" json:"at,omitzero" jsonschema:"Set when the evidence is accepted."`
}

// ItemStatus is the state of one Definition of Done item.
type ItemStatus string

// The item states.
const (
	Pass   ItemStatus = "pass"
	Fail   ItemStatus = "fail"
	NA     ItemStatus = "n/a"
	Waived ItemStatus = "waived"
)

// ItemState is the recorded state of one Definition of Done item.
type ItemState struct {
	Status   ItemStatus `yaml:"status" json:"status" jsonschema:"pass, fail, n/a or waived."`
	Evidence string     `yaml:"evidence,omitempty" json:"evidence,omitempty" jsonschema:"What shows the state: a CI run, a document, a reason for n/a."`
	Waiver   *Waiver    `yaml:"waiver,omitempty" json:"waiver,omitempty" jsonschema:"For waived: who approved it and why; conditional items only."`
}

// Waiver excuses a conditional Definition of Done item.
type Waiver struct {
	Approver string `yaml:"approver" json:"approver"`
	Reason   string `yaml:"reason" json:"reason"`
}

// Approval is the code owner's approval of the finished work.
type Approval struct {
	Approved bool      `yaml:"approved" json:"approved"`
	By       string    `yaml:"by,omitempty" json:"by,omitempty"`
	At       time.Time `yaml:"at,omitempty" json:"at,omitzero" jsonschema:"Set when the approval is accepted."`
}

// Transition is one entry of a request's history: a change of stage (or
// the document loop) proposed by Actor and accepted by ApprovedBy.
type Transition struct {
	From       Stage  `yaml:"from,omitempty" json:"from,omitempty" jsonschema:"Empty for the intake that created the request."`
	To         Stage  `yaml:"to" json:"to"`
	Actor      string `yaml:"actor" json:"actor" jsonschema:"Who proposed it."`
	ApprovedBy string `yaml:"approvedBy" json:"approvedBy" jsonschema:"The operator who accepted it."`
	// SelfApproved is set when whoever proposed it approved it too,
	// explicitly.
	SelfApproved bool      `yaml:"selfApproved,omitempty" json:"selfApproved,omitempty" jsonschema:"Set when the proposer's own account approved it (an explicit self-approval)."`
	Reason       string    `yaml:"reason,omitempty" json:"reason,omitempty"`
	Skipped      []Stage   `yaml:"skipped,omitempty" json:"skipped,omitempty"`
	Proposal     string    `yaml:"proposal" json:"proposal"`
	At           time.Time `yaml:"at" json:"at"`
}
