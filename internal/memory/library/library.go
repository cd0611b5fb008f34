// Package library reads a Bourdon library directory: the per-agent L5
// manifests in <library>/agents/*.l5.yaml. It keeps an immutable Snapshot
// of the manifests in memory and refreshes it incrementally: a manifest
// written, replaced or deleted by another process is seen by the next call
// to Snapshot, and only the files that changed are read again.
package library

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// ManifestSuffix ends the name of every manifest file.
const ManifestSuffix = ".l5.yaml"

// MaxManifestBytes bounds the size of one manifest file. A larger file is
// skipped with a warning instead of being read into memory.
const MaxManifestBytes = l5.MaxManifestBytes

// DefaultPath returns the default library, ~/agent-library.
func DefaultPath() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return "agent-library"
	}
	return filepath.Join(home, "agent-library")
}

// Agent is one loaded manifest and the file it came from.
type Agent struct {
	ID       string
	File     string // absolute path of the manifest
	Manifest *l5.Manifest
	// Problem is set when the file changed on disk but could not be read
	// again; Manifest is then the last copy that could, and Problem says
	// what is wrong with the file now.
	Problem string
}

// Warning is a problem with one file of the library.
type Warning struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
	// Related names the other file a problem is about, when there is one:
	// the file that holds the agent a misnamed manifest claims to be.
	Related string `json:"related,omitempty"`
}

func (w Warning) String() string {
	if w.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Message)
	}
	return fmt.Sprintf("%s: %s", w.File, w.Message)
}

// Snapshot is the library at one moment. It is never modified; a change on
// disk produces a new Snapshot with a higher Generation.
type Snapshot struct {
	Generation uint64
	agents     map[string]*Agent
	ids        []string // sorted
	warnings   []Warning
	broken     []Warning
}

// IDs returns the agent ids in sorted order. The slice must not be modified.
func (s *Snapshot) IDs() []string { return s.ids }

// Agent returns the agent with the given id.
func (s *Snapshot) Agent(id string) (*Agent, bool) {
	a, ok := s.agents[id]
	return a, ok
}

// Len returns the number of agents.
func (s *Snapshot) Len() int { return len(s.ids) }

// Warnings returns the problems found with files of the library, in file
// order.
func (s *Snapshot) Warnings() []Warning { return s.warnings }

// Broken returns one warning per manifest file that could not be loaded at
// all (never read successfully), in file order: unreadable files, files
// that are not valid YAML (a key written twice included), symbolic links
// that lead out of the library, and manifests whose agent.id is not their
// file's name (Warning.Related then names the file that agent is served
// from). bourdon doctor reports them.
func (s *Snapshot) Broken() []Warning { return s.broken }

// Library is a library directory kept in memory. It is safe for concurrent
// use.
type Library struct {
	root      string
	agentsDir string
	tree      fsutil.Tree // the library root: no manifest is read through a link that leaves it
	log       *slog.Logger

	// src, when set, is where the manifests are instead of agentsDir (see
	// OpenStore).
	src ManifestStore

	mu      sync.Mutex // serialises refreshes
	watch   watcher
	owed    bool                  // a full re-read was cut short; the next Snapshot redoes it
	files   map[string]*fileState // by base name
	current atomic.Pointer[Snapshot]
	// onReload is told how long each rescan that read files took.
	onReload func(took time.Duration)
}

// ObserveReloads has f told how long each later change taken in (a rescan
// that read at least one file) took: for metrics.
func (l *Library) ObserveReloads(f func(took time.Duration)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.onReload = f
}

// fileState is what the library knows about one manifest file.
type fileState struct {
	stamp    Stamp
	agent    *Agent // nil when the file never loaded
	warnings []Warning
}

// Stamp identifies one version of a file without reading it: its size,
// modification time, inode and change time (the last two only where the
// system reports them). A file replaced by a rename gets a new inode.
type Stamp struct {
	// Version is a ManifestStore's version of the manifest (0 in a directory).
	Version int64
	Size    int64
	MTime   int64 // nanoseconds since the Unix epoch
	Ino     uint64
	CTime   int64 // nanoseconds since the Unix epoch
}

