package postgres

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// DocumentsChannel is the channel every committed document write or
// removal notifies, with the document's name as payload.
const DocumentsChannel = "bourdon_documents"

// Documents are the store's documents (see store.Documents), rows of
// bourdon_documents. A revision is the number the row's last write took
// from one sequence.
type Documents struct{ s *Store }

var _ store.Documents = Documents{}

// Documents returns the store's documents.
func (s *Store) Documents() Documents { return Documents{s} }

// Where is <redacted URL>/documents/<name>.
func (d Documents) Where(name string) string { return d.s.name + "/documents/" + name }

func revision(n int64) store.Revision { return store.Revision(strconv.FormatInt(n, 10)) }

// Read returns the row's bytes unless they are larger than limit, which
// is checked before they are sent.
func (d Documents) Read(ctx context.Context, name string, limit int64) ([]byte, store.Revision, error) {
	if err := store.CheckDocumentName(name); err != nil {
		return nil, store.NoRevision, err
	}
	if limit <= 0 {
		limit = 1 << 40
	}
	var (
		data []byte
		size int64
		rev  int64
	)
	err := d.s.pool.QueryRow(ctx, `SELECT CASE WHEN octet_length(data) <= $2::bigint THEN data END, octet_length(data), revision
		FROM bourdon_documents WHERE name = $1`, name, limit).Scan(&data, &size, &rev)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return nil, store.NoRevision, os.ErrNotExist
	case err != nil:
		return nil, store.NoRevision, d.s.failed(err)
	case size > limit:
		return nil, store.NoRevision, &fsutil.TooLargeError{Path: d.Where(name), Limit: limit}
	}
	if data == nil {
		data = []byte{}
	}
	return data, revision(rev), nil
}

// Revision selects the row's revision only.
func (d Documents) Revision(ctx context.Context, name string) (store.Revision, error) {
	if err := store.CheckDocumentName(name); err != nil {
		return store.NoRevision, err
	}
	var rev int64
	err := d.s.pool.QueryRow(ctx, "SELECT revision FROM bourdon_documents WHERE name = $1", name).Scan(&rev)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return store.NoRevision, nil
	case err != nil:
		return store.NoRevision, d.s.failed(err)
	}
	return revision(rev), nil
}

// Write upserts the row with a new revision and notifies DocumentsChannel
// when it commits.
func (d Documents) Write(ctx context.Context, name string, data []byte) (store.Revision, error) {
	if err := store.CheckDocumentName(name); err != nil {
		return store.NoRevision, err
	}
	if data == nil {
		data = []byte{} // the column is NOT NULL; an empty document is a document
	}
	var rev int64
	err := pgx.BeginFunc(ctx, d.s.pool, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO bourdon_documents (name, data) VALUES ($1, $2)
			ON CONFLICT (name) DO UPDATE SET data = excluded.data,
				revision = nextval('bourdon_document_revisions'), updated_at = now()
			RETURNING revision`, name, data).Scan(&rev)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "SELECT pg_notify($1, $2)", DocumentsChannel, name)
		return err
	})
	if err != nil {
		return store.NoRevision, d.s.failed(err)
	}
	return revision(rev), nil
}

// Remove deletes the row and notifies DocumentsChannel.
func (d Documents) Remove(ctx context.Context, name string) error {
	if err := store.CheckDocumentName(name); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, d.s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, "DELETE FROM bourdon_documents WHERE name = $1", name)
		if err != nil || tag.RowsAffected() == 0 {
			return err
		}
		_, err = tx.Exec(ctx, "SELECT pg_notify($1, $2)", DocumentsChannel, name)
		return err
	})
	return d.s.failed(err)
}

// List selects the rows whose names are dir + "/" + a name without a
// slash.
func (d Documents) List(ctx context.Context, dir string) ([]store.DocumentInfo, error) {
	prefix := ""
	if dir != "" {
		if err := store.CheckDocumentName(dir); err != nil {
			return nil, err
		}
		prefix = dir + "/"
	}
	// Names are compared as bytes (COLLATE "C"), so that the order is
	// the directory backend's and the prefix test is exact.
	rows, _ := d.s.pool.Query(ctx, `SELECT name, revision, updated_at FROM bourdon_documents
		WHERE starts_with(name COLLATE "C", $1) AND strpos(substr(name, length($1) + 1), '/') = 0
		ORDER BY name COLLATE "C"`, prefix)
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (store.DocumentInfo, error) {
		var (
			info store.DocumentInfo
			rev  int64
			at   time.Time
		)
		err := r.Scan(&info.Name, &rev, &at)
		info.Revision, info.Modified = revision(rev), at
		return info, err
	})
	if err != nil {
		return nil, d.s.failed(err)
	}
	return out, nil
}

// Lock takes a session-level advisory lock on a connection of its own
// (not the pool's, so that holders of locks can never take every pooled
// connection from the writes they wait to make). Unlock releases the lock
// and closes the connection; a connection lost meanwhile releases the
// lock with it. Taking the lock is bounded by the store's timeout.
func (d Documents) Lock(ctx context.Context, name string) (func(), error) {
	if err := store.CheckDocumentName(name); err != nil {
		return nil, err
	}
	// Connecting and waiting for the lock are bounded as one store
	// operation: a holder that never lets go, or a database that stops
	// answering, is an error after the store's timeout, not a hang.
	bounded, cancel := d.s.pool.bound(ctx)
	defer cancel()
	conn, err := d.s.connect(bounded)
	if err != nil {
		return nil, d.s.failed(err)
	}
	if _, err := conn.Exec(bounded, "SELECT pg_advisory_lock(hashtextextended($1, 0))", "bourdon:doc:"+name); err != nil {
		conn.Close(context.Background())
		return nil, d.s.failed(err)
	}
	return func() {
		// Closing the session releases its advisory locks.
		conn.Close(context.Background())
	}, nil
}
