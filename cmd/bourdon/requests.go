package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/requests"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// requestsDir is where a library keeps its requests.
func requestsDir(lib string) string { return filepath.Join(lib, "requests") }

// openRequests opens the request store of the library in dir, or, with
// url set (or dir a postgres:// URL), of that PostgreSQL store. The
// returned function closes it.
func openRequests(ctx context.Context, dir, url string) (*requests.Store, func(), error) {
	w, closeStore, err := openWriter(ctx, dir, url)
	if err != nil {
		return nil, nil, err
	}
	s, err := libraryRequests(dir, w.Store())
	if err != nil {
		closeStore()
		return nil, nil, err
	}
	return s, closeStore, nil
}

// libraryRequests opens the request store of the library in dir: among
// the documents of st when it is a PostgreSQL store (see
// libraryDocuments), else <dir>/requests.
func libraryRequests(dir string, st store.Store) (*requests.Store, error) {
	if _, ok := st.(*postgres.Store); ok {
		return requests.OpenDocuments(libraryDocuments(dir, st)), nil
	}
	return requests.Open(requestsDir(dir))
}

// defaultApprover names the person at the terminal by the account the
// process runs as (not $USER, which is anybody's to set).
func defaultApprover() string {
	if a, ok := requests.CurrentAccount(); ok && a.User != "" {
		return "cli:" + a.User
	}
	return "cli:operator"
}

