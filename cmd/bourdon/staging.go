package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// operatorProvenance is who the operator's CLI writes as.
func operatorProvenance() commit.Provenance {
	return commit.Provenance{Caller: trust.OperatorID, CallerTier: trust.TierOperator.String()}
}

// newStagingCommand returns "bourdon staging", the review of quarantined
// members' writes (<library>/staging/<caller>/<agent>.l5.yaml). Outputs
// are the reference's where it has them; a failure prints "error: ..." on
// stderr and exits 1.
func newStagingCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "staging",
		Short: "Review quarantined members' staged writes: list, diff, promote, reject",
		Long: `Quarantined federation members never write the live library: their
commit_to_federation calls are staged under <library>/staging/<caller>/ and
stay invisible to every read until an operator promotes them.

  list             every staged write, with its counts and age
  diff AGENT       what promoting AGENT's staged writes would add and update
  promote AGENT    merge them into agents/AGENT.l5.yaml (recorded in its history)
  reject AGENT     delete them`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	writer := writerFlags(cmd)

	list := &cobra.Command{
		Use:   "list",
		Short: "List staged writes",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			staged, err := writer().ListStaged()
			if err != nil {
				return cliFail(cmd, err)
			}
			out := cmd.OutOrStdout()
			if len(staged) == 0 {
				fmt.Fprintln(out, "no staged writes")
				return nil
			}
			for _, s := range staged {
				fmt.Fprintf(out, "%-30s via %-20s %3d entities %3d sessions  staged %.1fd ago\n",
					s.AgentID, s.Caller, s.Entities, s.Sessions, s.Age().Hours()/24)
				if s.Problem != "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s\n", s.Problem)
				}
			}
			return nil
		},
	}

	diff := &cobra.Command{
		Use:   "diff AGENT",
		Short: "Show what promoting an agent's staged writes would add and update",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			diffs, err := writer().DiffStaged(args[0])
			if err != nil {
				return cliFail(cmd, err)
			}
			for _, d := range diffs {
				printStagedDiff(cmd.OutOrStdout(), d)
			}
			return nil
		},
	}

	promote := &cobra.Command{
		Use:   "promote AGENT",
		Short: "Merge an agent's staged writes into the live library",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			prs, err := writer().Promote(cmd.Context(), id, operatorProvenance())
			for _, p := range prs {
				if p.Err == nil {
					fmt.Fprintf(cmd.OutOrStdout(), "promoted %s: %s\n", id, promotionCounts(p.Result))
				}
			}
			var pe *commit.PromoteError
			if errors.As(err, &pe) {
				for _, f := range pe.Failed {
					fmt.Fprintf(cmd.ErrOrStderr(), "error: %s (staged by %s) was not promoted and stays staged: %v\n", f.Path, f.Caller, f.Err)
				}
				return exitError{1}
			}
			if err != nil {
				return cliFail(cmd, err)
			}
			return nil
		},
	}

	reject := &cobra.Command{
		Use:   "reject AGENT",
		Short: "Delete an agent's staged writes",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := writer().Reject(cmd.Context(), args[0])
			if err != nil {
				return cliFail(cmd, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rejected %d staged write(s) for %s\n", n, args[0])
			return nil
		},
	}

	cmd.AddCommand(list, diff, promote, reject)
	return cmd
}

// promotionCounts is the reference's summary of one promotion, with workstreams
// and notes added when there are any.
func promotionCounts(r commit.Result) string {
	s := fmt.Sprintf("+%d entities (~%d updated), +%d sessions (~%d updated)", r.EntitiesAdded, r.EntitiesUpdated, r.SessionsAdded, r.SessionsUpdated)
	if r.WorkstreamsAdded != nil && *r.WorkstreamsAdded+*r.WorkstreamsUpdated > 0 {
		s += fmt.Sprintf(", +%d workstreams (~%d updated)", *r.WorkstreamsAdded, *r.WorkstreamsUpdated)
	}
	if r.NotesAdded != nil && *r.NotesAdded+*r.NotesUpdated > 0 {
		s += fmt.Sprintf(", +%d notes (~%d updated)", *r.NotesAdded, *r.NotesUpdated)
	}
	return s
}

// printStagedDiff prints what promoting one staged file would do:
//
//	staging/openclaw/openclaw.l5.yaml (via openclaw): +1 entities (~1 updated), +0 sessions (~0 updated)
//	  + entity payments api
//	  ~ entity ledger
func printStagedDiff(out io.Writer, d commit.StagedDiff) {
	fmt.Fprintf(out, "%s (via %s): ", d.Path, d.Caller)
	switch {
	case d.Err != "":
		fmt.Fprintf(out, "cannot be promoted: %s\n", d.Err)
		return
	case d.Result.NoOp:
		fmt.Fprintf(out, "%s; changes nothing\n", promotionCounts(d.Result))
	default:
		fmt.Fprintln(out, promotionCounts(d.Result))
	}
	for _, kind := range []struct{ key, name string }{
		{"known_entities", "entity"}, {"recent_sessions", "session"}, {"known_workstreams", "workstream"}, {"notes", "note"},
	} {
		for _, k := range d.Changes[kind.key+"_added"] {
			fmt.Fprintf(out, "  + %s %s\n", kind.name, diffLine(k))
		}
		for _, k := range d.Changes[kind.key+"_updated"] {
			fmt.Fprintf(out, "  ~ %s %s\n", kind.name, diffLine(k))
		}
	}
}

// diffLine keeps a row key on one line of output.
func diffLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cliFail prints "error: <err>" on stderr and returns exit status 1.
func cliFail(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "error: %v\n", err)
	return exitError{1}
}
