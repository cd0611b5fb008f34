package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The schema's migrations, applied in the order of their number
// (migrations/NNNN_name.sql); the schema version is the highest applied.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		num, _, _ := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("migration %s: the name must start with its number", base)
		}
		data, err := migrationFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: base, sql: string(data)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	return out, nil
}

// SchemaVersion is the schema version this build writes and reads.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// NewerSchemaError is a database whose schema a newer bourdon migrated.
type NewerSchemaError struct{ Database, Known int }

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("the database's schema is version %d, newer than this bourdon knows (%d): upgrade bourdon; nothing was changed", e.Database, e.Known)
}

// migrationsLock serialises migrations of one database across processes.
const migrationsLock = 0x626f7572646f6e // "bourdon"

const createMigrations = `CREATE TABLE IF NOT EXISTS bourdon_schema_migrations (
	version    integer PRIMARY KEY,
	name       text NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`

// Migrate brings the database at url to this build's schema version, in
// one transaction, and returns the versions it applied. A database with a
// newer schema is a *NewerSchemaError, and is left alone.
func Migrate(ctx context.Context, url string) ([]int, error) {
	cfg, err := connConfig(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Redact(url), err)
	}
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", Redact(url), err)
	}
	defer conn.Close(ctx)
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	var applied []int
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", migrationsLock); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, createMigrations); err != nil {
			return err
		}
		current, err := schemaVersion(ctx, tx)
		if err != nil {
			return err
		}
		if known := ms[len(ms)-1].version; current > known {
			return &NewerSchemaError{Database: current, Known: known}
		}
		for _, m := range ms {
			if m.version <= current {
				continue
			}
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("migration %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, "INSERT INTO bourdon_schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
				return err
			}
			applied = append(applied, m.version)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applied, nil
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// schemaVersion returns the highest migration applied (0 for none).
func schemaVersion(ctx context.Context, q querier) (int, error) {
	var v int
	err := q.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM bourdon_schema_migrations").Scan(&v)
	return v, err
}

// checkSchema refuses a database not at this build's schema version.
func checkSchema(ctx context.Context, pool *pgxpool.Pool, url string) error {
	var exists bool
	if err := pool.QueryRow(ctx, "SELECT to_regclass('bourdon_schema_migrations') IS NOT NULL").Scan(&exists); err != nil {
		return err
	}
	current := 0
	if exists {
		var err error
		if current, err = schemaVersion(ctx, pool); err != nil {
			return err
		}
	}
	known := SchemaVersion()
	switch {
	case current > known:
		return &NewerSchemaError{Database: current, Known: known}
	case current < known:
		return fmt.Errorf("the database's schema is version %d, this bourdon needs %d: run `bourdon store migrate --store %s`", current, known, Redact(url))
	}
	return nil
}
