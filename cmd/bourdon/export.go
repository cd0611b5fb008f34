package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/export/registry"
	"github.com/getbourdon/bourdon-go/internal/export/runner"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// exportDeps is what the export commands take from the machine. Tests
// replace it to run the commands in-process against fake exporters, a
// fake home and a fixed clock.
type exportDeps struct {
	exporters  func() []export.Exporter
	env        func() (*export.Env, error)
	now        func() time.Time
	isTerminal func(stream any) bool
}

func systemExportDeps() exportDeps {
	return exportDeps{exporters: registry.All, env: export.SystemEnv, now: time.Now, isTerminal: isTerminal}
}

// newExportAllCommand returns "bourdon export-all".
func newExportAllCommand(deps exportDeps) *cobra.Command {
	var f struct {
		agent, since, access, libraryDir, reportOut, store string
		skip                                               []string
		dryRun, json                                       bool
	}
	cmd := &cobra.Command{
		Use:   "export-all",
		Short: "Read every installed agent's native store into the library",
		Long: `Read each coding agent's native store on this machine (Claude Code, Codex,
Cursor, ...) and write its manifest into <library>/agents/<agent>.l5.yaml
through the commit path: the per-agent lock, history and provenance (caller
exporter:<agent>), and no_op when nothing changed. An exporter replaces only
the rows it produces; rows committed over MCP are kept. Agents whose store is
absent are skipped and get no file. Every string is redacted with the
server's battery before anything is written.

--skip ID (repeatable) leaves an installed agent out, and so does the
library's .bourdon/export.yaml ("skip: [cursor, codex]"): an excluded agent
is reported skipped and nothing is written for it, its manifest stays as it
is.

--store postgres://... writes the manifests into that PostgreSQL store
instead (see docs/deploy.md); --library still holds the settings and the
incremental caches of this machine's exports.

One line per agent on stdout (a progress bar on stderr when it is a
terminal); --json prints a machine-readable summary instead. Exit status 1
when any agent failed, 0 otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			since, err := runner.ParseSince(f.since)
			if err != nil {
				return cliFail(cmd, err)
			}
			env, err := deps.env()
			if err != nil {
				return cliFail(cmd, err)
			}
			w, closeStore, err := exportWriter(cmd.Context(), f.store)
			if err != nil {
				return cliFail(cmd, err)
			}
			defer closeStore()
			opts := runner.Options{
				Library: f.libraryDir, Writer: w, Env: env, Exporters: deps.exporters(), Agent: f.agent, Skip: f.skip,
				Since: since, AccessLevel: f.access, DryRun: f.dryRun, Now: deps.now,
			}
			stdout, stderr := cmd.OutOrStdout(), cmd.ErrOrStderr()
			p := &progress{bar: deps.isTerminal(stderr), stderr: stderr}
			switch {
			case !f.json:
				p.lines = stdout
			case !p.bar:
				p.lines = stderr
			}
			opts.Progress = p.update
			results, err := runner.Run(cmd.Context(), opts)
			p.clear()
			if err != nil {
				return cliFail(cmd, err)
			}
			if f.json {
				enc := json.NewEncoder(stdout)
				enc.SetIndent("", "  ")
				if err := enc.Encode(runner.NewReport(opts, results)); err != nil {
					return cliFail(cmd, err)
				}
			} else {
				fmt.Fprintln(stdout, totals(results, f.dryRun))
			}
			if f.reportOut != "" {
				data, err := runner.ReferenceYAML(results)
				if err == nil {
					err = fsutil.WriteAtomic(f.reportOut, data, 0o644)
				}
				if err != nil {
					return cliFail(cmd, err)
				}
			}
			if runner.Failed(results) {
				return exitError{1}
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.agent, "agent", "", "export only this agent id")
	fl.StringSliceVar(&f.skip, "skip", nil, "leave out this agent id (repeatable; also <library>/"+runner.SettingsFile+")")
	fl.BoolVar(&f.dryRun, "dry-run", false, "write nothing (not even caches); show what would change")
	fl.BoolVar(&f.json, "json", false, "print a machine-readable summary on stdout")
	fl.StringVar(&f.since, "since", "", "keep only sessions since DATE (midnight UTC) or DATETIME")
	fl.StringVar(&f.access, "access-level", runner.DefaultAccessLevel, "drop rows above this level: public, team or private")
	fl.StringVar(&f.libraryDir, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	fl.StringVar(&f.store, "store", "", "write the manifests into this PostgreSQL store (postgres://...) instead of the library directory")
	fl.StringVar(&f.reportOut, "report-out", "", "also write the report, in the reference's YAML shape, to this file")
	return cmd
}

// progress shows a run: a bar on a terminal's stderr, redrawn as each
// agent starts, and one line per agent as it ends on lines (nil: none).
type progress struct {
	bar    bool
	stderr io.Writer
	lines  io.Writer
	drawn  bool
}

func (p *progress) update(ev runner.Progress) {
	if ev.Result != nil {
		p.clear()
		if p.lines != nil {
			for _, l := range resultLines(*ev.Result) {
				fmt.Fprintln(p.lines, l)
			}
		}
		return
	}
	if p.bar {
		const width = 24
		done := width * ev.Index / max(ev.Total, 1)
		fmt.Fprintf(p.stderr, "\r\x1b[K[%s%s] %d/%d %s", strings.Repeat("#", done), strings.Repeat(".", width-done), ev.Index+1, ev.Total, ev.Agent)
		p.drawn = true
	}
}

// clear erases the bar.
func (p *progress) clear() {
	if p.drawn {
		fmt.Fprint(p.stderr, "\r\x1b[K")
		p.drawn = false
	}
}

// maxWarningLines bounds the warnings shown per agent (--json has up to
// runner.MaxWarnings).
const maxWarningLines = 5

// resultLines renders one agent's result: its summary line, then its
// warnings, indented.
func resultLines(r runner.Result) []string {
	var detail string
	switch r.Status {
	case runner.StatusSkipped, runner.StatusError:
		detail = r.Reason
	default:
		detail = fmt.Sprintf("%d entities, %d sessions", r.Entities, r.Sessions)
		if c := r.Changes; c != nil && r.Status != runner.StatusNoOp {
			detail += fmt.Sprintf(" (entities +%d ~%d -%d, sessions +%d ~%d -%d)",
				c.EntitiesAdded, c.EntitiesUpdated, c.EntitiesRemoved, c.SessionsAdded, c.SessionsUpdated, c.SessionsRemoved)
		}
		if r.Filtered > 0 {
			detail += fmt.Sprintf(", %d above the access level", r.Filtered)
		}
		detail += "  " + r.Path
	}
	if r.DurationMS >= 100 {
		detail += fmt.Sprintf(" (%.1fs)", float64(r.DurationMS)/1000)
	}
	lines := []string{fmt.Sprintf("%-11s %-24s %s", r.Status, r.Agent, detail)}
	for i, w := range r.Warnings {
		if i == maxWarningLines {
			lines = append(lines, fmt.Sprintf("  ... and %d more warnings (--json lists them)", r.WarningsTotal-maxWarningLines))
			break
		}
		lines = append(lines, "  warning: "+w)
	}
	return lines
}

// totals is the last line of a run: how many agents got each status.
func totals(results []runner.Result, dryRun bool) string {
	order := []string{runner.StatusOK, runner.StatusWouldWrite, runner.StatusNoOp, runner.StatusSkipped, runner.StatusError}
	n := map[string]int{}
	for _, r := range results {
		n[r.Status]++
	}
	var parts []string
	for _, s := range order {
		if n[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[s], s))
		}
	}
	if len(parts) == 0 {
		parts = []string{"no agents"}
	}
	line := "export-all: " + strings.Join(parts, ", ")
	if dryRun {
		line += " (dry run: nothing written)"
	}
	return line
}

// addAgentCommands adds, for each exporter, the hook command "bourdon
// <agent-id> export" under the group "bourdon <agent-id>" (created, or
// reused when another file already added that group).
func addAgentCommands(root *cobra.Command, deps exportDeps) {
	for _, e := range deps.exporters() {
		agentGroup(root, e.Info()).AddCommand(newAgentExportCommand(e, deps))
	}
}

const agentGroupID = "agents"

// agentGroup returns the "bourdon <agent-id>" command, adding it to root
// if it is not there yet.
func agentGroup(root *cobra.Command, info export.Info) *cobra.Command {
	for _, c := range root.Commands() {
		if c.Name() == info.ID {
			return c
		}
	}
	if !root.ContainsGroup(agentGroupID) {
		root.AddGroup(&cobra.Group{ID: agentGroupID, Title: "Agent commands:"})
	}
	g := &cobra.Command{
		Use:     info.ID,
		Short:   "Commands of the " + info.Label + " exporter",
		GroupID: agentGroupID,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	root.AddCommand(g)
	return g
}

// newAgentExportCommand returns "bourdon <agent-id> export", the hook
// target: it always exits 0, says nothing on success, and reports
// problems on stderr only with --verbose, as "bourdon <id> export: ...".
func newAgentExportCommand(e export.Exporter, deps exportDeps) *cobra.Command {
	id := e.Info().ID
	var f struct {
		since, out, access, libraryDir, store string
		print, verbose                        bool
	}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export " + e.Info().Label + "'s store into the library (hook-safe: always exits 0)",
		Long: `Read ` + e.Info().Label + `'s native store and write agents/` + id + `.l5.yaml into the
library through the commit path, as export-all does for one agent. Made for
hooks (Claude Code's SessionEnd, cron, ...): it always exits 0, prints nothing
on success, and reports problems on stderr only with --verbose. --out writes
the exported manifest to that file instead (atomically; the library is not
touched); --print also prints it as YAML. --store postgres://... writes into
that PostgreSQL store instead of the library directory (which still holds
the caches).`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			say := func(format string, a ...any) {
				if f.verbose {
					fmt.Fprintf(cmd.ErrOrStderr(), "bourdon %s export: %s\n", id, fmt.Sprintf(format, a...))
				}
			}
			if len(args) > 0 {
				say("ignoring arguments %q", args)
			}
			since, err := runner.ParseSince(f.since)
			if err != nil {
				say("%v", err)
				return nil
			}
			env, err := deps.env()
			if err != nil {
				say("%v", err)
				return nil
			}
			w, closeStore, err := exportWriter(cmd.Context(), f.store)
			if err != nil {
				say("%v", err)
				return nil
			}
			defer closeStore()
			opts := runner.Options{
				// Every exporter, so that the library's settings are
				// checked against every agent id; Agent runs this one.
				Library: f.libraryDir, Writer: w, Env: env, Exporters: deps.exporters(), Agent: id, Since: since,
				AccessLevel: f.access, Out: f.out, KeepDocuments: f.print, Now: deps.now,
			}
			results, err := runner.Run(cmd.Context(), opts)
			if err != nil {
				say("%v", err)
				return nil
			}
			r := results[0]
			for _, w := range r.Warnings {
				say("warning: %s", w)
			}
			switch r.Status {
			case runner.StatusSkipped:
				if strings.HasPrefix(r.Reason, "excluded by ") {
					say("%s, skipping", r.Reason)
				} else {
					say("no data (%s), skipping", r.Reason)
				}
			case runner.StatusError:
				say("export failed: %s", r.Reason)
			case runner.StatusNoOp:
				say("unchanged %s", r.Path)
			default:
				say("wrote %s", r.Path)
			}
			if f.print && r.Document != nil {
				data, err := yaml11.Encode(r.Document)
				if err != nil {
					say("%v", err)
					return nil
				}
				cmd.OutOrStdout().Write(data)
			}
			return nil
		},
	}
	// A flag this version does not know (or a bad value) must not fail the
	// hook that passes it.
	cmd.FParseErrWhitelist.UnknownFlags = true
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		if f.verbose {
			fmt.Fprintf(c.ErrOrStderr(), "bourdon %s export: %v\n", id, err)
		}
		return exitError{0}
	})
	fl := cmd.Flags()
	fl.StringVar(&f.since, "since", "", "keep only sessions since DATE (midnight UTC) or DATETIME")
	fl.StringVar(&f.out, "out", "", "write the manifest to this file instead of the library")
	fl.StringVar(&f.access, "access-level", runner.DefaultAccessLevel, "drop rows above this level: public, team or private")
	fl.BoolVar(&f.print, "print", false, "also print the exported manifest as YAML")
	fl.BoolVar(&f.verbose, "verbose", false, "report problems (and what was written) on stderr")
	fl.StringVar(&f.store, "store", "", "write into this PostgreSQL store (postgres://...) instead of the library directory")
	fl.StringVar(&f.libraryDir, "library", library.DefaultPath(), "library directory (holds agents/*.l5.yaml)")
	return cmd
}

// exportWriter opens the write path of --store for an export; without
// one it is nil (the runner writes into the library directory).
func exportWriter(ctx context.Context, url string) (*commit.Writer, func(), error) {
	if url == "" {
		return nil, func() {}, nil
	}
	return openWriter(ctx, "", url)
}
