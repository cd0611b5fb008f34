package turn

// Benchmarks of compile_codex_turn:
//
//	go test -run '^$' -bench . -benchtime 2s ./internal/recall/turn/
//
// BenchmarkCompileSeed runs over the vectors' seed library;
// BenchmarkCompileLarge over the libgen.Benchmark library (100 agents x
// 1,000 entities x 500 sessions), generated once into os.TempDir() under
// the name the federation benchmarks use (skipped with -short).

import (
	"context"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

func BenchmarkCompileSeed(b *testing.B) {
	v := loadVectors(b)
	store := seedStore(b, v.SeedLibrary)
	now := frozen(b, v.FrozenClock)
	home := b.TempDir()
	c := New(store, Env{Now: func() time.Time { return now }, CodexHome: home})
	cwd := "/projects/bourdon"
	req := Request{Prompt: "what's next on Bourdon", Cwd: &cwd, AccessLevel: "team", MaxItems: DefaultMaxItems, MaxChars: DefaultMaxChars}
	if br, err := c.Compile(context.Background(), req); err != nil || len(br.Items) != 2 {
		b.Fatalf("%v %v", br, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Compile(context.Background(), req)
	}
}

var benchToday = libgen.BenchmarkToday

// benchLibrary returns the cached benchmark library.
func benchLibrary(b *testing.B) string { return libgen.BenchmarkLibrary(b) }

func BenchmarkCompileLarge(b *testing.B) {
	lib, err := library.Open(benchLibrary(b), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { lib.Close() })
	store := federation.New(lib)
	store.ListAgents(nil)
	c := New(store, Env{Now: func() time.Time { return benchToday }, CodexHome: "-"})
	cwd := "/home/dev/repos/kestrel-7"
	req := Request{Prompt: "continue the " + libgen.EntityName(1234) + " refactor of the kestrel module", Cwd: &cwd,
		AccessLevel: "team", MaxItems: DefaultMaxItems, MaxChars: DefaultMaxChars}
	if br, err := c.Compile(context.Background(), req); err != nil || len(br.Items) == 0 {
		b.Fatalf("%v %v", br, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.Compile(context.Background(), req)
	}
}
