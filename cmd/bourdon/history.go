package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
)

// newHistoryCommand returns "bourdon history", the operator's view of the
// version history every write keeps (<library>/history/<agent>/): the CLI
// equivalents of the list_memory_versions, explain_memory_change and
// rollback_agent_memory tools. A rollback is recorded with caller
// "operator", tier operator. A failure prints "error: ..." on stderr and
// exits 1.
func newHistoryCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "history",
		Short: "List, explain and roll back versions of an agent's memory",
		Long: `Every write to an agent's manifest archives the state it replaced and records
who made the change (caller, session, transcript) in <library>/history/<agent>/.

  list AGENT                  archived versions, newest first
  explain AGENT DIGEST        which write produced a state (full digest or digest8)
  rollback AGENT VERSION_ID   restore a version; the current state is archived first,
                              so a rollback can itself be rolled back`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	writer := writerFlags(cmd)

	var limit int
	list := &cobra.Command{
		Use:   "list AGENT",
		Short: "List the archived versions of an agent's memory, newest first",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			w := writer()
			versions, err := w.Versions(id, limit)
			if err != nil {
				return cliFail(cmd, err)
			}
			out := cmd.OutOrStdout()
			if cur, err := w.CurrentDigest(id); err == nil && cur != "" {
				fmt.Fprintf(out, "current  %s\n", cur[:8])
			}
			if len(versions) == 0 {
				fmt.Fprintf(out, "no archived versions of %s\n", id)
				return nil
			}
			for _, v := range versions {
				fmt.Fprintf(out, "%s  %s  %s\n", v.VersionID, versionCounts(v), replacedBy(v.ReplacedBy))
			}
			return nil
		},
	}
	list.Flags().IntVar(&limit, "limit", 0, "show at most N versions (0: all)")

	explain := &cobra.Command{
		Use:   "explain AGENT DIGEST",
		Short: "Show which write produced a state of an agent's memory",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, digest := args[0], args[1]
			if !l5.ValidAgentID(id) {
				return cliFail(cmd, fmt.Errorf("invalid agent_id %s", pyfmt.Quote(id)))
			}
			ch, err := writer().Explain(id, digest)
			if err != nil {
				return cliFail(cmd, err)
			}
			if ch == nil {
				return cliFail(cmd, fmt.Errorf("no recorded write of %s produced digest %s", pyfmt.Quote(id), pyfmt.Quote(digest)))
			}
			printChange(cmd.OutOrStdout(), ch)
			return nil
		},
	}

	var expected string
	rollback := &cobra.Command{
		Use:   "rollback AGENT VERSION_ID",
		Short: "Restore an archived version of an agent's memory",
		Long: `Restore an archived version of an agent's memory, byte for byte. This discards
every contribution made after that version, by every writer. The current state
is archived first, so the rollback itself can be undone. Pass
--expected-digest (from "history list") to refuse the rollback if the memory
changed since you looked.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, version := args[0], args[1]
			var exp *string
			if cmd.Flags().Changed("expected-digest") {
				exp = &expected
			}
			ch, err := writer().Rollback(cmd.Context(), id, version, exp, operatorProvenance())
			if err != nil {
				return cliFail(cmd, err)
			}
			was := "nothing"
			if ch.PreviousDigest != "" {
				was = ch.PreviousDigest[:8]
			}
			fmt.Fprintf(cmd.OutOrStdout(), "rolled back %s to %s: now %s (was %s)\n", id, version, ch.Digest8, was)
			if ch.ArchivedVersion != "" {
				fmt.Fprintf(cmd.OutOrStdout(), "the replaced state is archived as %s; `bourdon history rollback %s %s` undoes this\n", ch.ArchivedVersion, id, ch.ArchivedVersion)
			}
			return nil
		},
	}
	rollback.Flags().StringVar(&expected, "expected-digest", "", "refuse unless the current digest (or digest8) is this")

	cmd.AddCommand(list, explain, rollback)
	return cmd
}

// versionCounts is "3 entities, 2 sessions", with workstreams and notes
// when there are any.
func versionCounts(v commit.Version) string {
	s := fmt.Sprintf("%d entities, %d sessions", v.Entities, v.Sessions)
	if v.Workstreams > 0 {
		s += fmt.Sprintf(", %d workstreams", v.Workstreams)
	}
	if v.Notes > 0 {
		s += fmt.Sprintf(", %d notes", v.Notes)
	}
	return s
}

// replacedBy says which write replaced a version.
func replacedBy(ch *commit.Change) string {
	if ch == nil {
		return "replaced by an unrecorded write"
	}
	s := fmt.Sprintf("replaced by %s at %s by %s", ch.Op, ch.Time, callerOf(ch))
	if ch.SessionID != "" {
		s += " (session " + ch.SessionID + ")"
	}
	return s
}

func callerOf(ch *commit.Change) string {
	c := ch.Caller
	if c == "" {
		c = "an unidentified caller"
	}
	if ch.CallerTier != "" {
		c += " [" + ch.CallerTier + "]"
	}
	return c
}

// printChange prints a provenance record, one field a line.
func printChange(out io.Writer, ch *commit.Change) {
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(out, "%-22s %s\n", k+":", v)
		}
	}
	op := ch.Op
	if ch.Mode != "" {
		op += " (" + ch.Mode + ")"
	}
	line("digest", ch.Digest)
	line("op", op)
	line("time", ch.Time)
	line("caller", callerOf(ch))
	line("staged by", ch.StagedBy)
	asserted := func(field, v string) string {
		if v != "" && slices.Contains(ch.CallerAsserted, field) {
			return v + " (asserted by the caller, not verified)"
		}
		return v
	}
	line("session", asserted("session_id", ch.SessionID))
	line("transcript", asserted("transcript_ref", ch.TranscriptRef))
	line("previous digest", ch.PreviousDigest)
	line("archived as", ch.ArchivedVersion)
	line("rolled back to", ch.RolledBackTo)
	keys := make([]string, 0, len(ch.Changes))
	for k := range ch.Changes {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		line(strings.ReplaceAll(k, "_", " "), strings.Join(ch.Changes[k], ", "))
	}
}
