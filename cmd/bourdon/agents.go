package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/pyfmt"
	"github.com/getbourdon/bourdon-go/internal/trust/redact"
)

// trayTextLimit is the length the tray's text fields are cut to (the
// reference's native-memory battery default).
const trayTextLimit = 180

func newAgentsCommand() *cobra.Command {
	var libraryDir, agentsDir string
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
2. --json is accepted for compatibility: JSON is the only format.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir := agentsDir
			if dir == "" {
				dir = filepath.Join(libraryDir, "agents")
			}
			env, err := federation.ExportAgentsDir(filepath.Clean(dir), federation.LocalName(os.Getenv(federation.LocalNameEnv)), func(s string) string {
				return export.NativeText(s, trayTextLimit)
			})
			if errors.Is(err, federation.ErrNoAgentsDir) {
				fmt.Fprintf(cmd.ErrOrStderr(), "agents: agent-library directory not found: %s\n", filepath.Clean(dir))
				return exitError{2}
			}
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "agents: cannot read agent-library directory %s: %v\n", filepath.Clean(dir), err)
				return exitError{2}
			}
			b, err := pyfmt.JSON(env)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(redact.JSON(b))
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (the only format; accepted for the tray)")
	cmd.Flags().StringVar(&libraryDir, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	cmd.Flags().StringVar(&agentsDir, "agents-dir", "", "agents directory to read instead of <library>/agents")
	return cmd
}
