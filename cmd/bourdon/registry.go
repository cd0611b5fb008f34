package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// newRegistryCommand returns "bourdon registry", the management of the
// federation's member identities (the reference's "bourdon agent",
// "bourdon grant", "bourdon ungrant" and "bourdon revoke"). Outputs are
// the reference's; a failure prints "error: ..." on stderr and exits 1.
func newRegistryCommand() *cobra.Command {
	var path string
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "Manage federation members: tokens, trust tiers and grants",
		Long: `Manage the federation registry (default $` + trust.RegistryEnv + ` or
~/.bourdon/federation.yaml): the members that may call the HTTP transport,
each with a bearer token, a trust tier (trusted or quarantined) and, for
quarantined members, the namespaces (agent ids) it may read. Tokens are shown
once and stored only as a SHA-256 hash.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringVar(&path, "registry", "", "registry file (default $"+trust.RegistryEnv+" or ~/.bourdon/federation.yaml)")

	// run opens the registry and runs fn, turning its error into
	// "error: ..." and exit status 1.
	run := func(cmd *cobra.Command, fn func(r *trust.Registry, out io.Writer) error) error {
		p := path
		if p == "" {
			var err error
			if p, err = trust.DefaultRegistryPath(); err != nil {
				return registryFail(cmd, err)
			}
		}
		if err := fn(trust.OpenRegistry(p), cmd.OutOrStdout()); err != nil {
			return registryFail(cmd, err)
		}
		return nil
	}

	var tierName string
	var grants []string
	var ack bool
	add := &cobra.Command{
		Use:   "add ID",
		Short: "Register a member and print its token (shown once)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			tier, err := trust.ParseTier(tierName)
			if err != nil {
				return registryFail(cmd, err)
			}
			if tier == trust.TierTrusted && trust.QuarantinedClass(id) && !ack {
				return registryRefuse(cmd, fmt.Sprintf("refusing: %s is a quarantined-class agent. Registering it as trusted exposes the full federation to it. Re-run with --i-understand-the-risk to override.", pyfmt.Quote(id)))
			}
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				token, err := r.Add(id, tier, grants)
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "registered %s (tier: %s)\ntoken: %s\n", id, tier, token)
				fmt.Fprintln(cmd.ErrOrStderr(), "This token is shown ONCE and stored only as a hash. Pass it as `Authorization: Bearer <token>` on the HTTP transport.")
				return nil
			})
		},
	}
	add.Flags().StringVar(&tierName, "tier", "quarantined", "trust tier: trusted or quarantined")
	add.Flags().StringArrayVar(&grants, "grant", nil, "namespace (agent id) the member may read when quarantined; repeatable")
	add.Flags().BoolVar(&ack, "i-understand-the-risk", false, "allow registering a quarantined-class agent (openclaw) as trusted")

	list := &cobra.Command{
		Use:   "list",
		Short: "List members (never token material)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				members, err := r.List()
				if err != nil {
					return err
				}
				if len(members) == 0 {
					fmt.Fprintln(out, "no federation members registered (see `bourdon registry add`)")
					return nil
				}
				for _, m := range members {
					status := m.TierName
					switch {
					case m.Revoked:
						status = "REVOKED"
					case status == "":
						status = "?"
					}
					g := strings.Join(m.Grants, ", ")
					if g == "" {
						g = "-"
					}
					fmt.Fprintf(out, "%-30s %-12s grants: %s\n", m.ID, status, g)
					if m.Problem != "" {
						fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s\n", m.ID, m.Problem)
					}
				}
				return nil
			})
		},
	}

	rotate := &cobra.Command{
		Use:   "rotate ID",
		Short: "Give a member a new token (shown once); the old one stops working",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				token, err := r.Rotate(args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "rotated %s\ntoken: %s\n", args[0], token)
				fmt.Fprintln(cmd.ErrOrStderr(), "This token is shown ONCE. The previous token no longer authenticates.")
				return nil
			})
		},
	}

	revoke := &cobra.Command{
		Use:   "revoke ID",
		Short: "Invalidate a member's token, effective on its next request",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				if err := r.Revoke(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(out, "revoked %s: token invalidated, federation access cut. Its audit history remains queryable (`bourdon audit --agent %s`).\n", args[0], args[0])
				return nil
			})
		},
	}

	var tierAck bool
	setTier := &cobra.Command{
		Use:   "set-tier ID TIER",
		Short: "Change a member's trust tier (trusted or quarantined)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			tier, err := trust.ParseTier(args[1])
			if err != nil {
				return registryFail(cmd, err)
			}
			if tier == trust.TierTrusted && trust.QuarantinedClass(id) && !tierAck {
				return registryRefuse(cmd, fmt.Sprintf("refusing: %s is a quarantined-class agent. Re-run with --i-understand-the-risk to override.", pyfmt.Quote(id)))
			}
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				if err := r.SetTier(id, tier); err != nil {
					return err
				}
				fmt.Fprintf(out, "%s -> tier: %s\n", id, tier)
				return nil
			})
		},
	}
	setTier.Flags().BoolVar(&tierAck, "i-understand-the-risk", false, "allow promoting a quarantined-class agent (openclaw) to trusted")

	grant := &cobra.Command{
		Use:   "grant ID NAMESPACE",
		Short: "Let a quarantined member read one namespace (agent id)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				if err := r.Grant(args[0], args[1]); err != nil {
					return err
				}
				fmt.Fprintf(out, "granted %s read access to namespace %s\n", args[0], pyfmt.Quote(args[1]))
				return nil
			})
		},
	}

	ungrant := &cobra.Command{
		Use:   "ungrant ID NAMESPACE",
		Short: "Remove a namespace from a member's grants",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, func(r *trust.Registry, out io.Writer) error {
				if err := r.Ungrant(args[0], args[1]); err != nil {
					return err
				}
				fmt.Fprintf(out, "removed %s grant on namespace %s\n", args[0], pyfmt.Quote(args[1]))
				return nil
			})
		},
	}

	cmd.AddCommand(add, list, rotate, revoke, setTier, grant, ungrant)
	return cmd
}

// registryFail prints "error: <err>" on stderr and returns exit status 1.
func registryFail(cmd *cobra.Command, err error) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "error: %v\n", err)
	return exitError{1}
}

// registryRefuse prints msg on stderr and returns exit status 1.
func registryRefuse(cmd *cobra.Command, msg string) error {
	fmt.Fprintln(cmd.ErrOrStderr(), msg)
	return exitError{1}
}
