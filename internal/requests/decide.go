package requests

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// Approve makes a pending proposal real, as approver (a name, recorded as
// approvedBy): an intake creates a request with the next id of the year, a
// transition moves its request. It re-validates the proposal against the
// current state under the request's lock; a transition whose request has
// changed since it was proposed is refused as stale (ErrStale), and so is
// one the gate now refuses (*GateError). It returns the decided proposal
// and the request as it now is.
//
// Nobody approves their own proposal: a *SelfApprovalError refuses an
// approver whose name is the proposer's, and, for a proposal of the local
// operator (which records the account its server ran as), an approval by
// that same account (s.Account), whatever name it gives. ApproveOwn
// approves anyway and records that it did.
func (s *Store) Approve(ctx context.Context, proposalID, approver string) (*Proposal, *Request, error) {
	return s.approve(ctx, proposalID, approver, false)
}

// ApproveOwn is Approve for a proposal its approver made: it is not
// refused, and the decision and the request's history record
// selfApproved. For the operator of a single-user machine, whose own
// agents propose through the stdio server.
func (s *Store) ApproveOwn(ctx context.Context, proposalID, approver string) (*Proposal, *Request, error) {
	return s.approve(ctx, proposalID, approver, true)
}

func (s *Store) approve(ctx context.Context, proposalID, approver string, own bool) (*Proposal, *Request, error) {
	if err := checkIdentity("approver", approver); err != nil {
		return nil, nil, err
	}
	p, unlock, err := s.pending(ctx, proposalID)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	self := s.selfApproval(p, approver)
	if self != nil && !own {
		return nil, nil, self
	}
	var r *Request
	if p.Kind == KindIntake {
		r, err = s.createRequest(ctx, p, approver, self != nil)
	} else {
		r, err = s.moveRequest(ctx, p, approver, self != nil)
	}
	if err != nil {
		return nil, nil, err
	}
	p.Status, p.RequestID, p.DecidedBy, p.DecidedAt = StatusApproved, r.ID, approver, r.Updated
	p.DecidedByAccount, p.SelfApproved = s.account(), self != nil
	if err := s.decide(ctx, p); err != nil {
		return nil, nil, err
	}
	return p, r, nil
}

// selfApproval is the refusal of approver approving p as its own
// proposal, nil when approver is not its proposer.
func (s *Store) selfApproval(p *Proposal, approver string) *SelfApprovalError {
	switch {
	case p.ProposerAccount != nil && p.ProposerAccount.Same(s.Account):
		return &SelfApprovalError{ID: p.ID, Proposer: p.Proposer, Account: s.Account}
	case sameIdentity(p.Proposer, approver):
		return &SelfApprovalError{ID: p.ID, Proposer: p.Proposer}
	}
	return nil
}

// ApprovalCheck is what approving a pending proposal would do now.
type ApprovalCheck struct {
	// Refusal is the error Approve would return now (a
	// *SelfApprovalError, ErrStale, a *GateError, ...); nil when it would
	// pass.
	Refusal error
	// Stage is the stage the request would be in; Next lists what it
	// would still lack to pass that stage's gate (empty when it would
	// pass, or when the stage has no gate). Both are zero when refused.
	Stage Stage
	Next  []string
}

// CheckApproval works out, without changing or locking anything, what
// Approve(proposalID, approver) would do now: the same self-approval,
// staleness and gate checks, on the request as it stands. The state may
// change before an approval, which checks again.
func (s *Store) CheckApproval(proposalID, approver string) (ApprovalCheck, error) {
	ctx, cancel := opContext()
	defer cancel()
	p, err := s.proposal(ctx, proposalID)
	if err != nil {
		return ApprovalCheck{}, err
	}
	if p.Status != StatusPending {
		return ApprovalCheck{Refusal: fmt.Errorf("%s was %s by %s: %w", p.ID, p.Status, p.DecidedBy, ErrDecided)}, nil
	}
	if err := checkIdentity("approver", approver); err != nil {
		return ApprovalCheck{Refusal: err}, nil
	}
	if self := s.selfApproval(p, approver); self != nil {
		return ApprovalCheck{Refusal: self}, nil
	}
	var r *Request
	if p.Kind == KindIntake {
		r = requestOfIntake(p, "", approver, false, s.now().UTC())
	} else {
		cur, err := s.loadRequest(ctx, p.RequestID)
		if err != nil {
			return ApprovalCheck{}, err
		}
		if r, err = s.transitioned(cur, p, approver, false); err != nil {
			return ApprovalCheck{Refusal: err}, nil
		}
	}
	return ApprovalCheck{Stage: r.Stage, Next: gate(r.Stage, r)}, nil
}

