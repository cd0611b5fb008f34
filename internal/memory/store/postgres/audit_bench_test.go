package postgres_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
	"github.com/getbourdon/bourdon-go/internal/trust"
)

// BenchmarkAudit measures recording one entry, and reading the newest 50
// of a log of 20,000 (bourdon audit's default), in the file and in
// PostgreSQL, in one run; compare the ns/op of each pair.
//
//	go test -run '^$' -bench Audit ./internal/memory/store/postgres/
func BenchmarkAudit(b *testing.B) {
	logs := map[string]func(b *testing.B) *trust.Audit{
		"file":     func(b *testing.B) *trust.Audit { return trust.OpenAudit(filepath.Join(b.TempDir(), "audit.jsonl")) },
		"postgres": func(b *testing.B) *trust.Audit { return trust.NewAudit(pgtest.Open(b, pgtest.Migrated(b)).AuditLog()) },
	}
	entry := func(i int) trust.Entry {
		return trust.Entry{Agent: fmt.Sprintf("agent-%d", i%20), Op: "find_entity", Namespace: "team", Decision: trust.Allow}
	}
	for _, name := range []string{"file", "postgres"} {
		b.Run("record/"+name, func(b *testing.B) {
			a := logs[name](b)
			b.ResetTimer()
			for i := range b.N {
				if err := a.Record(entry(i)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	for _, name := range []string{"file", "postgres"} {
		b.Run("recent50/"+name, func(b *testing.B) {
			a := logs[name](b)
			for i := range 20000 {
				if err := a.Record(entry(i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for range b.N {
				if es, err := a.Entries(trust.AuditFilter{Limit: 50}); err != nil || len(es) != 50 {
					b.Fatal(len(es), err)
				}
			}
		})
	}
}
