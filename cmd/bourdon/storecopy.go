package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
	"github.com/getbourdon/bourdon-go/internal/trust/oauth/authserver"
)

// registryCopy is what bourdon store copy does with the federation
// registry and the OAuth state: when either side is a database, they go
// from the source's place to the destination's (a directory's being the
// --registry file and oauth.json next to it), byte for byte, before the
// library. A source that has none, or a destination that holds the same
// bytes, copies nothing and says nothing.
type registryCopy struct {
	path    string // --registry
	replace bool   // --replace-registry
	skip    bool   // --no-registry
}

func (c *registryCopy) flags(cmd *cobra.Command) {
	cmd.Flags().StringVar(&c.path, "registry", "", "the registry file on a directory's side (default $"+trust.RegistryEnv+" or ~/.bourdon/federation.yaml); oauth.json is next to it")
	cmd.Flags().BoolVar(&c.replace, "replace-registry", false, "replace a destination registry that has members, and OAuth state that holds clients or grants")
	cmd.Flags().BoolVar(&c.skip, "no-registry", false, "copy the library only, not the registry and OAuth state")
}

// run copies the registry and the OAuth state from src to dst, the
// stores bourdon store copy opened, and says what it copied.
func (c *registryCopy) run(ctx context.Context, src, dst store.Store, out io.Writer) error {
	srcPG, _ := src.(*postgres.Store)
	dstPG, _ := dst.(*postgres.Store)
	if c.skip || (srcPG == nil && dstPG == nil) {
		return nil // two directories share the one registry file
	}
	path := c.path
	if path == "" {
		var err error
		if path, err = trust.DefaultRegistryPath(os.Getenv); err != nil {
			return err
		}
	}
	// A database side's registry is its own; a directory's, the file.
	from, to := trustPlace{registryPath: path, pg: srcPG}, trustPlace{registryPath: path, pg: dstPG}
	fromReg, toReg := from.registry(), to.registry()
	members, copied, err := trust.CopyRegistry(ctx, fromReg, toReg, c.replace)
	if err != nil {
		return fmt.Errorf("%w (--replace-registry replaces it, --no-registry leaves it)", err)
	}
	if copied {
		fmt.Fprintf(out, "copied the registry (%d members) from %s to %s\n", members, fromReg.Path(), toReg.Path())
	}
	fromState, toState := from.oauthState(), to.oauthState()
	copied, err = authserver.CopyState(ctx, fromState, toState, c.replace)
	if err != nil {
		return fmt.Errorf("%w (--replace-registry replaces it, --no-registry leaves it)", err)
	}
	if copied {
		fmt.Fprintf(out, "copied the OAuth state from %s to %s\n", fromState.Path(), toState.Path())
	}
	return nil
}
