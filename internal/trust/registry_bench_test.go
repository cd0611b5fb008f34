package trust_test

import (
	"github.com/getbourdon/bourdon-go/internal/trust"

	"fmt"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// BenchmarkAuthenticate measures what the revision check of every request
// costs: Authenticate of one of 50 members, the registry unchanged, in a
// file (a stat through the directory) and in PostgreSQL (one query on a
// pooled connection). Compare the two in the same run:
//
//	go test -run '^$' -bench Authenticate -count 5 ./internal/trust/
func BenchmarkAuthenticate(b *testing.B) {
	run := func(b *testing.B, r *trust.Registry) {
		var tok string
		for i := range 50 {
			t, err := r.Add(fmt.Sprintf("member-%d", i), trust.TierQuarantined, nil)
			if err != nil {
				b.Fatal(err)
			}
			tok = t
		}
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if _, ok := r.Authenticate(tok); !ok {
				b.Fatal("refused")
			}
		}
	}
	b.Run("dir", func(b *testing.B) { run(b, trust.OpenRegistry(filepath.Join(b.TempDir(), "federation.yaml"))) })
	b.Run("postgres", func(b *testing.B) {
		url := pgtest.Migrated(b)
		run(b, trust.NewRegistry(pgtest.Open(b, url).Documents(), trust.RegistryDocument))
	})
}
