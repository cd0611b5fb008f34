package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Health is what a database says of itself to bourdon doctor: the
// server, the schema this build would read, and whether pgvector is
// there.
type Health struct {
	// Server is the server's version (server_version).
	Server string
	// Schema is the schema version applied to the database (0: none);
	// Known is this build's (SchemaVersion).
	Schema, Known int
	// Pending names the migrations this build has and the database has
	// not applied, in order (bourdon store migrate applies them).
	Pending []string
	// Vectors is what the server offers for vectors.
	Vectors Vectors
}

// Vectors says whether the server has pgvector: Available, the version
// it could install (pg_available_extensions); Installed, the version
// installed in this database ("" for none).
type Vectors struct{ Available, Installed string }

// String is how doctor and the start-up log put it. bourdon keeps its
// vectors in memory whatever the server has (see docs/deploy.md).
func (v Vectors) String() string {
	switch {
	case v.Installed != "":
		return "in memory (pgvector " + v.Installed + " installed, not used)"
	case v.Available != "":
		return "in memory (pgvector " + v.Available + " available, not used)"
	}
	return "in memory (pgvector not available)"
}

// Inspect connects to the database at url and reports its Health,
// without requiring its schema to be this build's (Open does). An error
// is the database's not answering (within the connect timeout and the
// operation bound, see DefaultTimeout), and never holds the password.
func Inspect(ctx context.Context, url string) (*Health, error) {
	cfg, timeout, err := parseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(url), err)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.ConnConfig.ConnectTimeout+timeout)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", Redact(url), err)
	}
	defer conn.Close(context.Background())
	h := &Health{Known: SchemaVersion()}
	fail := func(err error) (*Health, error) { return nil, fmt.Errorf("%s: %w", Redact(url), err) }
	var exists bool
	err = conn.QueryRow(ctx, `SELECT current_setting('server_version'),
		to_regclass('bourdon_schema_migrations') IS NOT NULL`).Scan(&h.Server, &exists)
	if err != nil {
		return fail(err)
	}
	if exists {
		if h.Schema, err = schemaVersion(ctx, conn); err != nil {
			return fail(err)
		}
	}
	if h.Vectors, err = vectors(ctx, conn); err != nil {
		return fail(err)
	}
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.version > h.Schema {
			h.Pending = append(h.Pending, m.name)
		}
	}
	return h, nil
}

// Vectors reports what the store's server offers for vectors.
func (s *Store) Vectors(ctx context.Context) (Vectors, error) {
	v, err := vectors(ctx, s.pool)
	return v, s.failed(err)
}

// vectors reads pgvector's row of pg_available_extensions, if any.
func vectors(ctx context.Context, q querier) (Vectors, error) {
	var available, installed *string
	err := q.QueryRow(ctx, "SELECT default_version, installed_version FROM pg_available_extensions WHERE name = 'vector'").Scan(&available, &installed)
	if errors.Is(err, pgx.ErrNoRows) {
		return Vectors{}, nil
	}
	var v Vectors
	if available != nil {
		v.Available = *available
	}
	if installed != nil {
		v.Installed = *installed
	}
	return v, err
}
