package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/registry"
	"github.com/getbourdon/bourdon-go/internal/install/setup"
)

func newSetupCommand() *cobra.Command {
	var (
		o       setup.Options
		undo    bool
		jsonOut bool
	)
	cmd := &cobra.Command{
		Use:   "setup",
		Short: "Wire bourdon into the coding agents on this machine, then run the first export",
		Long: `Detect the coding agents installed on this machine and wire bourdon into them:
the MCP server entry in Claude Code (~/.claude.json), Codex
(~/.codex/config.toml), Cursor (~/.cursor/mcp.json) and Claude Desktop
(claude_desktop_config.json), each running this binary with
"serve --library DIR", and Claude Code's SessionEnd hook, which runs
"export-all --library DIR" after every session. Then run the first export.

Every change is shown as a diff first and made only after you agree (--yes
agrees for scripts; without a terminal and without --yes nothing is
written). Files are edited in place, never rewritten: your settings,
comments and layout stay as they are, and a file that does not parse is
left alone and reported. Each file is backed up under ~/.bourdon/setup/
first; --undo takes the newest run back. Running setup again once
everything is wired changes nothing. See docs/setup.md.`,
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
			if strings.Contains(filepath.ToSlash(bin), "/go-build") && !o.DryRun && !undo {
				return fmt.Errorf("this bourdon runs from a temporary build (%s), which setup would wire into your clients; install it first (go install github.com/getbourdon/bourdon-go/cmd/bourdon@latest, or go build -o ~/bin/bourdon ./cmd/bourdon) and run that binary's setup", bin)
			}
			out := cmd.OutOrStdout()
			if jsonOut {
				out = cmd.ErrOrStderr()
			}
			o.Env, o.Binary, o.Out = env, bin, out
			o.Exporters = registry.All()
			if isTerminal(cmd.InOrStdin()) {
				o.Confirm = askYesNo(cmd.InOrStdin(), out)
			}
			o.Export = exportRunner(bin, out, cmd.ErrOrStderr())
			var rep *setup.Report
			if undo {
				rep, err = setup.Undo(cmd.Context(), o)
			} else {
				rep, err = setup.Run(cmd.Context(), o)
			}
			if jsonOut && rep != nil {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				if jerr := enc.Encode(rep); jerr != nil && err == nil {
					err = jerr
				}
			}
			switch {
			case errors.Is(err, setup.ErrNeedsConfirmation), errors.Is(err, setup.ErrDeclined):
				fmt.Fprintln(cmd.ErrOrStderr(), "setup:", err)
				return exitError{1}
			case err != nil:
				return err
			case rep.Failed():
				return exitError{1}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Library, "library", "", "library directory the clients serve and the export fills (default ~/agent-library)")
	f.BoolVar(&o.Yes, "yes", false, "apply the changes without asking (for scripts)")
	f.BoolVar(&o.DryRun, "dry-run", false, "show what would change; write nothing, run nothing")
	f.BoolVar(&undo, "undo", false, "take back the newest setup run: restore the files it changed, remove those it created")
	f.BoolVar(&jsonOut, "json", false, "print a JSON report on stdout (the account of the run goes to stderr)")
	f.BoolVar(&o.PrepareTurnHook, "prepare-turn-hook", false, "also add a Claude Code UserPromptSubmit hook running prepare-turn (adds latency to every prompt)")
	f.BoolVar(&o.NoHooks, "no-hooks", false, "wire the MCP entries only, no Claude Code hooks")
	f.BoolVar(&o.NoExport, "no-export", false, "do not run the first export")
	return cmd
}

// executable is the absolute path of this binary, the command setup
// wires.
func executable() (string, error) {
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this executable's path: %w", err)
	}
	return filepath.Abs(bin)
}

// askYesNo asks a [y/N] question; anything but y or yes, and the end of
// input, is no.
func askYesNo(in io.Reader, out io.Writer) func(string) (bool, error) {
	r := bufio.NewReader(in)
	return func(q string) (bool, error) {
		fmt.Fprintf(out, "%s [y/N] ", q)
		line, err := r.ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return false, err
		}
		if !strings.HasSuffix(line, "\n") {
			fmt.Fprintln(out)
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return true, nil
		}
		return false, nil
	}
}

// exportRunner runs "<bin> export-all --library <lib>" as a child process
// whose output is the user's.
func exportRunner(bin string, stdout, stderr io.Writer) func(context.Context, string) error {
	return func(ctx context.Context, lib string) error {
		c := exec.CommandContext(ctx, bin, "export-all", "--library", lib)
		c.Stdout, c.Stderr = stdout, stderr
		return c.Run()
	}
}
