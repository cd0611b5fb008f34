package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export/runner"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

func newAuditCommand() *cobra.Command {
	var f trust.AuditFilter
	var path, since, url string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Show the audit log of access decisions, newest first",
		Long: `Show the entries of the audit log (default $` + trust.AuditEnv + ` or
~/.bourdon/audit.jsonl), one access decision per line, newest first: the
reference's table (ts, decision, agent, op, ns=namespace, detail), or with
--json the log's own JSON lines. At most --limit entries are shown (0 for no
limit; a note on stderr says when the limit cut the list short). The log is
read backwards from its end, so the time taken follows the entries shown, not
the size of the log. With --store, the entries are those every replica of a
PostgreSQL store wrote, in time order (see docs/deploy.md).

--since takes a date (midnight UTC) or an RFC 3339 time (a time without a
zone is UTC).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if f.Limit < 0 {
				return fmt.Errorf("--limit %d: use a number of entries, or 0 for all", f.Limit)
			}
			if since != "" {
				t, err := runner.ParseSince(since)
				if err != nil {
					return err
				}
				f.Since = t
			}
			if path != "" && url != "" {
				return fmt.Errorf("--audit-log and --store name two logs: give one")
			}
			if path == "" && url == "" {
				var err error
				if path, err = trust.DefaultAuditPath(os.Getenv); err != nil {
					return err
				}
			}
			audit, closeAudit, err := openAudit(cmd.Context(), path, url)
			if err != nil {
				return err
			}
			defer closeAudit()
			out := bufio.NewWriter(cmd.OutOrStdout())
			n := 0
			full, err := audit.Recent(f, func(e trust.Entry) bool {
				n++
				if asJSON {
					out.Write(e.Line())
					out.WriteByte('\n')
				} else {
					out.WriteString(e.TableRow())
					out.WriteByte('\n')
				}
				return true
			})
			if n == 0 && err == nil && !asJSON {
				fmt.Fprintln(out, "no audit entries match")
			}
			if ferr := out.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return err
			}
			if full {
				fmt.Fprintf(cmd.ErrOrStderr(), "audit: showing the %d most recent matching entries; older ones may exist (--limit N, or --limit 0 for all)\n", n)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.Agent, "agent", "", "only this caller's entries")
	cmd.Flags().StringVar(&since, "since", "", "only entries at or after this date or time")
	cmd.Flags().BoolVar(&f.DenialsOnly, "denied", false, "only denied calls")
	cmd.Flags().BoolVar(&f.DenialsOnly, "denials", false, "the reference's spelling of --denied")
	cmd.Flags().IntVar(&f.Limit, "limit", 50, "most entries shown; 0 for no limit")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the entries as JSON lines, the log's own format")
	cmd.Flags().BoolVar(&asJSON, "export", false, "the reference's spelling of --json")
	cmd.Flags().StringVar(&path, "audit-log", "", "audit log to read (default $"+trust.AuditEnv+" or ~/.bourdon/audit.jsonl)")
	cmd.Flags().StringVar(&url, "store", "", "read the audit log of this PostgreSQL store (postgres://...) instead of a file")
	_ = cmd.Flags().MarkHidden("denials")
	_ = cmd.Flags().MarkHidden("export")
	return cmd
}
