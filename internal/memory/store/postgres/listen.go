package postgres

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Listeners are what Listen calls back: Manifests with the agent id of
// every manifest write (Channel), Documents with the name of every
// document written or removed (DocumentsChannel). A nil one is a channel
// not listened to. Both are called from Listen's goroutine, one call at a
// time, and should return at once.
type Listeners struct {
	Manifests func(id string)
	Documents func(name string)
}

// Listen calls back on the listeners with every change any process
// commits to the store's database, until ctx ends, on one connection of
// its own (LISTEN on each channel a listener is set for). Notifications
// are not durable: after connecting, and after every reconnection, it
// calls each listener with "" ("anything may have changed"), so that a
// caller resyncs what it missed while the connection was down. A lost
// connection is retried, at most every few seconds, and logged; a silent
// one is pinged, so that a database that stopped answering is noticed
// within the store's timeout.
func (s *Store) Listen(ctx context.Context, on Listeners, log *slog.Logger) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	const firstBackoff = 100 * time.Millisecond
	backoff := firstBackoff
	for ctx.Err() == nil {
		listened, err := s.listenOnce(ctx, on)
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
func (s *Store) listenOnce(ctx context.Context, on Listeners) (listened bool, err error) {
	conn, err := s.connect(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.Background())
	calls := map[string]func(string){}
	for _, l := range []struct {
		channel string
		call    func(string)
	}{{Channel, on.Manifests}, {DocumentsChannel, on.Documents}} {
		if l.call == nil {
			continue
		}
		if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{l.channel}.Sanitize()); err != nil {
			return false, err
		}
		calls[l.channel] = l.call
	}
	for _, call := range calls {
		call("")
	}
	for {
		wait, cancel := context.WithTimeout(ctx, s.pool.timeout)
		n, err := conn.WaitForNotification(wait)
		cancel()
		switch {
		case err == nil:
			if call := calls[n.Channel]; call != nil {
				call(n.Payload)
			}
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
