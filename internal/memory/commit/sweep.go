package commit

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
)

// A writer killed inside an atomic write leaves its temporary file
// behind: ".<name>.<random>.tmp" next to the file it was replacing. Such a
// file is harmless (the library and Versions skip dot files, and it never
// ends in .l5.yaml), but it would accumulate. Writes remove the stale ones
// of the files they own, under the lock that owns them, and SweepLibrary,
// run when the server starts, removes them everywhere the write path
// writes.

// staleTemp is how old a temporary file must be before a sweep removes it.
// No live write keeps its temporary file anywhere near this long (a write
// holds the file only between creating and renaming it), and a writer that
// took the lock after a crash may still find a file younger than this from
// the crashed process, which the next sweep removes.
const staleTemp = time.Minute

// sweepEvery bounds how often one Writer sweeps a directory, so that a
// directory of many archived versions is not listed on every commit.
const sweepEvery = time.Minute

// sweepAgent removes stale temporary files of agent id's manifest, of
// its archived versions and of its export bookkeeping. The caller holds the agent's lock.
func (w *Writer) sweepAgent(id string) {
	w.sweep(filepath.Join(w.root, "agents"), id+".l5.yaml.")
	w.sweep(filepath.Join(w.historyDir(id), "versions"), "")
	w.sweep(w.ExportsDir(), id+".") // the export's record and the runner's cache
}

// sweep removes, at most once per sweepEvery for each directory, the
// temporary files in dir whose names start with TempPrefix+prefix and
// that are older than staleTemp. Errors are ignored: a file that cannot be
// removed now is tried again later.
func (w *Writer) sweep(dir, prefix string) {
	key := dir + "\x00" + prefix
	now := time.Now() // real time: file times are real, whatever w.Now says
	w.sweepMu.Lock()
	if last, ok := w.swept[key]; ok && now.Sub(last) < sweepEvery {
		w.sweepMu.Unlock()
		return
	}
	w.swept[key] = now
	w.sweepMu.Unlock()
	w.sweepDir(dir, prefix, now, nil)
}

// sweepDir removes the temporary files of dir starting with
// TempPrefix+prefix that are older than staleTemp, or, when lockOf names
// the lock of the file a temporary file was replacing and that lock is
// free, whatever their age. It returns the paths it removed. A directory
// reached through a link out of the library is not looked at.
func (w *Writer) sweepDir(dir, prefix string, now time.Time, lockOf func(name string) string) []string {
	entries, err := w.tree.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		if !isTemp(name) || !strings.HasPrefix(name, fsutil.TempPrefix+prefix) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		path := filepath.Join(dir, name)
		if now.Sub(info.ModTime()) < staleTemp {
			lock := ""
			if lockOf != nil {
				lock = lockOf(name)
			}
			if lock == "" {
				continue
			}
			// A free lock proves that no write of that file is under
			// way: the temporary file is a dead writer's.
			unlock, ok, err := w.tree.TryLock(lock)
			if err != nil || !ok {
				continue
			}
			err = w.tree.Remove(path)
			unlock()
			if err == nil {
				removed = append(removed, path)
			}
			continue
		}
		if w.tree.Remove(path) == nil {
			removed = append(removed, path)
		}
	}
	return removed
}

// isTemp reports whether a file name is one of fsutil.WriteAtomic's
// temporary files.
func isTemp(name string) bool {
	return strings.HasPrefix(name, fsutil.TempPrefix) && strings.HasSuffix(name, ".tmp")
}

// tempTarget returns the name of the file a temporary file was replacing
// (".codex.l5.yaml.0a1b2c.tmp" was replacing "codex.l5.yaml").
func tempTarget(name string) string {
	base := strings.TrimSuffix(strings.TrimPrefix(name, fsutil.TempPrefix), ".tmp")
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return ""
}

// SweepLibrary removes the temporary files that writers killed inside an
// atomic write left in the library: in agents/, history/<id>/versions/,
// staging/<caller>/, requests/ (and its proposals) and .bourdon/ (the
// exports' records and caches, the drift watermarks). A temporary file is
// removed when it is older than a minute, or, younger, when it replaced a
// file of the write path whose lock is free: a manifest (the agent's
// lock), an archived version or an export record (the agent's lock), a
// staged write (its staging lock). A free lock means no writer is inside
// the write that made it. Directories reached through a symbolic link out
// of the library are left alone. It returns the paths removed; ctx stops
// it between directories.
//
// bourdon serve runs it at start-up. A writer on another store (OnStore)
// has nothing to sweep. Files nobody else writes (the
// library's own) are all it touches: every name it removes starts with a
// dot and ends in .tmp, as only fsutil.WriteAtomic names files.
func (w *Writer) SweepLibrary(ctx context.Context) []string {
	if w.root == "" {
		return nil // no directory, no temporary files
	}
	now := time.Now()
	var removed []string
	dirs := []struct {
		dir    string
		lockOf func(name string) string
	}{
		{filepath.Join(w.root, "agents"), func(name string) string {
			if id, ok := strings.CutSuffix(tempTarget(name), ".l5.yaml"); ok && l5.ValidAgentID(id) {
				return w.lockPath(id)
			}
			return ""
		}},
		{w.ExportsDir(), func(name string) string {
			// The export's ownership record is written under the agent's
			// lock; the runner's cache (<id>.cache.json) is not.
			if id, ok := strings.CutSuffix(tempTarget(name), ".json"); ok && l5.ValidAgentID(id) {
				return w.lockPath(id)
			}
			return ""
		}},
		{filepath.Join(w.root, ".bourdon"), nil},
		{filepath.Join(w.root, "requests"), nil},
		{filepath.Join(w.root, "requests", "proposals"), nil},
		{filepath.Join(w.root, "requests", "proposals", "decided"), nil},
	}
	for _, id := range w.subdirs(filepath.Join(w.root, "history")) {
		if !l5.ValidAgentID(id) {
			continue
		}
		lock := w.lockPath(id)
		dirs = append(dirs, struct {
			dir    string
			lockOf func(string) string
		}{filepath.Join(w.historyDir(id), "versions"), func(string) string { return lock }})
	}
	for _, caller := range w.subdirs(w.StagingDir()) {
		dirs = append(dirs, struct {
			dir    string
			lockOf func(string) string
		}{filepath.Join(w.StagingDir(), caller), func(name string) string {
			if id, ok := strings.CutSuffix(tempTarget(name), stagedSuffix); ok && l5.ValidAgentID(id) {
				return w.stagedLockPath(caller, id)
			}
			return ""
		}})
	}
	for _, d := range dirs {
		if ctx.Err() != nil {
			break
		}
		removed = append(removed, w.sweepDir(d.dir, "", now, d.lockOf)...)
	}
	return removed
}

// subdirs lists the directories in dir (not links to directories).
func (w *Writer) subdirs(dir string) []string {
	entries, err := w.tree.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}
