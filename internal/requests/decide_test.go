package requests

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestApproveRefusesSelfApproval(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.Approve(context.Background(), p.ID, strings.ToUpper(agent))
		if err == nil || err.Error() != p.ID+" was proposed by agent:codex, who cannot approve it too: another operator must" {
			t.Fatalf("self-approval: %v", err)
		}
		if got, _ := s.Proposal(p.ID); got.Status != StatusPending {
			t.Error("the refused approval decided the proposal")
		}
	})
}

// TestSelfApprovalRestsOnTheAccountNotTheName: a proposal of the local
// operator (the stdio server) records the account its server runs as; an
// approval by that account is refused whatever name it types (the
// default cli:operator, another person's name), is allowed from another
// account, and ApproveOwn approves it, recorded as a self-approval.
func TestSelfApprovalRestsOnTheAccountNotTheName(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		ctx := context.Background()
		me := Account{Host: "laptop", UID: "1000", User: "alice"}
		server := newStore(t)
		server.Account = me
		p, err := server.ProposeIntake(ctx, formJSON(t, nil), OperatorProposer)
		if err != nil {
			t.Fatal(err)
		}
		if p.ProposerAccount == nil || !p.ProposerAccount.Same(me) {
			t.Fatalf("the operator's proposal records no account: %+v", p.ProposerAccount)
		}
		// The CLI, another process under the same account, on the same folder.
		cli := reopen(server)
		cli.Account = me
		for _, name := range []string{"cli:operator", "cli:bob", "github:someone-else"} {
			var se *SelfApprovalError
			if _, _, err := cli.Approve(ctx, p.ID, name); !errors.As(err, &se) || !strings.Contains(err.Error(), "alice (uid 1000) on laptop") {
				t.Errorf("approving as %s from the proposing account: %v", name, err)
			}
		}
		if got, _ := cli.Proposal(p.ID); got.Status != StatusPending {
			t.Fatal("a refused approval decided the proposal")
		}
		// The same uid on another machine is another account.
		other := Account{Host: "desktop", UID: "1000", User: "bob"}
		elsewhere := reopen(server)
		elsewhere.Account = other
		q, err := server.ProposeIntake(ctx, formJSON(t, map[string]any{"title": "Second"}), OperatorProposer)
		if err != nil {
			t.Fatal(err)
		}
		decided, r, err := elsewhere.Approve(ctx, q.ID, "cli:bob")
		if err != nil {
			t.Fatalf("another account approving: %v", err)
		}
		if decided.SelfApproved || r.History[0].SelfApproved || decided.DecidedByAccount == nil || !decided.DecidedByAccount.Same(other) {
			t.Errorf("another account's approval: %+v %+v", decided, r.History[0])
		}
		// An explicit self-approval goes through and says so.
		decided, r, err = cli.ApproveOwn(ctx, p.ID, "cli:alice")
		if err != nil {
			t.Fatal(err)
		}
		if !decided.SelfApproved || !r.History[0].SelfApproved || !decided.DecidedByAccount.Same(me) {
			t.Errorf("self-approval not recorded: %+v %+v", decided, r.History[0])
		}
		// A member's proposal records no account: any account may approve it.
		m, err := server.ProposeIntake(ctx, formJSON(t, map[string]any{"title": "Third"}), "codex")
		if err != nil {
			t.Fatal(err)
		}
		if m.ProposerAccount != nil {
			t.Errorf("a member's proposal records the server's account: %+v", m.ProposerAccount)
		}
		if _, _, err := cli.Approve(ctx, m.ID, "cli:alice"); err != nil {
			t.Errorf("approving a member's proposal: %v", err)
		}
	})
}

func TestCurrentAccountIsTheProcesss(t *testing.T) {
	a, ok := CurrentAccount()
	if !ok {
		t.Skip("no numeric user ids here")
	}
	if a.UID != strconv.Itoa(os.Getuid()) || !a.Same(a) {
		t.Errorf("account %+v", a)
	}
	t.Setenv("USER", "someone-else")
	if b, _ := CurrentAccount(); !b.Same(a) || b.User != a.User {
		t.Errorf("$USER changed the account: %+v, was %+v", b, a)
	}
}

func TestRejectRecordsWhoAndWhy(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		p, err := s.ProposeTransition(context.Background(), r.ID, steps()[0], agent)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Reject(context.Background(), p.ID, operator, " "); err == nil {
			t.Fatal("a rejection without a reason")
		}
		got, err := s.Reject(context.Background(), p.ID, operator, "classify it as infra")
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != StatusRejected || got.DecidedBy != operator || got.DecisionReason != "classify it as infra" || !got.DecidedAt.Equal(clock) {
			t.Errorf("%+v", got)
		}
		if _, _, err := s.Approve(context.Background(), p.ID, operator); !errors.Is(err, ErrDecided) ||
			err.Error() != p.ID+" was rejected by github:alice at 2026-03-04 05:06:07Z: already decided" {
			t.Errorf("approving a rejected proposal: %v", err)
		}
		if _, err := s.Reject(context.Background(), p.ID, operator, "again"); !errors.Is(err, ErrDecided) {
			t.Errorf("rejecting twice: %v", err)
		}
		if now, _ := s.Get(r.ID); now.Stage != StageIntake || len(now.History) != 1 {
			t.Errorf("a rejected proposal changed the request: %+v", now)
		}
	})
}

