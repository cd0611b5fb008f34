package main

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// onRequestBackends runs test once with the requests in a library
// directory and once in a PostgreSQL store (pgtest: skipped without
// PostgreSQL, except in CI), as subtests; requestsBackend opens a fresh
// store there and returns it with the flags that name it to bourdon
// requests.
func onRequestBackends(t *testing.T, test func(t *testing.T, requestsBackend func(*testing.T) (*requests.Store, []string))) {
	backends := []struct {
		name string
		open func(t *testing.T) (*requests.Store, []string)
	}{
		{"dir", func(t *testing.T) (*requests.Store, []string) {
			lib := t.TempDir()
			s, err := requests.Open(requestsDir(lib))
			if err != nil {
				t.Fatal(err)
			}
			return s, []string{"--library", lib}
		}},
		{"postgres", func(t *testing.T) (*requests.Store, []string) {
			url := pgtest.Migrated(t)
			return requests.OpenDocuments(pgtest.Open(t, url).Documents()), []string{"--store", url}
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b.open) })
	}
}

func TestRequestsCommand(t *testing.T) {
	onRequestBackends(t, func(t *testing.T, requestsBackend func(*testing.T) (*requests.Store, []string)) {
		audit := filepath.Join(t.TempDir(), "audit.jsonl")
		s, where := requestsBackend(t)
		form := `{"problem": "Refunds are posted twice when the provider times out.", "desiredOutcome": "Every refund is posted once.",
			"type": "fix", "area": "payments", "identity": "github:bob", "owner": "demo/payments"}`
		p, err := s.ProposeIntake(context.Background(), []byte(form), "agent:codex")
		if err != nil {
			t.Fatal(err)
		}
		run := func(args ...string) (string, string, int) {
			return runWriteCLI(t, newRequestsCommand(), append(append(args, where...), "--as", "cli:alice", "--audit-log", audit)...)
		}

		out, _, code := run("list-proposals")
		if code != 0 || !strings.Contains(out, p.ID) || !strings.Contains(out, "by agent:codex") {
			t.Fatalf("list-proposals: %d %q", code, out)
		}
		out, _, code = run("list")
		if code != 0 || !strings.Contains(out, "no requests") {
			t.Fatalf("a proposal is not a request: %q", out)
		}
		out, _, code = run("approve", p.ID)
		id := regexp.MustCompile(`REQ-\d{4}-\d{4}`).FindString(out)
		if code != 0 || id == "" || !strings.Contains(out, "is now in intake") {
			t.Fatalf("approve: %d %q", code, out)
		}
		out, _, _ = run("show", strings.ToLower(id))
		if !strings.Contains(out, `"approvedBy": "cli:alice"`) || !strings.Contains(out, `"result": "not-done"`) {
			t.Errorf("show: %s", out)
		}
		_, errOut, code := run("approve", p.ID)
		if code != 1 || !strings.Contains(errOut, "error:") {
			t.Errorf("approving twice: %d %q", code, errOut)
		}

		q, err := s.ProposeTransition(context.Background(), id, requests.TransitionRequest{To: requests.StageRejected, Reason: "duplicate"}, "agent:codex")
		if err != nil {
			t.Fatal(err)
		}
		out, _, code = run("reject", q.ID, "not", "a", "duplicate")
		if code != 0 || !strings.Contains(out, "rejected "+q.ID) {
			t.Fatalf("reject: %d %q", code, out)
		}
		decided, _ := s.Proposal(q.ID)
		if decided.DecidedBy != "cli:alice" || decided.DecisionReason != "not a duplicate" {
			t.Errorf("the rejection records %q %q", decided.DecidedBy, decided.DecisionReason)
		}
		entries, err := trust.OpenAudit(audit).Entries(trust.AuditFilter{})
		if err != nil || len(entries) != 2 || entries[0].Op != "approve_proposal" || entries[1].Op != "reject_proposal" {
			t.Errorf("audit: %+v %v", entries, err)
		}
	})
}

// TestRequestsApproveRefusesTheOperatorsOwnProposal: a proposal made
// through the stdio server (proposer operator) cannot be approved from
// the account the server ran as, whatever --as says (the default
// cli:operator included); --self-approve approves it, recorded as such in
// the history and the audit log.
func TestRequestsApproveRefusesTheOperatorsOwnProposal(t *testing.T) {
	onRequestBackends(t, func(t *testing.T, requestsBackend func(*testing.T) (*requests.Store, []string)) {
		if _, ok := requests.CurrentAccount(); !ok {
			t.Skip("no numeric user ids here")
		}
		audit := filepath.Join(t.TempDir(), "audit.jsonl")
		s, where := requestsBackend(t)
		form := `{"problem": "Refunds are posted twice when the provider times out.", "desiredOutcome": "Every refund is posted once.",
			"type": "fix", "area": "payments", "identity": "github:bob", "owner": "demo/payments"}`
		p, err := s.ProposeIntake(context.Background(), []byte(form), trust.OperatorID)
		if err != nil {
			t.Fatal(err)
		}
		run := func(args ...string) (string, string, int) {
			return runWriteCLI(t, newRequestsCommand(), append(append(args, where...), "--audit-log", audit)...)
		}
		for _, as := range [][]string{nil, {"--as", "cli:operator"}, {"--as", "cli:somebody-else"}} {
			_, errOut, code := run(append([]string{"approve", p.ID}, as...)...)
			if code != 1 || !strings.Contains(errOut, "another account must approve it") {
				t.Errorf("approve %v: %d %q", as, code, errOut)
			}
		}
		if got, _ := s.Proposal(p.ID); got.Status != requests.StatusPending {
			t.Fatal("a refused approval decided the proposal")
		}
		out, errOut, code := run("approve", p.ID, "--self-approve")
		if code != 0 || !strings.Contains(errOut, "self-approval") {
			t.Fatalf("--self-approve: %d %q %q", code, out, errOut)
		}
		decided, _ := s.Proposal(p.ID)
		r, _ := s.Get(decided.RequestID)
		if !decided.SelfApproved || r == nil || !r.History[0].SelfApproved {
			t.Errorf("the self-approval is not recorded: %+v", decided)
		}
		entries, err := trust.OpenAudit(audit).Entries(trust.AuditFilter{})
		if err != nil || len(entries) != 1 || entries[0].Detail != "self-approved" {
			t.Errorf("audit: %+v %v", entries, err)
		}
	})
}
