package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/docgraph/knowledge"
	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// storeFlagHelp describes --store wherever a command takes it.
const storeFlagHelp = "keep the manifests, their history and staged writes in this PostgreSQL database (postgres://...) instead of the library directory; run \"bourdon store migrate\" first (see docs/deploy.md)"

// newStoreCommand returns "bourdon store": the schema of a PostgreSQL
// store, and copying a library between stores.
func newStoreCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "store",
		Short: "Migrate a PostgreSQL store; copy a library between a directory and PostgreSQL",
		Long: `A library lives in a directory (the default) or in PostgreSQL (--store postgres://...
on serve, history and staging). See docs/deploy.md.

  migrate --store URL   create or upgrade the database's schema (refuses a newer one)
  copy SRC DST          copy a library (manifests, history, staged writes, requests,
                        proposals, drift watermarks) byte for byte; SRC and DST are
                        each a directory or a postgres:// URL; the audit log comes
                        along (--audit-log is the directory side's file), and when one
                        is a database, the registry and OAuth state too (the
                        --registry file on the directory's side)
  prune-audit           drop a PostgreSQL store's audit entries older than a month`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	var url string
	migrate := &cobra.Command{
		Use:   "migrate --store postgres://...",
		Short: "Create or upgrade a PostgreSQL store's schema",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := postgres.CheckURL(url); err != nil {
				return cliFail(cmd, fmt.Errorf("--store: %w", err))
			}
			applied, err := postgres.Migrate(cmd.Context(), url)
			if err != nil {
				return cliFail(cmd, err)
			}
			if err := prepareAudit(cmd.Context(), url); err != nil {
				return cliFail(cmd, err)
			}
			if len(applied) == 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "%s: schema version %d, nothing to do\n", postgres.Redact(url), postgres.SchemaVersion())
				return nil
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: applied %s; schema version %d\n", postgres.Redact(url), joinInts(applied), postgres.SchemaVersion())
			return nil
		},
	}
	migrate.Flags().StringVar(&url, "store", "", "the database (postgres://user@host/db)")
	var auditLog string
	var noAudit bool
	var reg registryCopy
	copyCmd := &cobra.Command{
		Use:   "copy SRC DST",
		Short: "Copy a library (and the federation registry) between a directory and a PostgreSQL store",
		Args:  cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			src, closeSrc, err := openStore(ctx, args[0])
			if err != nil {
				return cliFail(cmd, err)
			}
			defer closeSrc()
			dst, closeDst, err := openStore(ctx, args[1])
			if err != nil {
				return cliFail(cmd, err)
			}
			defer closeDst()
			var audit *auditCopy
			if !noAudit {
				if audit, err = newAuditCopy(ctx, auditLog, src, dst); err != nil {
					return cliFail(cmd, err)
				}
			}
			reqs, err := planRequestsCopy(ctx, libraryDocuments(args[0], src), libraryDocuments(args[1], dst))
			if err != nil {
				return cliFail(cmd, err)
			}
			// Every check above writes nothing; the registry's copy checks,
			// then writes, first.
			if err := reg.run(ctx, src, dst, cmd.OutOrStdout()); err != nil {
				return cliFail(cmd, err)
			}
			st, err := commit.Copy(ctx, src, dst)
			if err != nil {
				return cliFail(cmd, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "copied %d agents (%d archived versions, %d provenance records) and %d staged writes\n", st.Agents, st.Versions, st.Records, st.Staged)
			if audit != nil {
				n, skipped, err := audit.run(ctx, cmd.ErrOrStderr())
				if err != nil {
					return cliFail(cmd, err)
				}
				fmt.Fprintf(cmd.OutOrStdout(), "copied %d audit entries (%d lines skipped)\n", n, skipped)
			}
			n, err := reqs.write(ctx)
			if err != nil {
				return cliFail(cmd, err)
			}
			if n > 0 {
				fmt.Fprintf(cmd.OutOrStdout(), "copied %d requests, proposals and drift watermarks\n", n)
			}
			return nil
		},
	}
	auditPath, _ := trust.DefaultAuditPath(os.Getenv)
	copyCmd.Flags().StringVar(&auditLog, "audit-log", auditPath, "the audit log file of the directory side (BOURDON_AUDIT_PATH)")
	copyCmd.Flags().BoolVar(&noAudit, "no-audit", false, "leave the audit log out of the copy")
	reg.flags(copyCmd)
	cmd.AddCommand(migrate, copyCmd, newPruneAuditCommand())
	return cmd
}

