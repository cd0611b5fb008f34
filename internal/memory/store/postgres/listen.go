package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Listen calls changed with the agent id of every manifest write any
// process commits to the store's database, until ctx ends, on a
// connection of its own (LISTEN Channel). Notifications are not durable:
// after connecting, and after every reconnection, it calls changed("")
// ("anything may have changed"), so that a caller resyncs what it missed
// while the connection was down. A lost connection is retried, at most
// every few seconds, and logged.
func (s *Store) Listen(ctx context.Context, changed func(id string), log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	const firstBackoff = 100 * time.Millisecond
	backoff := firstBackoff
	for ctx.Err() == nil {
		listened, err := s.listenOnce(ctx, changed)
		if ctx.Err() != nil {
			return
		}
		if listened {
			backoff = firstBackoff // an outage's backoff is not the next one's
		}
		log.Warn("lost the store's change notifications; reconnecting", "store", s.name, "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// listenOnce listens on one connection until it fails or ctx ends;
// listened says whether it got as far as listening.
func (s *Store) listenOnce(ctx context.Context, changed func(id string)) (listened bool, err error) {
	conn, err := s.connect(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize()); err != nil {
		return false, err
	}
	changed("")
	for {
		wait, cancel := context.WithTimeout(ctx, s.pool.timeout)
		n, err := conn.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			changed(n.Payload)
			continue
		case ctx.Err() != nil || !pgconn.Timeout(err):
			return true, err
		}
		// Silence: a quiet library, or a database that stopped
		// answering (a partition keeps the connection open, so only
		// asking tells).
		ping, cancel := context.WithTimeout(ctx, s.pool.timeout)
		err = conn.Ping(ping)
		cancel()
		if err != nil {
			return true, s.failed(err)
		}
	}
}

// connect opens a connection of its own to the store's database, outside
// the pool, with the pool's connect timeout. The URL is parsed as the
// pool's, so that the pool's settings in it (pool_max_conns and the like)
// are not sent to the server, which refuses them as run-time parameters.
func (s *Store) connect(ctx context.Context) (*pgx.Conn, error) {
	cfg, _, err := parseConfig(s.url)
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg.ConnConfig)
}
