package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func newValidateCommand() *cobra.Command {
	var storeURL string
	cmd := &cobra.Command{
		Use:   "validate FILE... | validate --store postgres://... [AGENT...]",
		Short: "Check L5 manifests against the schema and list every violation",
		Long: `Check L5 manifests (YAML or JSON) against the L5 schema. Every violation is
printed as FILE: PATH: MESSAGE (KEYWORD); a file that is not valid YAML (a
syntax error, a key written twice in one mapping) as FILE:LINE: MESSAGE. The
exit status is 0 when all files are valid, 1 otherwise.

--store postgres://... checks the manifests of that PostgreSQL store instead:
every agent's, or those of the AGENT ids given; FILE is then the manifest's
path in the store (its URL without the password, /agents/ID.l5.yaml). A
store that cannot be read is an error (exit status 1).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if storeURL != "" {
				return validateStore(cmd, storeURL, args)
			}
			if len(args) == 0 {
				return cliFail(cmd, errors.New("validate takes at least one FILE (or --store)"))
			}
			bad := 0
			for _, file := range args {
				data, err := fsutil.ReadRegular(file, library.MaxManifestBytes)
				if !validManifest(cmd.OutOrStdout(), file, data, err) {
					bad++
				}
			}
			return validated(cmd, bad, len(args))
		},
	}
	cmd.Flags().StringVar(&storeURL, "store", "", "check the manifests of this PostgreSQL store (postgres://...)")
	return cmd
}

// validateStore validates the manifests of the store at url: those of
// ids, or every one.
func validateStore(cmd *cobra.Command, url string, ids []string) error {
	ctx := cmd.Context()
	w, closeStore, err := openWriter(ctx, "", url)
	if err != nil {
		return cliFail(cmd, err)
	}
	defer closeStore()
	st := w.Store()
	if len(ids) == 0 {
		versions, err := st.(*postgres.Store).Versions(ctx)
		if err != nil {
			return cliFail(cmd, err)
		}
		ids = slices.Sorted(maps.Keys(versions))
	}
	bad := 0
	for _, id := range ids {
		data, err := st.Manifest(ctx, id)
		if !validManifest(cmd.OutOrStdout(), st.ManifestPath(id), data, err) {
			bad++
		}
	}
	return validated(cmd, bad, len(ids))
}

// validManifest prints what is wrong with the manifest named name (its
// bytes, or the error reading them) and says whether it is valid.
func validManifest(out io.Writer, name string, data []byte, err error) bool {
	if err != nil {
		fmt.Fprintf(out, "%s: %v\n", name, err)
		return false
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		var se *yaml11.SyntaxError
		if errors.As(err, &se) && se.Line > 0 {
			fmt.Fprintf(out, "%s:%d: %s\n", name, se.Line, se.Msg)
		} else {
			fmt.Fprintf(out, "%s: %v\n", name, err)
		}
		return false
	}
	violations := l5.Validate(doc)
	for _, v := range violations {
		fmt.Fprintf(out, "%s: %s\n", name, v)
	}
	return len(violations) == 0
}

// validated ends a validation of n manifests, bad of them invalid.
func validated(cmd *cobra.Command, bad, n int) error {
	if bad > 0 {
		return exitError{1}
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d file(s) valid\n", n)
	return nil
}