func joinInts(v []int) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ", ")
}

// writerFlags registers --library and --store on cmd (for it and its
// subcommands) and returns the Writer they name, opened before the command
// runs and closed after it.
func writerFlags(cmd *cobra.Command) func() *commit.Writer {
	var dir, url string
	cmd.PersistentFlags().StringVar(&dir, "library", library.DefaultPath(), "library directory")
	cmd.PersistentFlags().StringVar(&url, "store", "", storeFlagHelp)
	var w *commit.Writer
	closeStore := func() {}
	cmd.PersistentPreRunE = func(cmd *cobra.Command, _ []string) (err error) {
		if w, closeStore, err = openWriter(cmd.Context(), dir, url); err != nil {
			return cliFail(cmd, err)
		}
		return nil
	}
	cmd.PersistentPostRun = func(*cobra.Command, []string) { closeStore() }
	return func() *commit.Writer { return w }
}

// openStore opens a store named by a directory or a postgres:// URL.
func openStore(ctx context.Context, spec string) (store.Store, func(), error) {
	w, closeFn, err := openWriter(ctx, spec, "")
	if err != nil {
		return nil, nil, err
	}
	return w.Store(), closeFn, nil
}

// openWriter returns the write path of the library in dir, or, with url
// set, in that PostgreSQL store; a dir that is a postgres:// URL is the
// store. The returned function closes it.
func openWriter(ctx context.Context, dir, url string) (*commit.Writer, func(), error) {
	if url == "" && postgres.IsURL(dir) {
		url = dir
	}
	if url == "" {
		return commit.New(dir), func() {}, nil
	}
	pg, err := openPostgres(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return commit.OnStore(pg), pg.Close, nil
}

// openPostgres opens the PostgreSQL store a --store flag names.
func openPostgres(ctx context.Context, url string) (*postgres.Store, error) {
	if err := postgres.CheckURL(url); err != nil {
		return nil, fmt.Errorf("--store: %w", err)
	}
	return postgres.Open(ctx, url)
}

// openLibrary opens what bourdon serve reads and writes: the library
// directory root, or, with pg set, the manifests in that PostgreSQL store
// (see libraryDocuments for the requests and the drift watermarks),
// reconciled with the database every reconcile at least (followStore
// tells it of changes as they commit). The returned function closes the
// library; pg stays the caller's.
func openLibrary(root string, pg *postgres.Store, reconcile time.Duration, log *slog.Logger) (*library.Library, *commit.Writer, func(), error) {
	if pg == nil {
		lib, err := library.Open(root, log)
		if err != nil {
			return nil, nil, nil, err
		}
		return lib, commit.New(lib.Root()), func() { lib.Close() }, nil
	}
	lib, err := library.OpenStore(root, pg, reconcile, log)
	if err != nil {
		return nil, nil, nil, err
	}
	return lib, commit.OnStore(pg), func() { lib.Close() }, nil
}

// followStore listens to pg's change notifications until ctx ends or the
// returned function is called, on one connection: a manifest's tells lib,
// a document's tells kb (when there is one), which looks at the requests
// if the document is one. Each is told "" on every connection, so that
// what was missed while none was open is looked for.
func followStore(ctx context.Context, pg *postgres.Store, lib *library.Library, kb *knowledge.Base, log *slog.Logger) (stop func()) {
	on := postgres.Listeners{Manifests: func(string) { lib.Notify() }}
	if kb != nil {
		on.Documents = kb.DocumentChanged
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		pg.Listen(ctx, on, log)
	}()
	return func() { cancel(); <-done }
}

// storeVectors says, for the start-up banner, where a PostgreSQL store's
// replica keeps its vectors ("in memory (pgvector not available)"); ""
// on a directory.
func storeVectors(ctx context.Context, w *commit.Writer) string {
	pg, ok := w.Store().(*postgres.Store)
	if !ok {
		return ""
	}
	v, err := pg.Vectors(ctx)
	if err != nil {
		return "in memory (pgvector not known: " + err.Error() + ")"
	}
	return v.String()
}

// libraryReady is the library's check of /readyz: its manifest directory
// exists, or, on a PostgreSQL store, the database answers.
func libraryReady(ctx context.Context, lib *library.Library, w *commit.Writer, onStore bool) func() error {
	if !onStore {
		return func() error { _, err := os.Stat(lib.AgentsDir()); return err }
	}
	return func() error {
		ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		_, err := w.Store().Agents(ctx)
		return err
	}
}
