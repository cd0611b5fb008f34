package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/docgraph/docs"
	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

func newDocsCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "docs",
		Short: "Check a documentation corpus and count what it holds",
		Long: `Work with a Learn-style documentation corpus (learning paths, modules, units,
achievements, Diataxis docs, ADRs, skills). Each DIR is a corpus root; later
roots are overlays loaded on top of earlier ones.`,
	}
	cmd.AddCommand(newDocsCheckCommand(), newDocsStatsCommand(), newDocsFetchCommand(), newDocsPathCommand())
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

// docsView loads the corpus roots as a knowledge base of documentation
// alone and returns the operator's view of it, internal documents
// included: the same queries as the docs tools of serve --docs.
func docsView(ctx context.Context, dirs []string) (knowledge.View, error) {
	kb, err := knowledge.Open(ctx, knowledge.Options{Dirs: dirs, Dictionary: spellingDictionary()})
	if err != nil {
		return knowledge.View{}, err
	}
	return kb.Current().View(knowledge.Viewer{Level: visibility.Private}), nil
}

func newDocsFetchCommand() *cobra.Command {
	var moniker string
	cmd := &cobra.Command{
		Use:   "fetch UID DIR [DIR...]",
		Short: "Print a node's content, as read in one product version",
		Long: `Load the corpus roots and print the content of the node UID (also written
@uid or <xref:uid>), as docs_fetch returns it: with --moniker, the moniker
blocks of other product versions left out. An unknown uid names the three
closest; a node whose monikerRange leaves the moniker out is an error.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := docsView(cmd.Context(), args[1:])
			if err != nil {
				return err
			}
			c, err := v.Fetch(args[0], moniker, "")
			if err != nil {
				return err
			}
			_, err = io.WriteString(cmd.OutOrStdout(), c.Text)
			return err
		},
	}
	cmd.Flags().StringVar(&moniker, "moniker", "", "render for this product version, e.g. yuva-2.0")
	return cmd
}

func newDocsPathCommand() *cobra.Command {
	var req knowledge.PathRequest
	cmd := &cobra.Command{
		Use:   "path SKILL DIR [DIR...]",
		Short: "Plan what to learn, in order, to reach a skill",
		Long: `Load the corpus roots and plan the way to SKILL (a uid or a title), as
get_learning_path does: the skills on the way, prerequisites first, each
"learn" or "known" (--known skills and their prerequisites), then the
modules to take in order with the skills they teach and their units, and
the skills no module teaches. --audience prefers the modules for a role.`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			v, err := docsView(cmd.Context(), args[1:])
			if err != nil {
				return err
			}
			req.Target = args[0]
			path, err := v.LearningPath(req)
			if err != nil {
				return err
			}
			printPath(cmd.OutOrStdout(), path)
			return nil
		},
	}
	cmd.Flags().StringSliceVar(&req.Known, "known", nil, "a skill already held (uid or title); repeat or separate with commas")
	cmd.Flags().StringVar(&req.Audience, "audience", "", "a role (uid or title) whose modules are preferred")
	return cmd
}

// printPath writes a learning path as text.
func printPath(w io.Writer, p *knowledge.LearningPath) {
	fmt.Fprintf(w, "skills for %s (%s)\n", p.Target.UID, p.Target.Title())
	for _, s := range p.Skills {
		status := "learn"
		if s.Known {
			status = "known"
		}
		fmt.Fprintf(w, "  %-5s  %s\n", status, s.Skill.UID)
	}
	fmt.Fprintln(w, "steps")
	for i, st := range p.Steps {
		fmt.Fprintf(w, "  %d. %s (%s)\n", i+1, st.Module.UID, st.Module.Title())
		fmt.Fprintf(w, "     teaches: %s\n", joinUIDs(st.Teaches))
		fmt.Fprintf(w, "     units:   %s\n", joinUIDs(st.Units))
	}
	if len(p.Untaught) > 0 {
		fmt.Fprintf(w, "untaught: %s\n", joinUIDs(p.Untaught))
	}
}

func joinUIDs(nodes []*graph.Node) string {
	uids := make([]string, len(nodes))
	for i, n := range nodes {
		uids[i] = n.UID
	}
	return strings.Join(uids, ", ")
}
