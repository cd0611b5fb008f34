// Command bourdon serves a Bourdon federation library over the Model
// Context Protocol. Run "bourdon serve --demo" for a first look and
// "bourdon help" for every command.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/spf13/cobra"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

func buildVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// exitError carries a process exit status out of a command.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := newRootCommand()
	err := root.ExecuteContext(ctx)
	var ee exitError
	switch {
	case errors.As(err, &ee):
		os.Exit(ee.code)
	case err != nil:
		fmt.Fprintln(os.Stderr, "bourdon:", err)
		os.Exit(1)
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "bourdon",
		Short:         "Serve a federation of coding agents' memory over MCP",
		Long:          "bourdon serves a Bourdon federation library (per-agent L5 manifests in <library>/agents/*.l5.yaml) to any MCP client.",
		Version:       buildVersion(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newServeCommand(), newUICommand(), newValidateCommand(), newRegistryCommand(), newStagingCommand(), newHistoryCommand(), newDocsCommand(), newRequestsCommand(), newStoreCommand())
	root.AddCommand(newConformanceCommand(), newOAuthCommand())
	root.AddCommand(newExportAllCommand(systemExportDeps()), newSetupCommand(), newDoctorCommand())
	root.AddCommand(newPrepareTurnCommand(), newDeeperContextCommand(), newAgentsCommand(), newAuditCommand())
	root.AddCommand(newReferenceRegistryCommands()...)
	addAgentCommands(root, systemExportDeps())
	addCursorCompileTurn(root)
	return root
}
