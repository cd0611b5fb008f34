package postgres_test

import (
	"context"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// BenchmarkColdStart measures a replica's cold start: loading every
// manifest of the benchmark library (100 agents x 1,000 entities x 500
// sessions) from its directory and from PostgreSQL, in one run; compare
// the two ns/op.
//
//	go test -run '^$' -bench ColdStart -benchtime 3x ./internal/memory/store/postgres/
func BenchmarkColdStart(b *testing.B) {
	dir := libgen.BenchmarkLibrary(b)
	b.Run("dir", func(b *testing.B) {
		for range b.N {
			lib, err := library.Open(dir, nil)
			if err != nil || lib.Snapshot().Len() != libgen.Benchmark.Agents {
				b.Fatal(err)
			}
			lib.Close()
		}
	})
	b.Run("postgres", func(b *testing.B) {
		pg := pgtest.Open(b, pgtest.Migrated(b))
		if _, err := commit.Copy(context.Background(), commit.New(dir).Store(), pg); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			lib, err := library.OpenStore(b.TempDir(), pg, 0, nil)
			if err != nil || lib.Snapshot().Len() != libgen.Benchmark.Agents {
				b.Fatal(err)
			}
			lib.Close()
		}
	})
}