func TestStaleProposalIsRefused(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		first, err := s.ProposeTransition(context.Background(), r.ID, steps()[0], agent)
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.ProposeTransition(context.Background(), r.ID, TransitionRequest{To: StageRejected, Reason: "duplicate"}, agent)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Approve(context.Background(), first.ID, operator); err != nil {
			t.Fatal(err)
		}
		_, _, err = s.Approve(context.Background(), second.ID, operator)
		want := second.ID + " was proposed against REQ-2026-0001 version 1 (stage intake); it is now version 2 (stage evaluate): stale proposal; propose again against the current state"
		if !errors.Is(err, ErrStale) || err.Error() != want {
			t.Fatalf("got %v\nwant %s", err, want)
		}
		// The document loop keeps the stage: the history length still shows
		// the change.
		d := request(StageDocument, true)
		d.ID = "REQ-2026-0002"
		if err := s.writeFile(context.Background(), s.requestName(d.ID), d); err != nil {
			t.Fatal(err)
		}
		loop := TransitionRequest{To: StageDocument, Reason: "more detail"}
		a, _ := s.ProposeTransition(context.Background(), d.ID, loop, agent)
		b, _ := s.ProposeTransition(context.Background(), d.ID, loop, agent)
		if _, _, err := s.Approve(context.Background(), a.ID, operator); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Approve(context.Background(), b.ID, operator); !errors.Is(err, ErrStale) {
			t.Fatalf("a second loop on the same version: %v", err)
		}
	})
}

func TestProposeValidatesAgainstCurrentState(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		_, err := s.ProposeTransition(context.Background(), r.ID, TransitionRequest{To: StageReview}, agent)
		var ge *GateError
		if !errors.As(err, &ge) {
			t.Fatalf("got %v", err)
		}
		if _, err := s.ProposeTransition(context.Background(), "REQ-2026-0009", steps()[0], agent); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown request: %v", err)
		}
		if _, err := s.ProposeTransition(context.Background(), r.ID, steps()[0], "agent codex"); err == nil {
			t.Error("a proposer with a space")
		}
		if ps, _, _ := s.Proposals(ProposalFilter{Kind: KindTransition}); len(ps) != 0 {
			t.Errorf("refused proposals were staged: %v", ps)
		}
	})
}

func TestProposalsFilter(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		r := accepted(t, s)
		p1, _ := s.ProposeTransition(context.Background(), r.ID, steps()[0], agent)
		p2, _ := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		if _, err := s.Reject(context.Background(), p2.ID, operator, "duplicate of "+r.ID); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			f    ProposalFilter
			want int
		}{
			{ProposalFilter{}, 3},
			{ProposalFilter{Status: StatusPending}, 1},
			{ProposalFilter{Status: StatusApproved}, 1},
			{ProposalFilter{Status: StatusRejected, Kind: KindIntake}, 1},
			{ProposalFilter{RequestID: strings.ToLower(r.ID)}, 2},
		} {
			got, problems, err := s.Proposals(tc.f)
			if err != nil || len(problems) > 0 || len(got) != tc.want {
				t.Errorf("%+v: %d proposals, %v, %v", tc.f, len(got), problems, err)
			}
		}
		if got, _, _ := s.Proposals(ProposalFilter{Status: StatusPending}); got[0].ID != p1.ID {
			t.Errorf("pending %v", got)
		}
		if _, err := s.Proposal("prop-000000000000"); !errors.Is(err, ErrNotFound) {
			t.Errorf("unknown proposal: %v", err)
		}
		if _, err := s.Proposal("../../etc/passwd"); err == nil || !strings.Contains(err.Error(), "want prop-") {
			t.Errorf("bad proposal id: %v", err)
		}
	})
}

func TestInterruptedApprovalCompletes(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		// An intake whose request was written but whose proposal was not
		// moved: approving again returns that request, with no second one.
		p, _ := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		pending := "proposals/" + p.ID + ".yaml"
		saved, _ := readDoc(s, pending)
		_, r, err := s.Approve(context.Background(), p.ID, operator)
		if err != nil {
			t.Fatal(err)
		}
		restore := func() {
			removeDoc(t, s, "proposals/decided/"+p.ID+".yaml")
			writeDoc(t, s, pending, saved)
		}
		restore()
		_, again, err := s.Approve(context.Background(), p.ID, operator)
		if err != nil || again.ID != r.ID {
			t.Fatalf("re-approval: %v %v", again, err)
		}
		if all, _, _ := s.All(); len(all) != 1 {
			t.Errorf("%d requests", len(all))
		}
		// The same for a transition.
		p, _ = s.ProposeTransition(context.Background(), r.ID, steps()[0], agent)
		pending = "proposals/" + p.ID + ".yaml"
		saved, _ = readDoc(s, pending)
		if _, _, err := s.Approve(context.Background(), p.ID, operator); err != nil {
			t.Fatal(err)
		}
		restore()
		if _, moved, err := s.Approve(context.Background(), p.ID, operator); err != nil || len(moved.History) != 2 {
			t.Fatalf("re-approval: %v %v", moved, err)
		}
		// A pending copy left next to its decided one is not listed twice.
		writeDoc(t, s, pending, saved)
		if ps, problems, _ := s.Proposals(ProposalFilter{}); len(ps) != 2 || len(problems) != 0 {
			t.Errorf("%d proposals, %v", len(ps), problems)
		}
	})
}
