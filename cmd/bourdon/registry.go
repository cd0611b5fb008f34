package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// newRegistryCommand returns "bourdon registry", the management of the
// federation's member identities. The reference spells the same commands
// "bourdon agent add|list|rotate|set-tier" and "bourdon grant|ungrant|revoke"
// (newReferenceRegistryCommands); both spellings run the same code.
// Outputs are the reference's; a failure prints "error: ..." on stderr and
// exits 1.
func newRegistryCommand() *cobra.Command {
	r := registryCLI{path: new(string), url: new(string)}
	cmd := &cobra.Command{
		Use:   "registry",
		Short: "Manage federation members: tokens, trust tiers and grants",
		Long: `Manage the federation registry (default $` + trust.RegistryEnv + ` or
~/.bourdon/federation.yaml): the members that may call the HTTP transport,
each with a bearer token, a trust tier (trusted or quarantined) and, for
quarantined members, the namespaces (agent ids) it may read. Tokens are shown
once and stored only as a SHA-256 hash. With --store postgres://... the
registry is that database's, the one every serve --store replica reads; a
change is seen by each on its next request. The reference's spellings work too:
bourdon agent add|list|rotate|set-tier, bourdon grant|ungrant|revoke.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	r.flag(cmd.PersistentFlags())
	cmd.AddCommand(r.add(), r.list(), r.rotate(), r.revoke(), r.setTier(), r.setLimit(), r.grant(), r.ungrant(), r.setSubject())
	return cmd
}

// newReferenceRegistryCommands returns the reference's spellings of the
// registry commands: the group "agent" (add, list, rotate, set-tier) and
// the top-level grant, ungrant and revoke.
func newReferenceRegistryCommands() []*cobra.Command {
	r := registryCLI{path: new(string), url: new(string)}
	agent := &cobra.Command{
		Use:   "agent",
		Short: "Register, list, rotate and re-tier federation members (the reference's spelling of bourdon registry)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_ = cmd.Help()
			return exitError{1} // the reference: a group without its subcommand exits 1
		},
	}
	r.flag(agent.PersistentFlags())
	agent.AddCommand(r.add(), r.list(), r.rotate(), r.setTier())
	out := []*cobra.Command{agent}
	for _, c := range []*cobra.Command{r.grant(), r.ungrant(), r.revoke()} {
		r.flag(c.Flags())
		out = append(out, c)
	}
	return out
}

// registryCLI builds the registry commands over the registry file *path
// ("" for the default), or the registry of the PostgreSQL store *url.
type registryCLI struct{ path, url *string }

// flag defines --registry and --store on a command's flag set.
func (r registryCLI) flag(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(r.path, "registry", "", "registry file (default $"+trust.RegistryEnv+" or ~/.bourdon/federation.yaml)")
	fs.StringVar(r.url, "store", "", registryStoreHelp)
}

// registryStoreHelp describes --store on the commands that read or change
// the registry.
const registryStoreHelp = "the registry (and OAuth state) of this PostgreSQL store (postgres://...), which serve --store reads, instead of the file; see docs/deploy.md"

// run opens the registry and runs fn, turning its error into "error: ..."
// and exit status 1.
func (r registryCLI) run(cmd *cobra.Command, fn func(reg *trust.Registry, out io.Writer) error) error {
	p := *r.path
	if p != "" && *r.url != "" {
		return registryFail(cmd, errors.New("--registry names a file, --store a database: give one of them"))
	}
	if p == "" && *r.url == "" {
		var err error
		if p, err = trust.DefaultRegistryPath(os.Getenv); err != nil {
			return registryFail(cmd, err)
		}
	}
	place, closePlace, err := openTrustPlace(cmd.Context(), p, *r.url)
	if err != nil {
		return registryFail(cmd, err)
	}
	defer closePlace()
	if err := fn(place.registry(), cmd.OutOrStdout()); err != nil {
		return registryFail(cmd, err)
	}
	return nil
}

func (r registryCLI) add() *cobra.Command {
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
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				token, err := reg.Add(id, tier, grants)
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
	return add
}

func (r registryCLI) list() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List members (never token material)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				members, err := reg.List()
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
}

func (r registryCLI) rotate() *cobra.Command {
	return &cobra.Command{
		Use:   "rotate ID",
		Short: "Give a member a new token (shown once); the old one stops working",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				token, err := reg.Rotate(args[0])
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "rotated %s\ntoken: %s\n", args[0], token)
				fmt.Fprintln(cmd.ErrOrStderr(), "This token is shown ONCE. The previous token no longer authenticates.")
				return nil
			})
		},
	}
}

func (r registryCLI) revoke() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Invalidate a member's token, effective on its next request",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.Revoke(args[0]); err != nil {
					return err
				}
				fmt.Fprintf(out, "revoked %s: token invalidated, federation access cut. Its audit history remains queryable (`bourdon audit --agent %s`).\n", args[0], args[0])
				return nil
			})
		},
	}
}

func (r registryCLI) setTier() *cobra.Command {
	var ack bool
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
			if tier == trust.TierTrusted && trust.QuarantinedClass(id) && !ack {
				return registryRefuse(cmd, fmt.Sprintf("refusing: %s is a quarantined-class agent. Re-run with --i-understand-the-risk to override.", pyfmt.Quote(id)))
			}
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.SetTier(id, tier); err != nil {
					return err
				}
				fmt.Fprintf(out, "%s -> tier: %s\n", id, tier)
				return nil
			})
		},
	}
	setTier.Flags().BoolVar(&ack, "i-understand-the-risk", false, "allow promoting a quarantined-class agent (openclaw) to trusted")
	return setTier
}

// setLimit is "bourdon registry set-limit": a member's own rate limit
// over HTTP, instead of serve's --rate-limit and --rate-burst.
func (r registryCLI) setLimit() *cobra.Command {
	var burst int
	cmd := &cobra.Command{
		Use:   "set-limit ID RATE",
		Short: "Set a member's rate limit on tool calls and resource reads (N/s, N/m, N/h, off, or default)",
		Long: `Set a member's own rate limit over HTTP: RATE is N/s, N/m or N/h (such as
120/m), off for no limit, or default for serve's --rate-limit. --burst sets how
many calls may come at once (0: serve's --rate-burst). Limits are counted in
each server process, so each replica allows the rate.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := trust.RateOverride{Burst: burst}
			rate, burstText := "default", "default"
			if args[1] != "default" {
				perSecond, err := trust.ParseRate(args[1])
				if err != nil {
					return registryFail(cmd, err)
				}
				o.PerSecond, rate = &perSecond, trust.FormatRate(perSecond)
			}
			if burst > 0 {
				burstText = strconv.Itoa(burst)
			}
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.SetRateLimit(args[0], o); err != nil {
					return err
				}
				fmt.Fprintf(out, "%s -> rate limit: %s, burst: %s\n", args[0], rate, burstText)
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&burst, "burst", 0, "calls allowed at once (0: serve's --rate-burst)")
	return cmd
}

