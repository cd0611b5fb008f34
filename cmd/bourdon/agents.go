package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// trayTextLimit is the length the tray's text fields are cut to (the
// reference's native-memory battery default).
const trayTextLimit = 180

func newAgentsCommand() *cobra.Command {
	var libraryDir, agentsDir, storeURL string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "agents",
		Short: "Describe the library's agents as JSON (bourdon.agents/v1, the tray's input)",
		Long: `Print the bourdon.agents/v1 envelope the desktop tray reads: one entry per
manifest file of <library>/agents (type, role, counts, the ten most recent
public and team sessions), text scrubbed of credential-like strings, a file
that cannot be read listed with its parse_error, agents newest first by
last_updated. The JSON is written as the reference writes it (two-space
indentation, non-ASCII escaped). A missing agents directory exits with status
2. --json is accepted for compatibility: JSON is the only format.

--store postgres://... describes the manifests of that PostgreSQL store
instead (generated_from is its URL, without the password, and /agents); a
store that cannot be read exits with status 2.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			scrub := func(s string) string { return export.NativeText(s, trayTextLimit) }
			machine := federation.LocalName(os.Getenv(federation.LocalNameEnv))
			if storeURL != "" {
				env, err := storeAgents(cmd.Context(), storeURL, libraryDir, machine, scrub)
				if err != nil {
					fmt.Fprintf(cmd.ErrOrStderr(), "agents: %v\n", err)
					return exitError{2}
				}
				return writeAgents(cmd, env)
			}
			dir := agentsDir
			if dir == "" {
				dir = filepath.Join(libraryDir, "agents")
			}
			env, err := federation.ExportAgentsDir(filepath.Clean(dir), machine, scrub)
			if errors.Is(err, federation.ErrNoAgentsDir) {
				fmt.Fprintf(cmd.ErrOrStderr(), "agents: agent-library directory not found: %s\n", filepath.Clean(dir))
				return exitError{2}
			}
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "agents: cannot read agent-library directory %s: %v\n", filepath.Clean(dir), err)
				return exitError{2}
			}
			return writeAgents(cmd, env)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the only format; accepted for the tray)")
	cmd.Flags().StringVar(&libraryDir, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	cmd.Flags().StringVar(&agentsDir, "agents-dir", "", "agents directory to read instead of <library>/agents")
	cmd.Flags().StringVar(&storeURL, "store", "", "describe the manifests of this PostgreSQL store (postgres://...) instead of a directory")
	return cmd
}

// writeAgents prints the envelope as the reference writes it, scrubbed.
func writeAgents(cmd *cobra.Command, env federation.ExportEnvelope) error {
	b, err := pyfmt.JSON(env)
	if err != nil {
		return err
	}
	_, err = cmd.OutOrStdout().Write(redact.JSON(b))
	return err
}

// storeAgents describes the manifests of the PostgreSQL store at url (root
// is the library directory, which a store's library still names).
func storeAgents(ctx context.Context, url, root, machine string, scrub func(string) string) (federation.ExportEnvelope, error) {
	w, closeStore, err := openWriter(ctx, "", url)
	if err != nil {
		return federation.ExportEnvelope{}, err
	}
	defer closeStore()
	pg := w.Store().(*postgres.Store)
	lib, err := library.OpenStore(root, pg, 0, nil)
	if err != nil {
		return federation.ExportEnvelope{}, err
	}
	defer lib.Close()
	return federation.ExportAgentsSnapshot(lib.Snapshot(), postgres.Redact(url)+"/agents", machine, scrub), nil
}
