package requests

import "time"

// ProposalKind says what a proposal would do.
type ProposalKind string

// The proposal kinds.
const (
	KindIntake     ProposalKind = "intake"     // create a request in stage intake
	KindTransition ProposalKind = "transition" // move a request to another stage
)

// ProposalStatus is where a proposal stands.
type ProposalStatus string

// The proposal statuses.
const (
	StatusPending  ProposalStatus = "pending"
	StatusApproved ProposalStatus = "approved"
	StatusRejected ProposalStatus = "rejected"
)

// Proposal is a staged change that only an operator can make real: the
// file <root>/proposals/<ID>.yaml while pending, and
// <root>/proposals/decided/<ID>.yaml once approved or rejected.
type Proposal struct {
	ID     string         `yaml:"id" json:"id" jsonschema:"prop- and 12 hex digits."`
	Kind   ProposalKind   `yaml:"kind" json:"kind" jsonschema:"intake or transition."`
	Status ProposalStatus `yaml:"status" json:"status" jsonschema:"pending, approved or rejected."`
	// RequestID is the request a transition moves; for an intake, the
	// request its approval created.
	RequestID string `yaml:"requestId,omitempty" json:"requestId,omitempty"`
	From      Stage  `yaml:"from,omitempty" json:"from,omitempty"`
	To        Stage  `yaml:"to" json:"to"`
	// BaseVersion is the request's version (its number of history
	// entries) when the transition was proposed; an approval refuses the
	// proposal as stale when the request has changed since.
	BaseVersion int         `yaml:"baseVersion,omitempty" json:"baseVersion,omitempty"`
	Reason      string      `yaml:"reason,omitempty" json:"reason,omitempty"`
	Intake      *IntakeForm `yaml:"intake,omitempty" json:"intake,omitempty"`
	Attachments Attachments `yaml:"attachments,omitempty" json:"attachments,omitzero"`
	Proposer    string      `yaml:"proposer" json:"proposer"`
	// ProposerAccount is the account the server ran as when the proposer
	// is the local operator (OperatorProposer); absent for federation
	// members, who are principals of their own.
	ProposerAccount *Account  `yaml:"proposerAccount,omitempty" json:"proposerAccount,omitempty"`
	Created         time.Time `yaml:"created" json:"created"`
	// TrackerURL is the issue or comment the proposal was forwarded to;
	// ForwardError says why forwarding failed.
	TrackerURL   string `yaml:"trackerUrl,omitempty" json:"trackerUrl,omitempty"`
	ForwardError string `yaml:"forwardError,omitempty" json:"forwardError,omitempty"`
	DecidedBy    string `yaml:"decidedBy,omitempty" json:"decidedBy,omitempty"`
	// DecidedByAccount is the account that approved or rejected it.
	DecidedByAccount *Account `yaml:"decidedByAccount,omitempty" json:"decidedByAccount,omitempty"`
	// SelfApproved is set when the proposing account (or name) approved
	// it, explicitly (ApproveOwn).
	SelfApproved   bool      `yaml:"selfApproved,omitempty" json:"selfApproved,omitempty"`
	DecidedAt      time.Time `yaml:"decidedAt,omitempty" json:"decidedAt,omitzero"`
	DecisionReason string    `yaml:"decisionReason,omitempty" json:"decisionReason,omitempty"`
}

// transition returns the transition a transition proposal stands for.
func (p *Proposal) transition() TransitionRequest {
	return TransitionRequest{To: p.To, Reason: p.Reason, Attachments: p.Attachments}
}
