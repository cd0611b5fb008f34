package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
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
	cfg, err := connConfig(s.url)
	if err != nil {
		return false, err
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{Channel}.Sanitize()); err != nil {
		return false, err
	}
	changed("")
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return true, err
		}
		changed(n.Payload)
	}
}

// connConfig configures one connection of its own (the listener's, a
// migration's) to a store's URL. The URL is parsed as the pool's, so that
// the pool's settings in it (pool_max_conns and the like) are not sent to
// the server, which refuses them as run-time parameters; without
// connect_timeout, connecting gives up after 5 s.
func connConfig(url string) (*pgx.ConnConfig, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		cfg.ConnConfig.ConnectTimeout = 5 * time.Second
	}
	return cfg.ConnConfig, nil
}