// ManifestFile is one manifest file of an agents directory.
type ManifestFile struct {
	Name  string // base name, <agent_id>.l5.yaml
	Path  string
	Stamp Stamp
}

// ListManifests returns the manifest files of an agents directory, sorted
// by name: regular files (symbolic links followed) named *.l5.yaml, not
// hidden; subdirectories are not entered. A missing directory has none.
// Only the directory is read, and each file stat-ed.
func ListManifests(agentsDir string) ([]ManifestFile, error) {
	return listManifests(agentsDir, nil)
}

// listManifests is ListManifests; a symbolic link that is no regular file
// is listed (with a zero stamp) when keepLink says so.
func listManifests(agentsDir string, keepLink func(path string) bool) ([]ManifestFile, error) {
	entries, err := os.ReadDir(agentsDir)
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	var out []ManifestFile
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ManifestSuffix) || strings.HasPrefix(name, ".") {
			continue
		}
		path := filepath.Join(agentsDir, name)
		st, err := statFile(path)
		if err != nil {
			if e.Type()&fs.ModeSymlink == 0 || keepLink == nil || !keepLink(path) {
				continue // vanished between listing and stat, or not a regular file
			}
			st = Stamp{}
		}
		out = append(out, ManifestFile{Name: name, Path: path, Stamp: st})
	}
	return out, err
}

// Open loads the library at root. A missing directory is an empty library
// that fills in once the directory appears. Problems with single files are
// warnings (see Snapshot.Warnings), never errors.
func Open(root string, log *slog.Logger) (*Library, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	l := &Library{
		root:      abs,
		agentsDir: filepath.Join(abs, "agents"),
		tree:      fsutil.NewTree(abs),
		log:       log,
		files:     map[string]*fileState{},
	}
	l.watch = newWatcher(l.agentsDir)
	l.current.Store(&Snapshot{agents: map[string]*Agent{}})
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.rescan(context.Background(), func(string) bool { return true }, nil)
	return l, nil
}

// Root returns the absolute path of the library directory.
func (l *Library) Root() string { return l.root }

// AgentsDir returns the directory holding the manifests.
func (l *Library) AgentsDir() string { return l.agentsDir }

// Snapshot returns the current library, first taking in any change made on
// disk since the last call.
func (l *Library) Snapshot() *Snapshot {
	l.mu.Lock()
	rescan, touched, all := l.watch.changed()
	if l.owed {
		rescan, all, l.owed = true, true, false
	}
	if rescan {
		_, err := l.rescan(context.Background(), func(name string) bool { return all || touched[name] }, nil)
		if w, ok := l.watch.(*sourceWatcher); ok && err != nil {
			w.failed()
		}
	}
	l.mu.Unlock()
	return l.current.Load()
}

// Reload re-reads the directory listing and every file, whatever the
// watcher says. It returns the new snapshot.
func (l *Library) Reload() *Snapshot {
	snap, _, _ := l.ReloadContext(context.Background(), nil)
	return snap
}

// ReloadContext is Reload with progress and cancellation: progress, when
// not nil, is called after each file with the number read so far and the
// total. If ctx ends first, nothing changes and the error is ctx's. It
// also returns the number of files read.
func (l *Library) ReloadContext(ctx context.Context, progress func(done, total int)) (*Snapshot, int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.watch.changed() // everything is read again; pending events are moot
	n, err := l.rescan(ctx, func(string) bool { return true }, progress)
	l.owed = err != nil
	return l.current.Load(), n, err
}

// Source returns the bytes of a served agent's manifest file as they are
// now, read the way the library reads manifests (through its tree, so
// never through a link out of the library, and at most MaxManifestBytes),
// for checks that need the document itself, such as bourdon doctor's
// schema check.
func (l *Library) Source(a *Agent) ([]byte, error) {
	if l.src != nil {
		return l.src.Manifest(context.Background(), a.ID)
	}
	return l.tree.ReadRegular(a.File, MaxManifestBytes)
}

