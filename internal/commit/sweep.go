package commit

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/getbourdon/bourdon-go/internal/fsutil"
)

// A writer killed inside fsutil.WriteAtomic leaves its temporary file
// behind: ".<name>.<random>.tmp" next to the file it was replacing. Such a
// file is harmless (the library and Versions skip dot files, and it never
// ends in .l5.yaml), but it would accumulate, so writes remove the stale
// ones of the files they own, under the lock that owns them.

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
	sweepDir(dir, prefix, now)
}

// sweepDir removes the stale temporary files of dir starting with
// TempPrefix+prefix and returns how many it removed.
func sweepDir(dir, prefix string, now time.Time) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if !isTemp(name) || !strings.HasPrefix(name, fsutil.TempPrefix+prefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < staleTemp {
			continue
		}
		if os.Remove(filepath.Join(dir, name)) == nil {
			n++
		}
	}
	return n
}

// isTemp reports whether a file name is one of fsutil.WriteAtomic's
// temporary files.
func isTemp(name string) bool {
	return strings.HasPrefix(name, fsutil.TempPrefix) && strings.HasSuffix(name, ".tmp")
}
