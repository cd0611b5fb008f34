package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// QueryFloor sends q and reads back ten ids, searching nothing: the floor
// of any vector query the database could answer (BenchmarkVectorQueryFloor).
func (s *Store) QueryFloor(ctx context.Context, q []float32) error {
	rows, _ := s.pool.Query(ctx, "SELECT g FROM generate_series(1, 10) g WHERE cardinality($1::float4[]) = 128", q)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err == nil && len(ids) != 10 {
		err = pgx.ErrNoRows
	}
	return err
}
