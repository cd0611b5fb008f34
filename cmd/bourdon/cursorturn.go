package main

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/export"
	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/recall/turn"
)

// addCursorCompileTurn adds "bourdon cursor compile-turn", the reference's
// Cursor turn brief from the command line: a flat additive scorer over
// every visible entity of every agent (turn.CompileCursor), printed with
// its text rendering.
func addCursorCompileTurn(root *cobra.Command) {
	var f twinFlags
	var cwd string
	var maxItems int
	cmd := &cobra.Command{
		Use:   "compile-turn <prompt>",
		Short: "Compile a turn-scoped Cursor recognition brief from the library",
		Long: `compile-turn reads the library directly (no server) and prints the
Cursor brief for one prompt (schema cursor-turn-brief/v1): the prompt's
tokens, the project named by --cwd, the matched entities with their scores,
the routing, and the brief rendered as text.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, _, err := f.level(cmd)
			if err != nil {
				return err
			}
			lib, err := library.Open(f.library, nil)
			if err != nil {
				return err
			}
			defer lib.Close()
			var dir *string
			if cwd != "" {
				base := filepath.Base(filepath.Clean(cwd))
				dir = &base
			}
			brief, err := turn.CompileCursor(federation.New(lib).Manifests(nil), turn.CursorRequest{
				Prompt: args[0], Cwd: dir, AccessLevel: text, MaxItems: maxItems, Now: time.Now(),
			})
			if err != nil {
				return err
			}
			report := struct {
				*turn.CursorBrief
				Text string `json:"text"`
			}{brief, brief.Text(turn.DefaultMaxChars)}
			return printPayload(cmd.OutOrStdout(), f, map[string]string{"prompt": args[0], "access_level": text}, report)
		},
	}
	f.register(cmd)
	cmd.Flags().StringVar(&cwd, "cwd", "", "working directory, for the project it names")
	cmd.Flags().IntVar(&maxItems, "max-items", turn.DefaultMaxItems, fmt.Sprintf("most entities in the brief (%d to %d)", turn.MinMaxItems, turn.MaxMaxItems))
	agentGroup(root, export.Info{ID: "cursor", Label: "Cursor"}).AddCommand(cmd)
}
