package main

import (
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

func newDocsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Check a documentation corpus and count what it holds",
		Long: `Work with a Learn-style documentation corpus (learning paths, modules, units,
achievements, Diataxis docs, ADRs, skills). Each DIR is a corpus root; later
roots are overlays loaded on top of earlier ones.`,
	}
	cmd.AddCommand(newDocsCheckCommand(), newDocsStatsCommand())
	return cmd
}

func newDocsCheckCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "check DIR [DIR...]",
		Short: "Load a corpus and list every problem the validation gates find",
		Long: `Load the corpus roots in order and run the validation gates (schema,
metadata-required, broken-xref, broken-link, code-snippet-resolves,
quiz-shape, achievement-resolves, unit-membership, duplicate-uid,
uid-pattern, dependency-cycle). Every problem is printed as
FILE:LINE: RULE: MESSAGE, sorted by root, file and line, and a summary goes
to standard error. The exit status is 0 when there are no problems, 1
otherwise.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			c, err := docs.Load(dirs...)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			for _, p := range c.Problems {
				fmt.Fprintf(out, "%s:%d: %s: %s\n", filepath.Join(p.Root, p.File), p.Line, p.Rule, p.Message)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "%d node(s), %d edge(s), %d problem(s)\n", c.Graph.Len(), c.Graph.EdgeCount(), len(c.Problems))
			if len(c.Problems) > 0 {
				return exitError{1}
			}
			return nil
		},
	}
}

func newDocsStatsCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "stats DIR [DIR...]",
		Short: "Count a corpus's nodes per label and edges per type",
		Long: `Load the corpus roots in order and print the number of nodes of each label
and of edges of each type (in vocabulary order, omitting zeros), then the
monikers and the number of problems ("bourdon docs check" lists them).`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			c, err := docs.Load(dirs...)
			if err != nil {
				return err
			}
			g, out := c.Graph, cmd.OutOrStdout()
			fmt.Fprintf(out, "nodes %d\n", g.Len())
			for _, l := range graph.Labels() {
				if n := len(g.ByLabel(l.Label)); n > 0 {
					fmt.Fprintf(out, "  %-14s %6d\n", l.Label, n)
				}
			}
			edges := map[graph.EdgeType]int{}
			for i := range g.Len() {
				for _, a := range g.Out(graph.NodeID(i)) {
					edges[a.Type]++
				}
			}
			fmt.Fprintf(out, "edges %d\n", g.EdgeCount())
			for _, e := range graph.Edges() {
				if n := edges[e.Type]; n > 0 {
					fmt.Fprintf(out, "  %-14s %6d\n", e.Type, n)
				}
			}
			fmt.Fprintf(out, "monikers %d\n", len(g.Monikers()))
			for _, m := range g.Monikers() {
				fmt.Fprintf(out, "  %-14s %6d  %s %s\n", m.Name, m.Order, m.Product, m.Status)
			}
			fmt.Fprintf(out, "problems %d\n", len(c.Problems))
			return nil
		},
	}
}
