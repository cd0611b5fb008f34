package federation

// Benchmarks for the performance targets, over the libgen.Benchmark library
// (100 agents x 1,000 entities x 500 sessions). They only run with -bench
// and are skipped with -short:
//
//	go test -run '^$' -bench . -benchtime 2s ./internal/memory/federation/
//
// The library is generated once, with a fixed "today", into a directory of
// os.TempDir() named after the spec and a hash of the first manifest (so a
// change to libgen or yaml11 gets a new directory), and reused by later
// runs. Benchmarks never write into it: the reload benchmark works on a
// private copy.

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
	"github.com/getbourdon/bourdon-go/internal/testkit/libgen"
)

var benchToday = libgen.BenchmarkToday

// benchLibrary returns the cached benchmark library.
func benchLibrary(b *testing.B) string { return libgen.BenchmarkLibrary(b) }

// openBenchStore opens dir with the fixed clock and indexes it.
func openBenchStore(b *testing.B, dir string) *Store {
	b.Helper()
	lib, err := library.Open(dir, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { lib.Close() })
	s := New(lib)
	s.Now = func() time.Time { return benchToday }
	s.ListAgents(nil) // load and index before the timer starts
	return s
}

// sharedName returns the entity name known to the most agents, the
// costliest lookup of the library.
func sharedName(s *Store) string {
	agents := map[string]map[string]bool{}
	names := map[string]string{}
	snap := s.Snapshot()
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		for _, e := range a.Manifest.Entities {
			k := Key(e.Name)
			if agents[k] == nil {
				agents[k] = map[string]bool{}
				names[k] = e.Name
			}
			agents[k][id] = true
		}
	}
	best := ""
	for k, ids := range agents {
		if best == "" || len(ids) > len(agents[best]) || (len(ids) == len(agents[best]) && k < best) {
			best = k
		}
	}
	return names[best]
}