func (r registryCLI) setSubject() *cobra.Command {
	return &cobra.Command{
		Use:   "set-subject ID SUBJECT",
		Short: "Let an external identity provider's tokens for SUBJECT (their sub claim) act as member ID; \"\" removes it",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.SetSubject(args[0], args[1]); err != nil {
					return err
				}
				if args[1] == "" {
					fmt.Fprintf(out, "%s: no OAuth subject\n", args[0])
				} else {
					fmt.Fprintf(out, "%s: OAuth subject %s (tokens of serve --oauth-issuer)\n", args[0], pyfmt.Quote(args[1]))
				}
				return nil
			})
		},
	}
}

func (r registryCLI) grant() *cobra.Command {
	return &cobra.Command{
		Use:   "grant ID NAMESPACE",
		Short: "Let a quarantined member read one namespace (agent id)",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.Grant(args[0], args[1]); err != nil {
					return err
				}
				fmt.Fprintf(out, "granted %s read access to namespace %s\n", args[0], pyfmt.Quote(args[1]))
				return nil
			})
		},
	}
}

func (r registryCLI) ungrant() *cobra.Command {
	return &cobra.Command{
		Use:   "ungrant ID NAMESPACE",
		Short: "Remove a namespace from a member's grants",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return r.run(cmd, func(reg *trust.Registry, out io.Writer) error {
				if err := reg.Ungrant(args[0], args[1]); err != nil {
					return err
				}
				fmt.Fprintf(out, "removed %s grant on namespace %s\n", args[0], pyfmt.Quote(args[1]))
				return nil
			})
		},
	}
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