// Reject closes a pending proposal without effect, recording who decided
// and why. The proposer may withdraw their own proposal this way.
func (s *Store) Reject(ctx context.Context, proposalID, approver, reason string) (*Proposal, error) {
	if err := checkIdentity("approver", approver); err != nil {
		return nil, err
	}
	if strings.TrimSpace(reason) == "" || len(reason) > maxText || hasControl(reason) {
		return nil, fmt.Errorf("rejecting needs a reason of at most %d bytes on printable lines: say why", maxText)
	}
	p, unlock, err := s.pending(ctx, proposalID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	p.Status, p.DecidedBy, p.DecidedAt, p.DecisionReason = StatusRejected, approver, s.now().UTC(), reason
	p.DecidedByAccount = s.account()
	if err := s.decide(ctx, p); err != nil {
		return nil, err
	}
	return p, nil
}

// account returns the store's account for a record, nil when unknown.
func (s *Store) account() *Account {
	if !s.Account.Known() {
		return nil
	}
	a := s.Account
	return &a
}

// pending reads a proposal that must still be pending, under the lock
// that guards it: its request's for a transition, the store's (which also
// guards the allocation of ids) for an intake. The kind and the request of
// a proposal never change, so a first read tells which lock to take.
func (s *Store) pending(ctx context.Context, id string) (*Proposal, func(), error) {
	p, err := s.proposal(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	guard := "store"
	if p.Kind == KindTransition {
		guard = p.RequestID
	}
	unlock, err := s.lock(ctx, guard)
	if err != nil {
		return nil, nil, err
	}
	p, err = s.proposal(ctx, p.ID)
	if err == nil && p.Status != StatusPending {
		err = fmt.Errorf("%s was %s by %s at %s: %w", p.ID, p.Status, p.DecidedBy, p.DecidedAt.Format("2006-01-02 15:04:05Z07:00"), ErrDecided)
	}
	if err != nil {
		unlock()
		return nil, nil, err
	}
	return p, unlock, nil
}

// decide moves a decided proposal out of the pending folder: the decided
// copy is written first, so that a process that dies between the two
// steps leaves both copies (readers take the decided one), never none.
func (s *Store) decide(ctx context.Context, p *Proposal) error {
	if err := s.writeFile(ctx, s.decidedDir()+"/"+p.ID+".yaml", p); err != nil {
		return fmt.Errorf("recording the decision on %s: %w", p.ID, err)
	}
	if err := s.docs.Remove(ctx, s.pendingDir()+"/"+p.ID+".yaml"); err != nil {
		return fmt.Errorf("removing the pending copy of %s: %w", p.ID, err)
	}
	return nil
}

// createRequest makes the request of an approved intake, with the next id
// of the year. Call it under the store lock. An intake whose request
// exists already (an approval interrupted before the proposal was moved)
// gets that request back.
func (s *Store) createRequest(ctx context.Context, p *Proposal, approver string, self bool) (*Request, error) {
	all, _, err := s.all(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range all {
		if len(r.History) > 0 && r.History[0].Proposal == p.ID {
			return r, nil
		}
	}
	now := s.now().UTC()
	id, err := s.nextID(ctx, now.Year())
	if err != nil {
		return nil, err
	}
	r := requestOfIntake(p, id, approver, self, now)
	if err := s.writeFile(ctx, s.requestName(id), r); err != nil {
		return nil, fmt.Errorf("creating %s: %w", id, err)
	}
	return r, nil
}

// requestOfIntake is the request an approved intake creates, with id.
func requestOfIntake(p *Proposal, id, approver string, self bool, now time.Time) *Request {
	f := p.Intake
	r := &Request{
		ID: id, Title: f.Title, Stage: StageIntake, Type: f.Type, Area: f.Area, Owner: f.Owner, Requester: f.Identity,
		Problem: f.Problem, DesiredOutcome: f.DesiredOutcome, Links: slices.Clone(f.Links),
		History: []Transition{{To: StageIntake, Actor: p.Proposer, ApprovedBy: approver, SelfApproved: self, Proposal: p.ID, At: now}},
		Created: now, Updated: now,
	}
	if p.TrackerURL != "" {
		r.Links = append(r.Links, Link{Kind: LinkIssue, URL: p.TrackerURL})
	}
	return r
}

// nextID returns the id after the highest of the year among the request
// files, whatever their state or case. Call it under the store lock.
func (s *Store) nextID(ctx context.Context, year int) (string, error) {
	entries, err := s.docs.List(ctx, s.dir)
	if err != nil {
		return "", fmt.Errorf("reading the requests folder: %w", err)
	}
	high := 0
	for _, e := range entries {
		id, err := ParseID(strings.TrimSuffix(path.Base(e.Name), ".yaml"))
		if err != nil {
			continue
		}
		if y, n := idParts(id); y == year {
			high = max(high, n)
		}
	}
	if high >= 999999 {
		return "", fmt.Errorf("the ids of %d are used up", year)
	}
	return formatID(year, high+1), nil
}

// moveRequest applies an approved transition. Call it under the request's
// lock. A transition already in the history (an approval interrupted
// before the proposal was moved) leaves the request as it is.
func (s *Store) moveRequest(ctx context.Context, p *Proposal, approver string, self bool) (*Request, error) {
	r, err := s.loadRequest(ctx, p.RequestID)
	if err != nil {
		return nil, err
	}
	if n := len(r.History); n > 0 && r.History[n-1].Proposal == p.ID {
		return r, nil
	}
	m, err := s.transitioned(r, p, approver, self)
	if err != nil {
		return nil, err
	}
	if err := s.writeFile(ctx, s.requestName(r.ID), m); err != nil {
		return nil, fmt.Errorf("updating %s: %w", r.ID, err)
	}
	return m, nil
}

// transitioned is r as approving the transition p would leave it, or why
// the approval is refused: ErrStale when r changed since p was proposed,
// a *GateError when the gate refuses it now. It changes nothing.
func (s *Store) transitioned(r *Request, p *Proposal, approver string, self bool) (*Request, error) {
	if r.Stage != p.From || len(r.History) != p.BaseVersion {
		return nil, fmt.Errorf("%s was proposed against %s version %d (stage %s); it is now version %d (stage %s): %w; propose again against the current state",
			p.ID, r.ID, p.BaseVersion, p.From, len(r.History), r.Stage, ErrStale)
	}
	now := s.now().UTC()
	m, skipped, err := checkTransition(r, p.transition(), p.Proposer, now)
	if err != nil {
		return nil, err
	}
	m.History = append(m.History, Transition{From: r.Stage, To: m.Stage, Actor: p.Proposer, ApprovedBy: approver, SelfApproved: self, Reason: p.Reason, Skipped: skipped, Proposal: p.ID, At: now})
	m.Updated = now
	return m, nil
}
