package postgres_test

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/commit"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store/postgres"
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

// BenchmarkReplicaLag measures how long a write through one replica takes
// to be read through another (two stores and libraries on one database,
// the reader fed by Listen): from the commit's return to the first
// Snapshot of the reader that holds it. It reports the p50 and p99.
//
//	go test -run '^$' -bench ReplicaLag -benchtime 200x ./internal/memory/store/postgres/
func BenchmarkReplicaLag(b *testing.B) {
	url := pgtest.Migrated(b)
	writer := commit.OnStore(pgtest.Open(b, url))
	reader := pgtest.Open(b, url)
	lib, err := library.OpenStore(b.TempDir(), reader, time.Hour, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listening := make(chan struct{}, 1)
	go reader.Listen(ctx, postgres.Listeners{Manifests: func(id string) {
		lib.Notify()
		if id == "" {
			listening <- struct{}{}
		}
	}}, nil)
	<-listening
	other := "other"
	lags := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprintf("e%d", i)
		if _, err := writer.Commit(ctx, commit.Request{AgentID: "a", AgentType: &other, Entities: []any{map[string]any{"name": name}}}); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for {
			if a, ok := lib.Snapshot().Agent("a"); ok && len(a.Manifest.Entities) == i+1 {
				break
			}
			runtime.Gosched()
		}
		lags = append(lags, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lags[len(lags)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkVectorQueryFloor measures the least a vector search in the
// database could cost a replica: one round trip on loopback that sends a
// 128-dimension query vector (the docs embedder's) and reads back ten
// ids, with no search at all. docs/deploy.md compares it with a whole
// in-memory docs_search (BenchmarkSearchLearn, internal/recall/docsearch)
// run in the same invocation:
//
//	go test -run '^$' -bench 'VectorQueryFloor|SearchLearn' ./internal/memory/store/postgres/ ./internal/recall/docsearch/
func BenchmarkVectorQueryFloor(b *testing.B) {
	pg := pgtest.Open(b, pgtest.Migrated(b))
	q := make([]float32, 128)
	for i := range q {
		q[i] = float32(i) / 128
	}
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if err := pg.QueryFloor(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
}
