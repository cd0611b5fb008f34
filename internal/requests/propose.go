package requests

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// ProposeIntake validates a JSON intake form (see IntakeSchema) and stages
// a draft request in stage intake, proposed by proposer. It creates no
// request: an operator's Approve does. An invalid form is a *FormError.
func (s *Store) ProposeIntake(ctx context.Context, form []byte, proposer string) (*Proposal, error) {
	if err := checkIdentity("proposer", proposer); err != nil {
		return nil, err
	}
	f, err := ParseIntake(form)
	if err != nil {
		return nil, err
	}
	if f.Title == "" {
		f.Title = titleFrom(f.Problem)
	}
	p := &Proposal{ID: newProposalID(), Kind: KindIntake, Status: StatusPending, To: StageIntake, Intake: f, Proposer: proposer, Created: s.now().UTC()}
	return p, s.stage(ctx, p, nil)
}

// ProposeTransition validates a transition of request id against its
// current state (the gate of its stage, the skip rules, the reasons) and
// stages it as a draft, proposed by proposer. It changes no request: an
// operator's Approve does. A refused transition is a *GateError.
func (s *Store) ProposeTransition(ctx context.Context, id string, t TransitionRequest, proposer string) (*Proposal, error) {
	if err := checkIdentity("proposer", proposer); err != nil {
		return nil, err
	}
	canon, err := ParseID(id)
	if err != nil {
		return nil, err
	}
	r, err := s.loadRequest(ctx, canon)
	if err != nil {
		return nil, err
	}
	if _, _, err := checkTransition(r, t, proposer, s.now()); err != nil {
		return nil, err
	}
	to, _ := ParseStage(string(t.To))
	p := &Proposal{
		ID: newProposalID(), Kind: KindTransition, Status: StatusPending,
		RequestID: r.ID, From: r.Stage, To: to, BaseVersion: len(r.History),
		Reason: t.Reason, Attachments: t.Attachments, Proposer: proposer, Created: s.now().UTC(),
	}
	return p, s.stage(ctx, p, r)
}

// maxForwardError bounds the forwarding error kept in a proposal.
const maxForwardError = 500

// stage forwards a new proposal to the tracker, when there is one, and
// writes it. A tracker failure does not lose the proposal: it is kept with
// the error.
func (s *Store) stage(ctx context.Context, p *Proposal, r *Request) error {
	if p.Proposer == OperatorProposer && s.Account.Known() {
		// The local operator's proposal: made by the account this server
		// runs as, which is what an approval is compared with.
		account := s.Account
		p.ProposerAccount = &account
	}
	if s.Tracker != nil {
		url, err := s.Tracker.Forward(ctx, p, r)
		if err != nil {
			p.ForwardError = truncate(err.Error(), maxForwardError)
		} else {
			p.TrackerURL = url
		}
	}
	if err := s.writeFile(ctx, s.pendingDir()+"/"+p.ID+".yaml", p); err != nil {
		if p.TrackerURL != "" {
			return fmt.Errorf("proposal %s was forwarded to %s but could not be saved: %w", p.ID, p.TrackerURL, err)
		}
		return fmt.Errorf("saving proposal %s: %w", p.ID, err)
	}
	return nil
}

// Proposal returns one proposal, pending or decided.
func (s *Store) Proposal(id string) (*Proposal, error) {
	ctx, cancel := opContext()
	defer cancel()
	return s.proposal(ctx, id)
}

func (s *Store) proposal(ctx context.Context, id string) (*Proposal, error) {
	pid, err := parseProposalID(id)
	if err != nil {
		return nil, err
	}
	// Decided copies are looked for on both sides of the pending one, so
	// that a proposal decided meanwhile is still found.
	for _, dir := range []string{s.decidedDir(), s.pendingDir(), s.decidedDir()} {
		p, err := s.loadProposal(ctx, dir+"/"+pid+".yaml", pid)
		if !errors.Is(err, os.ErrNotExist) {
			return p, err
		}
	}
	return nil, fmt.Errorf("proposal %s: %w", pid, ErrNotFound)
}

// ProposalFilter selects proposals; an empty field matches every one.
type ProposalFilter struct {
	Status    ProposalStatus
	Kind      ProposalKind
	RequestID string // any case
}

// Proposals returns the proposals that match f, oldest first, and the
// proposal files that could not be read.
func (s *Store) Proposals(f ProposalFilter) ([]*Proposal, []Problem, error) {
	ctx, cancel := opContext()
	defer cancel()
	// Pending first, then decided: a proposal decided meanwhile is read
	// twice, and its decided copy wins.
	found := map[string]*Proposal{}
	var problems []Problem
	for _, dir := range []string{s.pendingDir(), s.decidedDir()} {
		entries, err := s.docs.List(ctx, dir)
		if err != nil {
			return nil, nil, fmt.Errorf("reading proposals: %w", err)
		}
		for _, e := range entries {
			base, ok := strings.CutSuffix(path.Base(e.Name), ".yaml")
			if !ok {
				continue
			}
			pid, err := parseProposalID(base)
			if err == nil && pid != base {
				err = fmt.Errorf("rename it %s.yaml", pid)
			}
			var p *Proposal
			if err == nil {
				p, err = s.loadProposal(ctx, e.Name, pid)
			}
			switch {
			case errors.Is(err, os.ErrNotExist): // decided meanwhile
			case err != nil:
				problems = append(problems, Problem{File: s.rel(e.Name), Message: err.Error()})
			default:
				found[pid] = p
			}
		}
	}
	var out []*Proposal
	for _, p := range found {
		if (f.Status == "" || p.Status == f.Status) && (f.Kind == "" || p.Kind == f.Kind) && (f.RequestID == "" || strings.EqualFold(f.RequestID, p.RequestID)) {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *Proposal) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, problems, nil
}

// titleFrom makes a title of the first line of a problem statement.
func titleFrom(problem string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(problem), "\n")
	return truncate(strings.TrimSpace(line), 80)
}

// truncate cuts s to at most n bytes at a character boundary, marking the
// cut with "...".
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
