// Package postgres keeps a library in a PostgreSQL database: the store
// seam's second backend (see internal/memory/store), through a pgx pool.
//
// Manifests are rows holding their YAML bytes, digest and a version that
// grows on every write; archived versions and provenance records are
// append-only rows (a trigger refuses updates and deletes); staged writes
// and the exporters' records are rows too. Every Update is one
// transaction that first takes a transaction-scoped advisory lock on the
// agent (pg_advisory_xact_lock), so writers of one agent queue up in every
// process, creating the agent included, and a write is all there or not
// at all. A write to a manifest notifies the channel Channel with the
// agent id when it commits, and a write to a document DocumentsChannel
// with its name; Listen follows both.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// Channel is the channel every committed manifest write notifies, with
// the agent id as payload.
const Channel = "bourdon_manifests"

// IsURL reports whether s names a PostgreSQL store rather than a
// directory.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// CheckURL says what is wrong with raw as a store's URL, without
// connecting; the error never holds the password.
func CheckURL(raw string) error {
	if !IsURL(raw) {
		what := "it has no scheme"
		if scheme, _, ok := strings.Cut(raw, "://"); ok && validScheme(scheme) {
			what = "its scheme is " + scheme
		}
		return fmt.Errorf("want a postgres:// URL, such as postgres://user@host/db, but %s", what)
	}
	_, _, err := parseConfig(raw)
	return err
}

// validScheme reports whether s is a URL scheme (RFC 3986), so that it is
// safe to repeat in a message.
func validScheme(s string) bool {
	for i, r := range s {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return s != "" && len(s) <= 32
}

// Redact returns the URL without its password and query, for messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "postgres://(unparseable URL)"
	}
	u.RawQuery, u.Fragment = "", ""
	if u.User != nil {
		u.User = url.User(u.User.Username())
	}
	return u.String()
}

// Store is a library kept in one PostgreSQL database. It is safe for
// concurrent use.
type Store struct {
	pool *boundedPool
	url  string // the connection URL, for LISTEN connections
	name string // Redact(url), the prefix of manifest paths
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url and checks that its schema is this
// build's (see Migrate).
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, timeout, err := parseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(url), err)
	}
	if cfg.MaxConns < 4 {
		cfg.MaxConns = 4 // a promote holds a staged write's lock while it commits
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", Redact(url), err)
	}
	// Connections of its own (see connect) parse the URL again: without
	// the parameter that is bourdon's, which the server would refuse.
	s := &Store{pool: &boundedPool{Pool: pool, timeout: timeout}, url: withoutParam(url, timeoutParam), name: Redact(url)}
	if err := checkSchema(ctx, s.pool, url); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: %w", Redact(url), err)
	}
	return s, nil
}

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// ManifestPath is <redacted URL>/agents/<id>.l5.yaml.
func (s *Store) ManifestPath(id string) string {
	return s.name + "/agents/" + id + ".l5.yaml"
}

// Agents returns the agents with a manifest or archived versions.
func (s *Store) Agents(ctx context.Context) ([]string, error) {
	rows, _ := s.pool.Query(ctx, `SELECT agent_id FROM bourdon_manifests
		UNION SELECT agent_id FROM bourdon_versions ORDER BY 1`)
	return collect(s, rows, pgx.RowTo[string])
}

// Stamp is the version of one agent's manifest.
type Stamp struct {
	AgentID string
	Version int64
	Digest  string
}

// Versions returns every manifest's version, by agent id (a
// library.ManifestStore).
func (s *Store) Versions(ctx context.Context) (map[string]int64, error) {
	stamps, err := s.Stamps(ctx)
	out := make(map[string]int64, len(stamps))
	for _, st := range stamps {
		out[st.AgentID] = st.Version
	}
	return out, err
}

// Stamps returns every manifest's version and digest.
func (s *Store) Stamps(ctx context.Context) ([]Stamp, error) {
	rows, _ := s.pool.Query(ctx, "SELECT agent_id, version, digest FROM bourdon_manifests ORDER BY agent_id")
	return collect(s, rows, pgx.RowToStructByPos[Stamp])
}

