package libgen

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Cached returns a directory under the system temporary directory holding
// the library of spec, writing it on first use and reusing it afterwards,
// also across processes. The directory's name encodes the spec and a hash
// of the first manifest, so a change to the generator gets a new
// directory. A library is written elsewhere and renamed into place whole,
// so a directory with the final name is always complete. spec.Today must
// be set, or the cached dates would age.
func Cached(spec Spec) (string, error) {
	if spec.Today.IsZero() {
		return "", fmt.Errorf("libgen.Cached needs spec.Today")
	}
	first, err := yaml11.Encode(Manifest("agent-000", 0, spec, spec.Today))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(first)
	name := fmt.Sprintf("bourdon-bench-%da-%de-%ds-%dw-%dn-seed%d-%s-%x",
		spec.Agents, spec.Entities, spec.Sessions, spec.Workstreams, spec.Notes, spec.Seed,
		spec.Today.Format("20060102"), sum[:4])
	dir := filepath.Join(os.TempDir(), name)
	if _, err := os.Stat(filepath.Join(dir, "agents")); err == nil {
		return dir, nil
	}
	tmp, err := os.MkdirTemp("", name+".tmp-")
	if err != nil {
		return "", err
	}
	if _, err := Write(tmp, spec); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have won the race; use its copy.
		os.RemoveAll(tmp)
		if _, serr := os.Stat(filepath.Join(dir, "agents")); serr != nil {
			return "", err
		}
	}
	return dir, nil
}

// BenchmarkToday is the day the cached benchmark library is dated from, so
// that its sessions and a store's 14-day window never drift apart.
var BenchmarkToday = time.Date(2026, 6, 30, 9, 0, 0, 0, time.UTC)

// BenchmarkLibrary returns the cached Benchmark library dated
// BenchmarkToday, for benchmarks: it skips in -short mode and fails tb if
// the library cannot be written.
func BenchmarkLibrary(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("benchmark library skipped in -short mode")
	}
	spec := Benchmark
	spec.Today = BenchmarkToday
	dir, err := Cached(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}
