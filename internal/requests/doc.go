// Package requests keeps the request lifecycle: requests that people and
// agents drive through seven ordered stages (intake, evaluate, plan,
// document, implement, review, done) or end as rejected, and the
// proposals that move them. Agents only propose; a change becomes real
// when an operator approves it.
//
// # Propose-only
//
// ProposeIntake validates an intake form against IntakeSchema and stages a
// draft request; ProposeTransition validates a change of stage against the
// request as it is and stages a draft transition. Neither touches a
// request. Approve makes a proposal real, re-validating it under the
// request's lock: a transition made against a request that has changed
// since (its stage or its history) is refused as stale, so exactly one of
// several competing proposals wins. Reject closes a proposal without
// effect. Both keep the decided proposal with who decided, when and why.
// An approval is recorded in the request's history with the proposer as
// actor and the operator as approver. Nobody approves their own proposal:
// a proposal by the local operator (OperatorProposer) records the
// operating-system account its server ran as, and an approval from that
// account is refused whatever name it gives (see Account, Approve);
// ApproveOwn approves it, recorded as a self-approval.
//
// # Stages and gates
//
// A request leaves a stage through its gate, judged on the request with
// the transition's attachments merged in:
//
//	intake    → evaluate   owner (org/team) and requester identity set
//	evaluate  → plan       classification; triage sign-off by the owner
//	                       (signedOffBy); security clear (securityClear)
//	plan      → document   plan with tasks (id, scope, a DAG), approved by
//	                       the owner and every plan approver; design-class only
//	plan      → implement  the same, for work that is not design-class;
//	                       the skipped document stage is recorded
//	document  → implement  an adr or rfc link with status accepted
//	implement → review     a branch link and a pr link
//	review    → done       the Definition of Done is done and evidence is
//	                       recorded
//
// A request is design-class when its classification says designClass or
// rfcNeeded. Besides advancing, a transition may return a request to the
// prior stage (a failed gate), loop document → document (changes
// requested), or reject it from any stage but done; all three need a
// reason. Done and rejected are terminal.
//
// # Definition of Done
//
// DoD judges the twelve core items C1..C12, which can never be waived,
// and the conditional items the classification adds: M1 (impact.breaking),
// S1 and S2 (impact.security or type security), D1 (type deps), R1 and R2
// (design-class), P1 (impact.perf), A1 (area ui or frontend, or
// accessibility). A pass needs evidence. Only C3, evals, may be n/a, with
// the reason (no agent behaviour changed); only conditional items may be
// waived, with an approver and a reason. The result is done when every
// item passes or is validly n/a or waived and the code owner approved.
//
// # Files
//
// The store is the requests folder of a library, readable by people:
//
//	<root>/REQ-2026-0001.yaml                        one accepted request
//	<root>/proposals/prop-0123456789ab.yaml          a pending proposal
//	<root>/proposals/decided/prop-0123456789ab.yaml  an approved or rejected one
//	<root>/.locks/                                   lock files
//
// Request ids are REQ-YYYY-NNNN, given in order per year at approval and
// matched in any case. Open keeps these files in a directory;
// OpenDocuments keeps the same files, byte for byte, as documents of a
// store.Documents (rows of a PostgreSQL store, shared by every replica),
// and its locks are the store's. Every write replaces its file atomically; a
// request changes under its own cross-process lock, and ids are given
// under a store lock. A file that cannot be read is reported and left as
// it is: it is never overwritten, and its id is never given again.
//
// # Trackers
//
// A Store with a Tracker forwards every new proposal, for instance to a
// GitHub issue (NewGitHub), and keeps the URL in the proposal; the issue
// of an approved intake becomes a link of the request.
package requests