// newRequestsCommand returns "bourdon requests": the operator's side of
// the propose-only request lifecycle.
func newRequestsCommand() *cobra.Command {
	var libraryDir, storeURL, approver, auditPath string
	var selfApprove bool
	cmd := &cobra.Command{
		Use:   "requests",
		Short: "The request lifecycle: list requests, review proposals, approve or reject them",
		Long: `Agents only propose: request_intake stages a draft request and advance_stage a
draft transition, under <library>/requests/proposals/. Nothing changes until an
operator approves (the approver is recorded in the request's history) or rejects.

Nobody approves their own proposal. A proposal made through the stdio server
(or the legacy shared token) is the operator's and records the account the
server ran as; it cannot be approved from that same account, whatever --as
says: approve it from another account, or, on a machine with one operator,
pass --self-approve, which is recorded in the request's history and the audit
log as a self-approval. --as only names the approver in the records.

  list                     accepted requests, by id
  show ID                  one request as YAML-like JSON, with its Definition of Done
  list-proposals           pending proposals
  approve PROPOSAL         accept a proposal (its gate is checked again)
  reject PROPOSAL REASON   refuse it, with the reason`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	auditDefault, _ := trust.DefaultAuditPath(os.Getenv)
	cmd.PersistentFlags().StringVar(&libraryDir, "library", library.DefaultPath(), "library directory")
	cmd.PersistentFlags().StringVar(&storeURL, "store", "", "the requests and proposals of this PostgreSQL store (postgres://...), as bourdon serve --store keeps them, instead of <library>/requests")
	cmd.PersistentFlags().StringVar(&approver, "as", defaultApprover(), "the name recorded as approver in the history and the audit log (the account running the command is recorded too, and is what self-approval is judged by)")
	cmd.PersistentFlags().StringVar(&auditPath, "audit-log", auditDefault, "append-only log of every decision (BOURDON_AUDIT_PATH)")
	// withStore runs a subcommand on the library's request store; a
	// failure prints "error: ..." and exits 1.
	withStore := func(run func(cmd *cobra.Command, args []string, s *requests.Store) error) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, args []string) error {
			s, closeStore, err := openRequests(cmd.Context(), libraryDir, storeURL)
			if err == nil {
				err = run(cmd, args, s)
				closeStore()
			}
			if err != nil {
				return cliFail(cmd, err)
			}
			return nil
		}
	}
	auditDetail := func(op, namespace, detail string) {
		_ = trust.OpenAudit(auditPath).Record(trust.Entry{Agent: approver, Op: op, Namespace: namespace, Decision: trust.Allow, Detail: detail})
	}
	audit := func(op, namespace string) { auditDetail(op, namespace, "") }

	list := &cobra.Command{
		Use:   "list",
		Short: "List accepted requests",
		Args:  cobra.NoArgs,
		RunE: withStore(func(cmd *cobra.Command, _ []string, s *requests.Store) error {
			all, problems, err := s.All()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(all) == 0 {
				fmt.Fprintln(out, "no requests")
			}
			for _, r := range all {
				fmt.Fprintf(out, "%s  %-9s  %-18s  %s\n", r.ID, r.Stage, r.Owner, r.Title)
			}
			for _, p := range problems {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s\n", p.File, p.Message)
			}
			return nil
		}),
	}
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show one request and its Definition of Done",
		Args:  cobra.ExactArgs(1),
		RunE: withStore(func(cmd *cobra.Command, args []string, s *requests.Store) error {
			r, err := s.Get(args[0])
			if err != nil {
				return err
			}
			b, _ := json.MarshalIndent(map[string]any{"request": r, "dod": requests.DoD(r)}, "", "  ")
			fmt.Fprintln(cmd.OutOrStdout(), string(b))
			return nil
		}),
	}
	proposals := &cobra.Command{
		Use:     "list-proposals",
		Aliases: []string{"proposals"},
		Short:   "List pending proposals",
		Args:    cobra.NoArgs,
		RunE: withStore(func(cmd *cobra.Command, _ []string, s *requests.Store) error {
			ps, problems, err := s.Proposals(requests.ProposalFilter{Status: requests.StatusPending})
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if len(ps) == 0 {
				fmt.Fprintln(out, "no pending proposals")
			}
			for _, p := range ps {
				what := "intake: " + p.Intake.Title
				if p.Kind == requests.KindTransition {
					what = fmt.Sprintf("%s: %s -> %s", p.RequestID, p.From, p.To)
					if p.Reason != "" {
						what += " (" + p.Reason + ")"
					}
				}
				fmt.Fprintf(out, "%s  by %-20s  %s  %s\n", p.ID, p.Proposer, p.Created.Format("2006-01-02 15:04"), what)
				if p.TrackerURL != "" {
					fmt.Fprintf(out, "    tracker: %s\n", p.TrackerURL)
				}
			}
			for _, p := range problems {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s\n", p.File, p.Message)
			}
			return nil
		}),
	}
	approve := &cobra.Command{
		Use:   "approve PROPOSAL",
		Short: "Approve a proposal: create the request, or move it to the proposed stage",
		Args:  cobra.ExactArgs(1),
		RunE: withStore(func(cmd *cobra.Command, args []string, s *requests.Store) error {
			decide := s.Approve
			if selfApprove {
				decide = s.ApproveOwn
			}
			p, r, err := decide(cmd.Context(), args[0], approver)
			if err != nil {
				return err
			}
			if p.SelfApproved {
				auditDetail("approve_proposal", r.Area, "self-approved")
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s was proposed by this account (%s); its approval is recorded as a self-approval\n", p.ID, s.Account)
			} else {
				audit("approve_proposal", r.Area)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "approved %s: %s is now in %s\n", p.ID, r.ID, r.Stage)
			return nil
		}),
	}
	reject := &cobra.Command{
		Use:   "reject PROPOSAL REASON",
		Short: "Reject a proposal, with the reason",
		Args:  cobra.MinimumNArgs(2),
		RunE: withStore(func(cmd *cobra.Command, args []string, s *requests.Store) error {
			p, err := s.Reject(cmd.Context(), args[0], approver, strings.Join(args[1:], " "))
			if err != nil {
				return err
			}
			area := ""
			if p.Intake != nil {
				area = p.Intake.Area
			} else if r, err := s.Get(p.RequestID); err == nil {
				area = r.Area
			}
			audit("reject_proposal", area)
			fmt.Fprintf(cmd.OutOrStdout(), "rejected %s\n", p.ID)
			return nil
		}),
	}
	approve.Flags().BoolVar(&selfApprove, "self-approve", false, "approve a proposal this account made (the operator's own, through the stdio server), recorded as a self-approval")
	cmd.AddCommand(list, show, proposals, approve, reject)
	return cmd
}