func (s *Store) Manifest(ctx context.Context, id string) ([]byte, error) {
	return s.oneBytes(ctx, s.pool, "SELECT data FROM bourdon_manifests WHERE agent_id = $1", id)
}

// Update runs fn in one transaction holding agent id's advisory lock.
func (s *Store) Update(ctx context.Context, id string, fn func(store.Tx) error) error {
	return s.locked(ctx, "agent:"+id, func(ctx context.Context, tx pgx.Tx) error {
		return fn(&pgTx{s: s, ctx: ctx, tx: tx, id: id})
	})
}

// locked runs fn in a transaction holding the advisory lock named key,
// the whole of it bounded by the store's timeout (ctx, given to fn too).
func (s *Store) locked(ctx context.Context, key string, fn func(context.Context, pgx.Tx) error) error {
	ctx, cancel := s.pool.bound(ctx)
	defer cancel()
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.failed(err)
	}
	defer tx.Rollback(context.Background()) // a no-op once committed
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "bourdon:"+key); err != nil {
		return s.failed(err)
	}
	if err := fn(ctx, tx); err != nil {
		return err
	}
	return s.failed(tx.Commit(ctx))
}

// collect is pgx.CollectRows, naming the store in its error.
func collect[T any](s *Store, rows pgx.Rows, fn pgx.RowToFunc[T]) ([]T, error) {
	out, err := pgx.CollectRows(rows, fn)
	return out, s.failed(err)
}

func (s *Store) VersionIDs(ctx context.Context, id string) ([]string, error) {
	rows, _ := s.pool.Query(ctx, "SELECT version_id FROM bourdon_versions WHERE agent_id = $1 ORDER BY version_id", id)
	return collect(s, rows, pgx.RowTo[string])
}

func (s *Store) Version(ctx context.Context, id, version string) ([]byte, error) {
	return s.oneBytes(ctx, s.pool, "SELECT data FROM bourdon_versions WHERE agent_id = $1 AND version_id = $2", id, version)
}

func (s *Store) Provenance(ctx context.Context, id string) ([][]byte, error) {
	rows, _ := s.pool.Query(ctx, "SELECT record FROM bourdon_provenance WHERE agent_id = $1 ORDER BY seq", id)
	return collect(s, rows, func(r pgx.CollectableRow) ([]byte, error) {
		var rec string
		err := r.Scan(&rec)
		return []byte(rec), err
	})
}

// StagedPath is <redacted URL>/staging/<caller>/<id>.l5.yaml.
func (s *Store) StagedPath(caller, id string) string {
	return s.name + "/staging/" + caller + "/" + id + ".l5.yaml"
}

// UpdateStaged runs fn in one transaction holding the staged manifest's
// advisory lock.
func (s *Store) UpdateStaged(ctx context.Context, caller, id string, fn func(store.StagedTx) error) error {
	return s.locked(ctx, "staged:"+caller+"/"+id, func(ctx context.Context, tx pgx.Tx) error {
		return fn(&stagedTx{s: s, ctx: ctx, tx: tx, caller: caller, id: id})
	})
}

func (s *Store) ListStaged(ctx context.Context) ([]store.StagedEntry, error) {
	rows, _ := s.pool.Query(ctx, "SELECT caller, agent_id, staged_at FROM bourdon_staged ORDER BY caller, agent_id")
	return collect(s, rows, func(r pgx.CollectableRow) (store.StagedEntry, error) {
		var e store.StagedEntry
		err := r.Scan(&e.Caller, &e.AgentID, &e.Time)
		e.Path = s.StagedPath(e.Caller, e.AgentID)
		return e, err
	})
}

func (s *Store) Staged(ctx context.Context, caller, id string) ([]byte, error) {
	return s.oneBytes(ctx, s.pool, "SELECT data FROM bourdon_staged WHERE caller = $1 AND agent_id = $2", caller, id)
}

