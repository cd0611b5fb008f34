package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The bounds that make a database host that stops answering (a network
// partition: nothing refused, nothing reset, just silence) an error
// rather than a hang:
//
//   - DefaultConnectTimeout bounds a new connection, startup and
//     authentication included (connect_timeout=N in the URL, in seconds,
//     sets it);
//   - DefaultTimeout bounds every store operation, on the context of each
//     statement: one read, or one write's whole transaction, waiting for
//     the agent's lock included; the listening connection, after that
//     long without a notification, checks that the database still
//     answers, within the same bound (bourdon_timeout=DURATION in the
//     URL, such as 30s, sets it).
//
// TCP keepalives cannot stand in for these: they notice a dead peer only
// when nothing is in flight, after minutes, and never a peer whose kernel
// still answers while the database behind it hangs.
const (
	DefaultConnectTimeout = 5 * time.Second
	DefaultTimeout        = 10 * time.Second
)

// timeoutParam is the URL parameter that sets the operation bound; it is
// this package's, never sent to the server.
const timeoutParam = "bourdon_timeout"

// parseConfig parses a store's URL into a pool configuration with the
// bounds above, and returns the operation bound. Errors never hold the
// password.
func parseConfig(raw string) (*pgxpool.Config, time.Duration, error) {
	cfg, err := pgxpool.ParseConfig(raw)
	if err != nil {
		return nil, 0, err // pgx masks the password in its parse errors
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	timeout := DefaultTimeout
	if v, ok := cfg.ConnConfig.RuntimeParams[timeoutParam]; ok {
		delete(cfg.ConnConfig.RuntimeParams, timeoutParam)
		if timeout, err = time.ParseDuration(v); err != nil || timeout <= 0 {
			return nil, 0, fmt.Errorf("%s=%q: want a positive duration, such as 30s", timeoutParam, v)
		}
	}
	return cfg, timeout, nil
}

// withoutParam returns the URL raw without its query parameter name.
func withoutParam(raw, name string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw // parseConfig took it: this does not happen
	}
	q := u.Query()
	if !q.Has(name) {
		return raw
	}
	q.Del(name)
	u.RawQuery = q.Encode()
	return u.String()
}

// boundedPool is a pool whose every statement ends within timeout: a
// statement the database does not answer in time fails, and pgx closes
// its connection (its state is unknown), so the pool dials afresh. A
// transaction's statements (Begin, pgx.BeginFunc) are bounded one by one
// too; locked also bounds a write's transaction as a whole.
type boundedPool struct {
	*pgxpool.Pool
	timeout time.Duration
}

func (p *boundedPool) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, p.timeout)
}

func (p *boundedPool) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	ctx, cancel := p.bound(ctx)
	defer cancel()
	return p.Pool.Exec(ctx, sql, args...)
}

func (p *boundedPool) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	ctx, cancel := p.bound(ctx)
	rows, err := p.Pool.Query(ctx, sql, args...)
	return &boundedRows{Rows: rows, cancel: cancel}, err
}

func (p *boundedPool) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	ctx, cancel := p.bound(ctx)
	return &boundedRow{Row: p.Pool.QueryRow(ctx, sql, args...), cancel: cancel}
}

func (p *boundedPool) Begin(ctx context.Context) (pgx.Tx, error) {
	bounded, cancel := p.bound(ctx)
	defer cancel()
	tx, err := p.Pool.Begin(bounded)
	if err != nil {
		return nil, err
	}
	return &boundedTx{Tx: tx, p: p}, nil
}

// boundedTx is a transaction of a boundedPool: each statement, COMMIT and
// ROLLBACK included, is bounded as the pool's are.
type boundedTx struct {
	pgx.Tx
	p *boundedPool
}

func (t *boundedTx) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	ctx, cancel := t.p.bound(ctx)
	defer cancel()
	return t.Tx.Exec(ctx, sql, args...)
}

func (t *boundedTx) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	ctx, cancel := t.p.bound(ctx)
	rows, err := t.Tx.Query(ctx, sql, args...)
	return &boundedRows{Rows: rows, cancel: cancel}, err
}

func (t *boundedTx) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	ctx, cancel := t.p.bound(ctx)
	return &boundedRow{Row: t.Tx.QueryRow(ctx, sql, args...), cancel: cancel}
}

func (t *boundedTx) Commit(ctx context.Context) error {
	ctx, cancel := t.p.bound(ctx)
	defer cancel()
	return t.Tx.Commit(ctx)
}

func (t *boundedTx) Rollback(ctx context.Context) error {
	ctx, cancel := t.p.bound(ctx)
	defer cancel()
	return t.Tx.Rollback(ctx)
}

// boundedRows releases its deadline when closed (pgx.CollectRows closes).
type boundedRows struct {
	pgx.Rows
	cancel context.CancelFunc
}

func (r *boundedRows) Close() {
	r.Rows.Close()
	r.cancel()
}

// boundedRow releases its deadline once scanned.
type boundedRow struct {
	pgx.Row
	cancel context.CancelFunc
}

func (r *boundedRow) Scan(dest ...any) error {
	defer r.cancel()
	return r.Row.Scan(dest...)
}

// failed names the store in an error of the database (a lost connection,
// a server shutting down, no answer in time), so that a caller's tool
// error says what failed; nil stays nil.
func (s *Store) failed(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return fmt.Errorf("the store %s failed: no answer within %s: %w", s.name, s.pool.timeout, err)
	}
	return fmt.Errorf("the store %s failed: %w", s.name, err)
}
