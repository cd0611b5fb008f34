package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/federation"
	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// level is the access level of every query: team sees public and team rows.
const level = visibility.Team

// loaded is the library after the cold load, with what was counted.
type loaded struct {
	lib         *library.Library
	store       *federation.Store
	open, index time.Duration
	agents      int
	entities    int
	sessions    int
	bytes       int64
	warnings    int
}

// coldLoad opens the library and runs a first query, which builds the
// federation indexes: the time from start to the first answer.
func coldLoad(dir string) (*loaded, error) {
	t0 := time.Now()
	lib, err := library.Open(dir, quiet)
	if err != nil {
		return nil, err
	}
	t1 := time.Now()
	store := federation.New(lib)
	store.ListAgents(nil)
	ld := &loaded{lib: lib, store: store, open: t1.Sub(t0), index: time.Since(t1)}
	snap := store.Snapshot()
	if snap.Len() == 0 {
		lib.Close()
		return nil, fmt.Errorf("%s holds no manifests (expected %s)", dir, filepath.Join(dir, "agents", "*"+library.ManifestSuffix))
	}
	ld.agents, ld.warnings = snap.Len(), len(snap.Warnings())
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		ld.entities += len(a.Manifest.Entities)
		ld.sessions += len(a.Manifest.Sessions)
		if info, err := os.Stat(a.File); err == nil {
			ld.bytes += info.Size()
		}
	}
	return ld, nil
}

// mem is the memory of the process.
type mem struct {
	rss, peak uint64 // VmRSS and VmHWM
	heap      uint64 // Go heap in use
}

// memory collects garbage and reads the process's memory figures.
func memory() mem {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := mem{heap: ms.HeapInuse}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return m // not Linux: RSS unknown
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			continue
		}
		switch key {
		case "VmRSS":
			m.rss = kb << 10
		case "VmHWM":
			m.peak = kb << 10
		}
	}
	return m
}

// cpuTime returns the user and system CPU time of the process so far, or 0
// where /proc/self/stat cannot be read. It assumes the usual 100 clock
// ticks per second.
func cpuTime() time.Duration {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses, start
	// with the state (field 3); utime and stime are fields 14 and 15.
	_, rest, ok := bytes.Cut(data, []byte(") "))
	f := strings.Fields(string(rest))
	if !ok || len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return time.Duration(utime+stime) * (time.Second / 100)
}

// entityNames returns every distinct entity name of the library, sorted.
func entityNames(s *federation.Store) []string {
	seen := map[string]bool{}
	snap := s.Snapshot()
	for _, id := range snap.IDs() {
		a, _ := snap.Agent(id)
		for _, e := range a.Manifest.Entities {
			if strings.TrimSpace(e.Name) != "" {
				seen[e.Name] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// timeLoop calls call(i) for i = 0, 1, ... until d has passed and returns
// the duration of each call. A short warm-up is not recorded.
func timeLoop(d time.Duration, call func(i int)) []time.Duration {
	for i := range 100 {
		call(i)
	}
	samples := make([]time.Duration, 0, 1<<16)
	deadline := time.Now().Add(d)
	for i := 0; ; i++ {
		t0 := time.Now()
		call(i)
		t1 := time.Now()
		samples = append(samples, t1.Sub(t0))
		if t1.After(deadline) {
			return samples
		}
	}
}

// findEntityCall looks up names[i] in turn.
func findEntityCall(s *federation.Store, names []string) func(int) {
	return func(i int) { s.FindEntity(names[i%len(names)], level, nil) }
}

// listRecentWorkCall returns a call that reads the first page of 20
// sessions (since "" means the default window) and the rows it returns.
func listRecentWorkCall(s *federation.Store, since string) (func(int), int, error) {
	limit := 20
	q := federation.RecentWorkQuery{PageQuery: federation.PageQuery{Level: level, Limit: &limit}}
	if since != "" {
		q.Since = &since
	}
	page, err := s.ListRecentWork(q)
	if err != nil {
		return nil, 0, err
	}
	return func(int) { s.ListRecentWork(q) }, len(page.Rows), nil
}

// reload copies the library to a scratch directory, then n times rewrites
// one manifest with a new entity (temporary file and rename, not timed) and
// times the query that must see it: noticing the change, reading, parsing
// and indexing the file, and answering.
func reload(dir string, n int) ([]time.Duration, error) {
	scratch, err := os.MkdirTemp("", "bourdon-bench-reload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	if err := copyManifests(filepath.Join(dir, "agents"), filepath.Join(scratch, "agents")); err != nil {
		return nil, err
	}
	lib, err := library.Open(scratch, quiet)
	if err != nil {
		return nil, err
	}
	defer lib.Close()
	store := federation.New(lib)
	ids := store.ListAgents(nil)
	if len(ids) == 0 {
		return nil, fmt.Errorf("the scratch copy holds no agents")
	}
	agent, _ := store.Snapshot().Agent(ids[len(ids)/2])
	const placeholder = "bourdon-bench-reload-000000"
	template, err := withEntity(agent.File, placeholder)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(filepath.Dir(agent.File), ".bourdon-bench.tmp")
	var samples []time.Duration
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("bourdon-bench-reload-%06d", i)
		data := bytes.Replace(template, []byte(placeholder), []byte(name), 1)
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return nil, err
		}
		if err := os.Rename(tmp, agent.File); err != nil {
			return nil, err
		}
		t0 := time.Now()
		got := store.FindEntity(name, visibility.Private, nil)
		samples = append(samples, time.Since(t0))
		if len(got) != 1 || !slices.Contains(got[0].Agents, agent.ID) {
			return nil, fmt.Errorf("rewrite %d of %s was not picked up by the next query", i, agent.File)
		}
	}
	return samples, nil
}

// withEntity returns the manifest at path with one more entity, named name.
func withEntity(path, name string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		return nil, err
	}
	m, ok := doc.(*yaml11.Map)
	if !ok {
		return nil, fmt.Errorf("%s is not a mapping", path)
	}
	ent := yaml11.NewMap(3)
	ent.Set("name", name)
	ent.Set("type", "concept")
	ent.Set("summary", "Written by go run ./bench to time a reload.")
	rows, _ := m.Value(l5.KeyEntities).([]any)
	m.Set(l5.KeyEntities, append(slices.Clip(rows), ent))
	return yaml11.Encode(m)
}

// copyManifests copies the manifest files of src into dst.
func copyManifests(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), library.ManifestSuffix) || e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