// oneBytes returns the one bytea a query selects (a manifest, a version,
// a record of owned rows), os.ErrNotExist for none. A value larger than a
// manifest may be is refused, as the directory backend refuses such a
// file.
func (s *Store) oneBytes(ctx context.Context, q querier, sql string, args ...any) ([]byte, error) {
	var data []byte
	err := q.QueryRow(ctx, sql, args...).Scan(&data)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, os.ErrNotExist
	case err != nil:
		return nil, s.failed(err)
	case len(data) > l5.MaxManifestBytes:
		return nil, fmt.Errorf("%d bytes, larger than the %d a manifest may be", len(data), l5.MaxManifestBytes)
	}
	return data, nil
}

// pgTx is one agent's state in a transaction holding its lock.
type pgTx struct {
	s   *Store
	ctx context.Context
	tx  pgx.Tx
	id  string
}

func (t *pgTx) Manifest() ([]byte, error) {
	return t.s.oneBytes(t.ctx, t.tx, "SELECT data FROM bourdon_manifests WHERE agent_id = $1", t.id)
}

func (t *pgTx) Archive(data []byte, digest string, now time.Time) (string, error) {
	for at := now.UTC(); ; at = at.Add(time.Microsecond) {
		v := store.VersionID(at, digest)
		tag, err := t.tx.Exec(t.ctx, `INSERT INTO bourdon_versions (agent_id, version_id, data) VALUES ($1, $2, $3)
			ON CONFLICT DO NOTHING`, t.id, v, data)
		if err != nil {
			return "", t.s.failed(err)
		}
		if tag.RowsAffected() == 1 {
			return v, nil
		}
	}
}

func (t *pgTx) Version(version string) ([]byte, error) {
	return t.s.oneBytes(t.ctx, t.tx, "SELECT data FROM bourdon_versions WHERE agent_id = $1 AND version_id = $2", t.id, version)
}

func (t *pgTx) Restore(version string, data []byte) error {
	_, err := t.tx.Exec(t.ctx, "INSERT INTO bourdon_versions (agent_id, version_id, data) VALUES ($1, $2, $3)", t.id, version, data)
	return t.s.failed(err)
}

func (t *pgTx) Record(change []byte) error {
	_, err := t.tx.Exec(t.ctx, "INSERT INTO bourdon_provenance (agent_id, record) VALUES ($1, $2)", t.id, string(change))
	return t.s.failed(err)
}

// Put writes the manifest, bumps its version and notifies Channel (which
// PostgreSQL delivers when the transaction commits, and only then).
func (t *pgTx) Put(data []byte, digest string) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO bourdon_manifests (agent_id, data, digest, version) VALUES ($1, $2, $3, 1)
		ON CONFLICT (agent_id) DO UPDATE SET data = excluded.data, digest = excluded.digest,
			version = bourdon_manifests.version + 1, updated_at = now()`, t.id, data, digest)
	if err != nil {
		return t.s.failed(err)
	}
	_, err = t.tx.Exec(t.ctx, "SELECT pg_notify($1, $2)", Channel, t.id)
	return t.s.failed(err)
}

func (t *pgTx) Owned() ([]byte, error) {
	return t.s.oneBytes(t.ctx, t.tx, "SELECT data FROM bourdon_export_owned WHERE agent_id = $1", t.id)
}

func (t *pgTx) PutOwned(data []byte) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO bourdon_export_owned (agent_id, data) VALUES ($1, $2)
		ON CONFLICT (agent_id) DO UPDATE SET data = excluded.data`, t.id, data)
	return t.s.failed(err)
}

type stagedTx struct {
	s          *Store
	ctx        context.Context
	tx         pgx.Tx
	caller, id string
}

func (t *stagedTx) Data() ([]byte, error) {
	return t.s.oneBytes(t.ctx, t.tx, "SELECT data FROM bourdon_staged WHERE caller = $1 AND agent_id = $2", t.caller, t.id)
}

func (t *stagedTx) Put(data []byte) error {
	_, err := t.tx.Exec(t.ctx, `INSERT INTO bourdon_staged (caller, agent_id, data) VALUES ($1, $2, $3)
		ON CONFLICT (caller, agent_id) DO UPDATE SET data = excluded.data, staged_at = now()`, t.caller, t.id, data)
	return t.s.failed(err)
}

func (t *stagedTx) Remove() error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM bourdon_staged WHERE caller = $1 AND agent_id = $2", t.caller, t.id)
	return t.s.failed(err)
}
