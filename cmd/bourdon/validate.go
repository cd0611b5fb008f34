package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func newValidateCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "validate FILE...",
		Short: "Check L5 manifests against the schema and list every violation",
		Long: `Check L5 manifests (YAML or JSON) against the L5 schema. Every violation is
printed as FILE: PATH: MESSAGE (KEYWORD); a file that is not valid YAML (a
syntax error, a key written twice in one mapping) as FILE:LINE: MESSAGE. The
exit status is 0 when all files are valid, 1 otherwise.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			out := cmd.OutOrStdout()
			bad := 0
			for _, file := range files {
				data, err := fsutil.ReadRegular(file, library.MaxManifestBytes)
				if err != nil {
					fmt.Fprintf(out, "%s: %v\n", file, err)
					bad++
					continue
				}
				doc, err := yaml11.Decode(data)
				if err != nil {
					var se *yaml11.SyntaxError
					if errors.As(err, &se) && se.Line > 0 {
						fmt.Fprintf(out, "%s:%d: %s\n", file, se.Line, se.Msg)
					} else {
						fmt.Fprintf(out, "%s: %v\n", file, err)
					}
					bad++
					continue
				}
				violations := l5.Validate(doc)
				for _, v := range violations {
					fmt.Fprintf(out, "%s: %s\n", file, v)
				}
				if len(violations) > 0 {
					bad++
				}
			}
			if bad > 0 {
				return exitError{1}
			}
			fmt.Fprintf(out, "%d file(s) valid\n", len(files))
			return nil
		},
	}
}
