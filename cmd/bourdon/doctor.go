package main

import (
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/registry"
	"github.com/getbourdon/bourdon-go/internal/install/doctor"
)

func newDoctorCommand() *cobra.Command {
	var (
		o       doctor.Options
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check the library, the agents' stores, the wiring, the registry, peers and the audit log",
		Long: `Check this machine's bourdon installation, one line per check: OK, WARN or
FAIL (SKIP when a check does not apply), with what to do about it.

  library, manifest  the library is readable; every manifest parses and follows
                     the L5 schema (file and line of each bad one)
  agent, export      each installed agent's store, and how fresh its export is
  client, hook       the MCP entries and hooks bourdon setup wires
  registry, member   the federation registry: auth posture, tiers, grants,
                     revoked tokens, file permissions (--store: the database's)
  staging            staged writes awaiting review (stale after 7 days)
  peer               each peer in ~/.bourdon/peers.yaml answers (skipped
                     without one)
  audit              the audit log can be appended to (nothing is written)

With --store postgres://... the library is that PostgreSQL store (see
docs/deploy.md): instead of the directory, doctor checks that the database
answers (store), that its schema is this bourdon's, with no migration pending
and none newer (schema), what it offers for vectors (vectors: pgvector is
detected, never required, and not used), then the manifests and staged writes
in it, its registry and its audit log. The URL is shown without its password.

--json prints the same as {"schema": "bourdon.doctor/v1", "library", "checks":
[{check, subject, status, message, fix, file, line, details}], "summary":
{ok, warn, fail, skip}} (see docs/setup.md). The exit status is 1 when a
check fails, else 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			env, err := export.SystemEnv()
			if err != nil {
				return err
			}
			bin, err := executable()
			if err != nil {
				return err
			}
			o.Env, o.Binary, o.Version = env, bin, buildVersion()
			o.Exporters = registry.All()
			rep := doctor.Run(cmd.Context(), o)
			if jsonOut {
				if err := rep.WriteJSON(cmd.OutOrStdout()); err != nil {
					return err
				}
			} else {
				rep.WriteText(cmd.OutOrStdout())
			}
			if rep.Failed() {
				return exitError{1}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&o.Library, "library", "", "library directory to check (default ~/agent-library)")
	cmd.Flags().StringVar(&o.Store, "store", "", "check this PostgreSQL store (postgres://...), its registry and audit log, instead of the library directory and the files")
	cmd.Flags().BoolVar(&jsonOut, "json", false, "print the report as JSON")
	cmd.Flags().DurationVar(&o.PeerTimeout, "peer-timeout", 3*time.Second, "how long each peer may take to answer")
	return cmd
}