// Close releases the watcher.
func (l *Library) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.watch.close()
}

// rescan compares the directory with what is loaded, reads the files that
// changed (in parallel), and publishes a new snapshot if anything changed.
// Files for which force returns true are read again even if their stamp is
// unchanged. If ctx ends before every file is read, nothing changes. It
// returns the number of files read. l.mu must be held.
func (l *Library) rescan(ctx context.Context, force func(name string) bool, progress func(done, total int)) (read int, err error) {
	if l.onReload != nil {
		start := time.Now()
		defer func() {
			if read > 0 {
				l.onReload(time.Since(start))
			}
		}()
	}
	files, err := l.list(ctx)
	if err != nil && l.src != nil {
		// A database that cannot answer is not an empty library: what
		// was loaded stays served until the next reconciliation.
		l.log.Warn("cannot list the library's manifests", "err", err)
		return 0, err
	}
	if err != nil {
		l.log.Warn("cannot list the library", "dir", l.agentsDir, "err", err)
	}
	seen := make(map[string]bool, len(files))
	var toLoad []string
	stamps := map[string]Stamp{}
	for _, f := range files {
		name := f.Name
		seen[name] = true
		if fs, ok := l.files[name]; ok && fs.stamp == f.Stamp && !force(name) {
			continue
		}
		toLoad = append(toLoad, name)
		stamps[name] = f.Stamp
	}
	var removed []string
	for name := range l.files {
		if !seen[name] {
			removed = append(removed, name)
		}
	}
	if len(toLoad) == 0 && len(removed) == 0 {
		return 0, nil
	}
	results, err := l.loadAll(ctx, toLoad, progress)
	if err != nil {
		return 0, err
	}
	for _, name := range removed {
		delete(l.files, name)
	}
	for i, name := range toLoad {
		fs := l.files[name]
		if fs == nil {
			fs = &fileState{}
			l.files[name] = fs
		}
		fs.stamp = stamps[name]
		r := results[i]
		fs.warnings = r.warnings
		switch {
		case r.agent != nil:
			fs.agent = r.agent
		case fs.agent != nil:
			stale := *fs.agent
			stale.Problem = r.warnings[0].Message
			fs.agent = &stale
		}
		for _, w := range r.warnings {
			l.log.Warn("skipping manifest", "file", w.File, "line", w.Line, "problem", w.Message)
		}
	}
	l.publish()
	return len(toLoad), nil
}

type loadResult struct {
	agent    *Agent
	warnings []Warning
}

