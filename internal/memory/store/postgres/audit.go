package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/trust"
)

// AuditLog is the audit log kept in the store's database, a
// trust.AuditLog that every replica writes and reads: the table
// bourdon_audit, range-partitioned by month on the entry's time, with a
// DEFAULT partition so that an insert never fails for want of a month's.
// Rows are append-only (a trigger refuses updates and deletes); dropping
// whole months (Prune) is the retention operation.
type AuditLog struct {
	s     *Store
	mu    sync.Mutex
	made  map[time.Time]bool // months whose partition exists
	retry time.Time          // after a failure to make one, no new try before this
}

var _ trust.AuditLog = (*AuditLog)(nil)

// AuditLog returns the store's audit log.
func (s *Store) AuditLog() *AuditLog {
	return &AuditLog{s: s, made: map[time.Time]bool{}}
}

const (
	// auditWriteTimeout bounds one entry's insert: a database that does
	// not answer delays the audited call by at most this (the call goes
	// on; its caller logs the failure).
	auditWriteTimeout = 2 * time.Second
	// auditReadTimeout bounds one page of a read.
	auditReadTimeout = 30 * time.Second
	// auditPage is how many rows one query of a read returns.
	auditPage = 500
)

// Prepare creates the partitions of the month of now and of the next
// month when they do not exist yet (serve and store migrate call it, so
// that the months ahead are ready before the first entry).
func (l *AuditLog) Prepare(ctx context.Context, now time.Time) error {
	for _, m := range []time.Time{monthOf(now), monthOf(now).AddDate(0, 1, 0)} {
		if err := l.ensureMonth(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// Append inserts one entry. An entry whose ts is not a time is filed
// under now. An entry whose line would be longer than trust.MaxAuditLine
// is refused, as a file's reader would skip it.
func (l *AuditLog) Append(e trust.Entry) error {
	if n := len(e.Line()); n > trust.MaxAuditLine {
		return fmt.Errorf("audit entry of %d bytes refused: longer than %d", n, trust.MaxAuditLine)
	}
	at, ok := e.Time()
	if !ok {
		at = time.Now()
	}
	ctx, cancel := context.WithTimeout(context.Background(), auditWriteTimeout)
	defer cancel()
	l.ensureAhead(ctx, monthOf(at))
	// The entry's commit does not wait for the WAL to reach the disk: an
	// audited call is not slowed by an fsync (a few milliseconds), and a
	// database that crashes loses at most its last fraction of a second
	// of entries (never a half), as a file loses what was not yet flushed
	// when its machine goes down.
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	b.Queue("SET LOCAL synchronous_commit TO OFF")
	b.Queue(`INSERT INTO bourdon_audit (at, ts, agent, op, namespace, decision, detail)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, at, e.TS, e.Agent, e.Op, e.Namespace, e.Decision, e.Detail)
	b.Queue("COMMIT")
	if err := l.s.pool.SendBatch(ctx, b).Close(); err != nil {
		return fmt.Errorf("audit log in %w", l.s.failed(err))
	}
	return nil
}

// partitionRetry is how long Append waits after failing to make a
// partition before it tries again.
const partitionRetry = time.Minute

// ensureAhead makes sure that month and the next have their partitions:
// a server that runs past the end of a month creates the following one
// with its first entry of the new month. Meanwhile, and when that fails
// (the database is down, or the role may not create tables: tried again
// a minute later), rows go to the DEFAULT partition.
func (l *AuditLog) ensureAhead(ctx context.Context, month time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	next := month.AddDate(0, 1, 0)
	if l.made[month] && l.made[next] || time.Now().Before(l.retry) {
		return
	}
	for _, m := range []time.Time{month, next} {
		if l.made[m] {
			continue
		}
		if err := l.ensureMonth(ctx, m); err != nil {
			l.retry = time.Now().Add(partitionRetry)
			return
		}
		l.made[m] = true
	}
}

// ensureMonth creates month's partition unless it exists.
func (l *AuditLog) ensureMonth(ctx context.Context, month time.Time) error {
	var exists bool
	if err := l.s.pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", partitionName(month)).Scan(&exists); err != nil || exists {
		return l.s.failed(err)
	}
	return pgx.BeginFunc(ctx, l.s.pool, func(tx pgx.Tx) error { return createMonth(ctx, tx, month) })
}

// lockPartitions takes, for the rest of tx, the lock under which the
// audit log's partitions are made, dropped and copied into: replicas
// starting together do not race to create a month, nor two copies to
// fill one log.
func lockPartitions(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('bourdon:audit-partitions', 0))")
	return err
}

// createMonth creates month's partition in tx unless it exists.
func createMonth(ctx context.Context, tx pgx.Tx, month time.Time) error {
	if err := lockPartitions(ctx, tx); err != nil {
		return err
	}
	const layout = "2006-01-02 15:04:05+00"
	_, err := tx.Exec(ctx, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s PARTITION OF bourdon_audit FOR VALUES FROM ('%s') TO ('%s')",
		partitionName(month), month.Format(layout), month.AddDate(0, 1, 0).Format(layout)))
	return err
}

// monthOf returns the first instant of t's month, in UTC.
func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// partitionName is the partition of month: bourdon_audit_YYYY_MM.
func partitionName(month time.Time) string {
	return fmt.Sprintf("bourdon_audit_%04d_%02d", month.Year(), int(month.Month()))
}

// Recent calls fn with the matching entries, newest first (by time, then
// by the order the database received them), a page of rows at a time.
func (l *AuditLog) Recent(f trust.AuditFilter, fn func(trust.Entry) bool) (full bool, err error) {
	n := 0
	var after *auditKey
	for {
		page := auditPage
		if f.Limit > 0 {
			page = min(page, f.Limit-n)
		}
		rows, err := l.page(context.Background(), f, after, page, true)
		if err != nil {
			return false, err
		}
		for _, r := range rows {
			n++
			if !fn(r.entry) {
				return false, nil
			}
			if f.Limit > 0 && n >= f.Limit {
				return true, nil
			}
		}
		if len(rows) < page {
			return false, nil
		}
		after = &rows[len(rows)-1].auditKey
	}
}

// Each calls fn with every entry, oldest first, for copying the log
// elsewhere; an error of fn stops it.
func (l *AuditLog) Each(ctx context.Context, fn func(trust.Entry) error) error {
	var after *auditKey
	for {
		rows, err := l.page(ctx, trust.AuditFilter{}, after, auditPage, false)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r.entry); err != nil {
				return err
			}
		}
		if len(rows) < auditPage {
			return nil
		}
		after = &rows[len(rows)-1].auditKey
	}
}

// auditKey is a row's place in the log's order.
type auditKey struct {
	at  time.Time
	seq int64
}

type auditRow struct {
	auditKey
	entry trust.Entry
}

// page returns up to limit matching rows after the key after (nil: from
// the newest, or with newestFirst false the oldest).
func (l *AuditLog) page(ctx context.Context, f trust.AuditFilter, after *auditKey, limit int, newestFirst bool) ([]auditRow, error) {
	var where []string
	var args []any
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if f.Agent != "" {
		where = append(where, "agent = "+arg(f.Agent))
	}
	if f.DenialsOnly {
		where = append(where, "decision = 'deny'") // a literal, so that the partial index serves it
	}
	if !f.Since.IsZero() {
		where = append(where, "at >= "+arg(f.Since))
	}
	order, cmp := "at, seq", ">"
	if newestFirst {
		order, cmp = "at DESC, seq DESC", "<"
	}
	if after != nil {
		where = append(where, fmt.Sprintf("(at, seq) %s (%s, %s)", cmp, arg(after.at), arg(after.seq)))
	}
	sql := "SELECT at, seq, ts, agent, op, namespace, decision, detail FROM bourdon_audit"
	if len(where) > 0 {
		sql += " WHERE " + strings.Join(where, " AND ")
	}
	sql += " ORDER BY " + order + " LIMIT " + arg(limit)
	ctx, cancel := context.WithTimeout(ctx, auditReadTimeout)
	defer cancel()
	rows, _ := l.s.pool.Query(ctx, sql, args...)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (auditRow, error) {
		var a auditRow
		e := &a.entry
		err := r.Scan(&a.at, &a.seq, &e.TS, &e.Agent, &e.Op, &e.Namespace, &e.Decision, &e.Detail)
		return a, err
	})
	if err != nil {
		return nil, fmt.Errorf("reading the audit log in %w", l.s.failed(err))
	}
	return out, nil
}

// Import inserts the entries each yields, in that order, into an empty
// audit log, in one transaction: all of them or none. A log that already
// has entries is refused (copying would mix two logs).
func (l *AuditLog) Import(ctx context.Context, each func(yield func(trust.Entry) error) error) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, l.s.pool, func(tx pgx.Tx) error {
		if err := lockPartitions(ctx, tx); err != nil {
			return err
		}
		var has bool
		if err := tx.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM bourdon_audit)").Scan(&has); err != nil {
			return err
		}
		if has {
			return errors.New("the destination's audit log already has entries: copying would mix two logs")
		}
		made := map[time.Time]bool{}
		var batch [][]any
		flush := func() error {
			_, err := tx.CopyFrom(ctx, pgx.Identifier{"bourdon_audit"},
				[]string{"at", "ts", "agent", "op", "namespace", "decision", "detail"}, pgx.CopyFromRows(batch))
			batch = batch[:0]
			return err
		}
		err := each(func(e trust.Entry) error {
			at, ok := e.Time()
			if !ok {
				return fmt.Errorf("audit entry with ts %q, not a time", e.TS)
			}
			if m := monthOf(at); !made[m] {
				if err := createMonth(ctx, tx, m); err != nil {
					return err
				}
				made[m] = true
			}
			batch = append(batch, []any{at, e.TS, e.Agent, e.Op, e.Namespace, e.Decision, e.Detail})
			n++
			if len(batch) == auditPage {
				return flush()
			}
			return nil
		})
		if err == nil && len(batch) > 0 {
			err = flush()
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("copying the audit log into %s: %w", l.s.name, err)
	}
	return n, nil
}

// PruneStats says what Prune removed.
type PruneStats struct {
	// Partitions are the months dropped, by partition name.
	Partitions []string
	// Entries counts the entries removed.
	Entries int64
}

// Prune removes the entries older than before, which must be the first
// instant of a month (UTC): it drops the partitions of the months before
// it, and rewrites the DEFAULT partition without its older rows (moving
// the rest into their months' partitions). Dropping is the only way rows
// leave the log; it is one transaction.
func (l *AuditLog) Prune(ctx context.Context, before time.Time) (PruneStats, error) {
	var st PruneStats
	if !before.Equal(monthOf(before)) {
		return st, fmt.Errorf("prune the audit log before the start of a month, not %s", before.Format(time.RFC3339))
	}
	err := pgx.BeginFunc(ctx, l.s.pool, func(tx pgx.Tx) error {
		if err := lockPartitions(ctx, tx); err != nil {
			return err
		}
		rows, _ := tx.Query(ctx, `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
			WHERE i.inhparent = 'bourdon_audit'::regclass AND c.relname ~ '^bourdon_audit_[0-9]{4}_[0-9]{2}$' ORDER BY 1`)
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, name := range names {
			if name >= partitionName(before) { // the names sort as their months
				continue
			}
			var n int64
			if err := tx.QueryRow(ctx, "SELECT count(*) FROM "+name).Scan(&n); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, "DROP TABLE "+name); err != nil {
				return err
			}
			st.Partitions = append(st.Partitions, name)
			st.Entries += n
		}
		n, err := rehomeDefault(ctx, tx, before)
		st.Entries += n
		return err
	})
	if err != nil {
		return PruneStats{}, fmt.Errorf("pruning the audit log in %w", l.s.failed(err))
	}
	return st, nil
}

// rehomeDefault rewrites the DEFAULT partition when it holds rows: the
// rows at or after before move to their months' partitions (created as
// needed), the older ones are dropped with the old partition; it returns
// how many were dropped. No row is ever updated or deleted.
func rehomeDefault(ctx context.Context, tx pgx.Tx, before time.Time) (int64, error) {
	var total int64
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM bourdon_audit_default").Scan(&total); err != nil || total == 0 {
		return 0, err
	}
	for _, sql := range []string{
		"ALTER TABLE bourdon_audit DETACH PARTITION bourdon_audit_default",
		"ALTER TABLE bourdon_audit_default RENAME TO bourdon_audit_default_old",
		"CREATE TABLE bourdon_audit_default PARTITION OF bourdon_audit DEFAULT",
	} {
		if _, err := tx.Exec(ctx, sql); err != nil {
			return 0, err
		}
	}
	rows, _ := tx.Query(ctx, "SELECT DISTINCT date_trunc('month', at, 'UTC') FROM bourdon_audit_default_old WHERE at >= $1", before)
	months, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		return 0, err
	}
	for _, m := range months {
		if err := createMonth(ctx, tx, monthOf(m)); err != nil {
			return 0, err
		}
	}
	tag, err := tx.Exec(ctx, `INSERT INTO bourdon_audit (at, seq, ts, agent, op, namespace, decision, detail)
		SELECT at, seq, ts, agent, op, namespace, decision, detail FROM bourdon_audit_default_old WHERE at >= $1`, before)
	if err != nil {
		return 0, err
	}
	if _, err := tx.Exec(ctx, "DROP TABLE bourdon_audit_default_old"); err != nil {
		return 0, err
	}
	return total - tag.RowsAffected(), nil
}

// AuditHealth is what bourdon doctor reports of a store's audit log.
type AuditHealth struct {
	// Insertable says that the connecting role may record entries.
	Insertable bool
	// Month is this month's partition, and MonthExists whether it is
	// there (without it, entries land in the DEFAULT partition).
	Month       string
	MonthExists bool
}

// Health says whether the connecting role may record entries and whether
// the partition of now's month exists, without recording anything.
func (l *AuditLog) Health(ctx context.Context, now time.Time) (AuditHealth, error) {
	h := AuditHealth{Month: partitionName(monthOf(now))}
	err := l.s.pool.QueryRow(ctx, `SELECT has_table_privilege('bourdon_audit', 'INSERT'), to_regclass($1) IS NOT NULL`,
		h.Month).Scan(&h.Insertable, &h.MonthExists)
	return h, l.s.failed(err)
}
