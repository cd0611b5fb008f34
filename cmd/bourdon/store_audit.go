package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// serverAudit returns the audit log of a server whose library is in st:
// the store's own when it is a PostgreSQL store (its months' partitions
// made ready; every replica writes and reads the same log), else the file
// at path.
func serverAudit(ctx context.Context, path string, st store.Store, log *slog.Logger) *trust.Audit {
	pg, ok := st.(*postgres.Store)
	if !ok {
		return trust.OpenAudit(path)
	}
	al := pg.AuditLog()
	if err := al.Prepare(ctx, time.Now()); err != nil {
		log.Warn("the audit log's partitions for this month and the next cannot be created; entries go to its default partition", "err", err)
	}
	return trust.NewAudit(al)
}

// prepareAudit makes the audit log's partitions of this month and the
// next in the freshly migrated store at url (bourdon store migrate).
func prepareAudit(ctx context.Context, url string) error {
	pg, err := postgres.Open(ctx, url)
	if err != nil {
		return err
	}
	defer pg.Close()
	return pg.AuditLog().Prepare(ctx, time.Now())
}

// openAudit returns the audit log at path, or, with url set, the one in
// that PostgreSQL store; the function returned closes it.
func openAudit(ctx context.Context, path, url string) (*trust.Audit, func(), error) {
	if url == "" {
		return trust.OpenAudit(path), func() {}, nil
	}
	pg, err := openPostgres(ctx, url)
	if err != nil {
		return nil, nil, err
	}
	return trust.NewAudit(pg.AuditLog()), pg.Close, nil
}

// auditCopy copies the audit log along with a library (bourdon store
// copy): from the file at path into a PostgreSQL store, back, or between
// two stores. Between two directories there is one file and nothing to
// copy.
type auditCopy struct {
	path     string
	src, dst *postgres.Store // nil: the file
}

// newAuditCopy plans the copy from src to dst and checks, before anything
// is copied, that the destination has no audit entries of its own when
// the source has some (unless they are the source's: copied before). A
// nil plan copies nothing.
func newAuditCopy(ctx context.Context, path string, src, dst store.Store) (*auditCopy, error) {
	c := &auditCopy{path: path}
	c.src, _ = src.(*postgres.Store)
	c.dst, _ = dst.(*postgres.Store)
	if c.src == nil && c.dst == nil {
		return nil, nil
	}
	has, err := c.hasEntries(c.src)
	if err != nil || !has {
		return nil, err
	}
	if has, err = c.hasEntries(c.dst); err != nil {
		return nil, err
	}
	if has {
		// The same entries on both sides (a copy made before, run
		// again) copy nothing; other entries would mix two logs.
		same, err := c.sameEntries(ctx)
		if err != nil || same {
			return nil, err
		}
		where := "the audit log " + path
		if c.dst != nil {
			where = "the destination's audit log"
		}
		return nil, fmt.Errorf("%s already has other entries: copying would mix two logs; name another file with --audit-log, or leave the audit log out with --no-audit", where)
	}
	return c, nil
}

// sameEntries reports whether the source and the destination hold the
// same entries, in any order (a copy back sorts a file by time).
func (c *auditCopy) sameEntries(ctx context.Context) (bool, error) {
	src, err := c.digest(ctx, c.src)
	if err != nil {
		return false, err
	}
	dst, err := c.digest(ctx, c.dst)
	return err == nil && src == dst, err
}

// digest is the SHA-256 of the sorted SHA-256s of the lines of every
// entry of the log in pg, or of the file when pg is nil (lines that are
// not entries left out, as a copy leaves them out).
func (c *auditCopy) digest(ctx context.Context, pg *postgres.Store) ([sha256.Size]byte, error) {
	var sums [][sha256.Size]byte
	add := func(e trust.Entry) error {
		sums = append(sums, sha256.Sum256(e.Line()))
		return nil
	}
	var err error
	if pg == nil {
		err = trust.ReadAuditFile(c.path, add, func(int, string) {})
	} else {
		err = pg.AuditLog().Each(ctx, add)
	}
	slices.SortFunc(sums, func(a, b [sha256.Size]byte) int { return bytes.Compare(a[:], b[:]) })
	h := sha256.New()
	for _, s := range sums {
		h.Write(s[:])
	}
	return [sha256.Size]byte(h.Sum(nil)), err
}

// hasEntries reports whether the log in pg, or the file when pg is nil,
// holds anything.
func (c *auditCopy) hasEntries(pg *postgres.Store) (bool, error) {
	if pg == nil {
		fi, err := os.Stat(c.path)
		if errors.Is(err, os.ErrNotExist) {
			return false, nil
		}
		return err == nil && fi.Size() > 0, err
	}
	found := false
	_, err := pg.AuditLog().Recent(trust.AuditFilter{Limit: 1}, func(trust.Entry) bool { found = true; return false })
	return found, err
}

// maxReported bounds the skipped lines a copy names one by one.
const maxReported = 10

// run copies the entries, oldest first, and says on stderr which lines of
// a file it skipped; it returns how many entries it copied and skipped.
func (c *auditCopy) run(ctx context.Context, stderr io.Writer) (copied, skipped int, err error) {
	bad := func(line int, why string) {
		if skipped++; skipped <= maxReported {
			fmt.Fprintf(stderr, "audit log %s, line %d: %s; skipped\n", c.path, line, why)
		}
	}
	each := func(yield func(trust.Entry) error) error {
		if c.src == nil {
			return trust.ReadAuditFile(c.path, yield, bad)
		}
		return c.src.AuditLog().Each(ctx, yield)
	}
	if c.dst == nil {
		copied, err = trust.WriteAuditFile(c.path, each)
	} else {
		copied, err = c.dst.AuditLog().Import(ctx, each)
	}
	if skipped > maxReported {
		fmt.Fprintf(stderr, "audit log %s: %d more lines skipped\n", c.path, skipped-maxReported)
	}
	return copied, skipped, err
}

// newPruneAuditCommand is "bourdon store prune-audit": the audit log's
// retention in a PostgreSQL store.
func newPruneAuditCommand() *cobra.Command {
	var url, before string
	cmd := &cobra.Command{
		Use:   "prune-audit --store postgres://... --before YYYY-MM",
		Short: "Drop the audit log's entries older than a month, in a PostgreSQL store",
		Long: `Drop every audit entry before the first day of the month --before names
(UTC): the monthly partitions of older months are dropped whole, and any older
rows in the default partition go with it. Rows are never updated or deleted
one by one: the log is append-only. See docs/deploy.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			month, err := time.Parse("2006-01", before)
			if err != nil {
				return cliFail(cmd, fmt.Errorf("--before %q: name a month, such as 2026-01", before))
			}
			pg, err := openPostgres(cmd.Context(), url)
			if err != nil {
				return cliFail(cmd, err)
			}
			defer pg.Close()
			st, err := pg.AuditLog().Prune(cmd.Context(), month)
			if err != nil {
				return cliFail(cmd, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s: dropped %d audit entries before %s (%d monthly partitions)\n", postgres.Redact(url), st.Entries, before, len(st.Partitions))
			return nil
		},
	}
	cmd.Flags().StringVar(&url, "store", "", "the database (postgres://user@host/db)")
	cmd.Flags().StringVar(&before, "before", "", "drop the entries before this month (YYYY-MM, UTC)")
	return cmd
}