// loadAll reads the named files with one worker per CPU. It stops early,
// with ctx's error, if ctx ends.
func (l *Library) loadAll(ctx context.Context, names []string, progress func(done, total int)) ([]loadResult, error) {
	out := make([]loadResult, len(names))
	workers := min(runtime.GOMAXPROCS(0), len(names))
	var next, done atomic.Int64
	var progressMu sync.Mutex
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= len(names) {
					return
				}
				out[i] = l.loadFile(ctx, names[i])
				if progress != nil {
					progressMu.Lock()
					progress(int(done.Add(1)), len(names))
					progressMu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// loadFile reads and parses one manifest of the library, through the
// library's tree: a symbolic link (the file, or agents/ itself) that leads
// out of the library is not followed.
func (l *Library) loadFile(ctx context.Context, name string) loadResult {
	if l.src != nil {
		id := strings.TrimSuffix(name, ManifestSuffix)
		a, warnings := loadManifest(l.src.ManifestPath(id), func(string, int64) ([]byte, error) { return l.src.Manifest(ctx, id) })
		return loadResult{agent: a, warnings: warnings}
	}
	a, warnings := loadManifest(filepath.Join(l.agentsDir, name), l.tree.ReadRegular)
	return loadResult{agent: a, warnings: warnings}
}

// list returns the manifests to compare with what is loaded.
func (l *Library) list(ctx context.Context) ([]ManifestFile, error) {
	if l.src == nil {
		// A link out of the library is listed, so that loadFile reports it.
		return listManifests(l.agentsDir, func(path string) bool { return fsutil.IsOutside(l.tree.Check(path)) })
	}
	versions, err := l.src.Versions(ctx)
	if err != nil {
		return nil, err
	}
	files := make([]ManifestFile, 0, len(versions))
	for id, v := range versions {
		files = append(files, ManifestFile{Name: id + ManifestSuffix, Stamp: Stamp{Version: v}})
	}
	return files, nil
}

// LoadManifest reads and parses one manifest file, as a library does. A
// file that cannot be used yields no agent and a warning naming the file
// and, when known, the line.
//
// A manifest is served only as the agent its file is named after: one
// whose agent.id names another agent is refused, since every write of that
// agent (commit, promote, export, rollback) goes to <id>.l5.yaml, and
// serving the misnamed file instead would make those writes invisible.
func LoadManifest(path string) (*Agent, []Warning) {
	return loadManifest(path, fsutil.ReadRegular)
}

func loadManifest(path string, read func(path string, limit int64) ([]byte, error)) (*Agent, []Warning) {
	warn := func(line int, format string, args ...any) (*Agent, []Warning) {
		return nil, []Warning{{File: path, Line: line, Message: fmt.Sprintf(format, args...)}}
	}
	data, err := read(path, MaxManifestBytes)
	if fsutil.IsOutside(err) {
		return warn(0, "not read: %v", err)
	}
	if err != nil {
		return warn(0, "cannot read: %v", err)
	}
	doc, err := yaml11.Decode(data)
	if err != nil {
		var se *yaml11.SyntaxError
		if errors.As(err, &se) {
			return warn(se.Line, "not valid YAML: %s", se.Msg)
		}
		return warn(0, "not valid YAML: %v", err)
	}
	fallback := strings.TrimSuffix(filepath.Base(path), ManifestSuffix)
	m, ok := l5.FromSource(data, doc, fallback)
	if !ok {
		return warn(1, "not a YAML mapping (found %s); an L5 manifest is a mapping with spec_version, agent and last_updated", kindOf(doc))
	}
	if m.Agent.ID != fallback {
		home := filepath.Join(filepath.Dir(path), m.Agent.ID+ManifestSuffix)
		a, w := warn(yaml11.Line(data, "/agent/id"), "agent.id is %q but the file is named %s: agent %q is served only from %s, where its writes go, so this file is not served; rename it to %s or correct agent.id",
			m.Agent.ID, filepath.Base(path), m.Agent.ID, home, filepath.Base(home))
		w[0].Related = home
		return a, w
	}
	return &Agent{ID: m.Agent.ID, File: path, Manifest: m}, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "an empty document"
	case []any:
		return "a list"
	}
	return "a single value"
}

// publish builds a new snapshot from l.files, in sorted name order. Two
// files never claim one agent: a manifest is loaded only as the agent its
// file is named after (see loadFile). The reference instead lets the
// alphabetically last file claiming an id win.
func (l *Library) publish() {
	names := make([]string, 0, len(l.files))
	for name := range l.files {
		names = append(names, name)
	}
	slices.Sort(names)
	snap := &Snapshot{
		Generation: l.current.Load().Generation + 1,
		agents:     make(map[string]*Agent, len(names)),
	}
	for _, name := range names {
		fs := l.files[name]
		snap.warnings = append(snap.warnings, fs.warnings...)
		a := fs.agent
		if a == nil {
			if len(fs.warnings) > 0 {
				snap.broken = append(snap.broken, fs.warnings[0])
			}
			continue
		}
		snap.agents[a.ID] = a
	}
	for id := range snap.agents {
		snap.ids = append(snap.ids, id)
	}
	slices.SortFunc(snap.ids, cmp.Compare[string])
	l.current.Store(snap)
}