// libraryBytes returns the total size of the manifests of dir.
func libraryBytes(b *testing.B, dir string) int64 {
	b.Helper()
	var n int64
	err := filepath.WalkDir(filepath.Join(dir, "agents"), func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkColdLoad opens the whole library (read, parse, validate every
// manifest) and builds the federation indexes with the first query: the
// time from start to the first answer. open-ms and index-ms split it.
func BenchmarkColdLoad(b *testing.B) {
	dir := benchLibrary(b)
	b.SetBytes(libraryBytes(b, dir))
	var open, index time.Duration
	for b.Loop() {
		t0 := time.Now()
		lib, err := library.Open(dir, nil)
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		s := New(lib)
		s.Now = func() time.Time { return benchToday }
		if n := len(s.ListAgents(nil)); n != libgen.Benchmark.Agents {
			b.Fatalf("loaded %d agents, want %d", n, libgen.Benchmark.Agents)
		}
		t2 := time.Now()
		open += t1.Sub(t0)
		index += t2.Sub(t1)
		lib.Close()
	}
	b.ReportMetric(open.Seconds()*1e3/float64(b.N), "open-ms/op")
	b.ReportMetric(index.Seconds()*1e3/float64(b.N), "index-ms/op")
}

// BenchmarkReloadOneManifest rewrites one agent's manifest with a renamed
// entity (temporary file and rename, outside the timer) and times the next
// query, which must notice the change, read, parse and index that one file
// and answer with the new name.
func BenchmarkReloadOneManifest(b *testing.B) {
	src := benchLibrary(b)
	dir := b.TempDir()
	copyLibrary(b, src, dir)
	s := openBenchStore(b, dir)

	const placeholder = "Bench Reload 000000"
	path := filepath.Join(dir, "agents", "agent-050"+library.ManifestSuffix)
	template := renameFirstEntity(b, path, placeholder)
	tmp := filepath.Join(dir, "agents", ".bench-reload.tmp")
	gen := s.Snapshot().Generation

	rev := 0
	var got []EntityMatch
	for b.Loop() {
		b.StopTimer()
		if rev > 0 && len(got) != 1 {
			b.Fatalf("revision %d: find_entity returned %d matches, want 1", rev, len(got))
		}
		rev++
		name := fmt.Sprintf("Bench Reload %06d", rev)
		data := bytes.Replace(template, []byte(placeholder), []byte(name), 1)
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		got = s.FindEntity(name, visibility.Private, nil)
	}
	if len(got) != 1 {
		b.Fatalf("revision %d: find_entity returned %d matches, want 1", rev, len(got))
	}
	if reloads := s.Snapshot().Generation - gen; reloads != uint64(rev) {
		b.Fatalf("%d rewrites produced %d new snapshots", rev, reloads)
	}
}

// renameFirstEntity returns the manifest at path with its first entity
// renamed to name.
func renameFirstEntity(b *testing.B, path, name string) []byte {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	m, _ := doc.(*yaml11.Map)
	rows, _ := m.Value(l5.KeyEntities).([]any)
	if len(rows) == 0 {
		b.Fatalf("%s has no entities", path)
	}
	rows[0].(*yaml11.Map).Set("name", name)
	out, err := yaml11.Encode(m)
	if err != nil {
		b.Fatal(err)
	}
	return out
}

// copyLibrary copies the manifests of src into dst.
func copyLibrary(b *testing.B, src, dst string) {
	b.Helper()
	entries, err := os.ReadDir(filepath.Join(src, "agents"))
	if err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dst, "agents"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, "agents", e.Name()))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, "agents", e.Name()), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFindEntity looks up names at team level: the name known to
// the most agents, and every distinct entity name of the library in turn
// (what go run ./bench times).
func BenchmarkFindEntity(b *testing.B) {
	s := openBenchStore(b, benchLibrary(b))
	b.Run("most-shared", func(b *testing.B) {
		name := sharedName(s)
		var got []EntityMatch
		for b.Loop() {
			got = s.FindEntity(name, visibility.Team, nil)
		}
		if len(got) == 0 {
			b.Fatalf("no match for %q", name)
		}
		b.ReportMetric(float64(len(got[0].Agents)), "agents")
	})
	b.Run("all-names", func(b *testing.B) {
		names := allNames(s)
		i, matched := 0, 0
		for b.Loop() {
			got := s.FindEntity(names[i%len(names)], visibility.Team, nil)
			i++
			matched += len(got)
		}
		if matched == 0 {
			b.Fatal("no name matched")
		}
	})
}

// allNames returns the distinct entity names of the library, sorted.
func allNames(s *Store) []string {
	seen := map[string]bool{}
	snap := s.Snapshot()
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		for _, e := range a.Manifest.Entities {
			seen[e.Name] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// BenchmarkListRecentWork20 reads the first page (20 rows) of recent work
// across all agents at team level: in the default 14-day window, and with
// a since older than every session, so the window is the whole history.
func BenchmarkListRecentWork20(b *testing.B) {
	s := openBenchStore(b, benchLibrary(b))
	old := "2000-01-01"
	for _, c := range []struct {
		name  string
		since *string
	}{
		{"default-window", nil},
		{"since-2000", &old},
	} {
		b.Run(c.name, func(b *testing.B) {
			limit := 20
			q := RecentWorkQuery{PageQuery: PageQuery{Since: c.since, Level: visibility.Team, Limit: &limit}}
			var page Page[SessionRef]
			for b.Loop() {
				var err error
				page, err = s.ListRecentWork(q)
				if err != nil {
					b.Fatal(err)
				}
			}
			if len(page.Rows) != limit || !page.HasMore {
				b.Fatalf("got %d rows (has_more %v), want a full page of %d", len(page.Rows), page.HasMore, limit)
			}
		})
	}
}

// BenchmarkCrossAgentSummary summarises, at team level and with the
// default session limit, the entity name known to the most agents.
func BenchmarkCrossAgentSummary(b *testing.B) {
	s := openBenchStore(b, benchLibrary(b))
	name := sharedName(s)
	var got ProjectSummary
	for b.Loop() {
		got = s.CrossAgentSummary(name, visibility.Team, 0)
	}
	if len(got.Entities) == 0 {
		b.Fatalf("no entity for %q", name)
	}
	b.ReportMetric(float64(len(got.Agents)), "agents")
	b.ReportMetric(float64(len(got.RecentSessions)), "sessions")
}
