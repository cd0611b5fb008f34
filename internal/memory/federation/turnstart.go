package federation

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/getbourdon/bourdon-go/internal/memory/drift"
	"github.com/getbourdon/bourdon-go/internal/memory/library"
	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/recall/recognition"
)

// A Recognizer answers prepare_recognition_context for a process that
// lives for one turn, such as "bourdon prepare-turn" run by a prompt hook.
// It gives the payload a Store gives for the same library, but reads only
// what recognition needs: the manifests' entities (with their recognition
// keys) and row counts, kept in a cache file keyed by each manifest's
// stamp, so that a turn on an unchanged library lists the agents
// directory, stats each manifest and parses none. It starts no watcher,
// and indexes only the entities the prompt may name
// (recognition.PromptPhrases.Select).
type Recognizer struct {
	ids      []string // agents, sorted
	entities [][]recognition.Entity
	keys     [][]recognition.Keys
	drift    *drift.Tracker
	stats    TurnStats
}

// TurnStats says what opening a Recognizer read.
type TurnStats struct {
	// Manifests is the number of manifest files listed; Parsed is how
	// many of them had to be parsed (not in the cache, or changed).
	Manifests, Parsed int
	// CacheWritten is true when the cache file was rewritten.
	CacheWritten bool
	// CacheError says why the cache could not be read or written, ""
	// when it could (a missing cache is not an error).
	CacheError string
}

// RecognizerOptions configure OpenRecognizer.
type RecognizerOptions struct {
	// CachePath is the cache file; "" uses none (every manifest is
	// parsed). DefaultTurnCachePath gives the usual one.
	CachePath string
	// Now returns the current time (drift verdicts, the cache's settling
	// rule); nil means time.Now.
	Now func() time.Time
}

// DefaultTurnCachePath returns the turn cache of the library at root,
// beside the drift watermarks in <library>/.bourdon/.
func DefaultTurnCachePath(root string) string {
	return filepath.Join(root, ".bourdon", "turn-cache.bin")
}

// turnCacheFormat changes whenever what the cache holds, or how a
// manifest becomes cached entities, changes.
const turnCacheFormat = 1

// maxTurnCacheBytes bounds the cache file read; a larger one is ignored
// (and rewritten).
const maxTurnCacheBytes = 64 << 20

// settleTime is how old a manifest's modification time must be when the
// manifest is read for its entry to be cached. A file rewritten in place,
// at the same size, within one tick of the file system's clock keeps its
// stamp; a file that has not changed for this long cannot be rewritten
// without changing it (1-second clocks included).
const settleTime = 2 * time.Second

type turnCache struct {
	Format int
	// Binary identifies the executable that wrote the cache (path, size
	// and modification time): another build may read manifests
	// differently.
	Binary string
	Files  map[string]turnFile // by base name
}

// turnFile is what recognition needs of one manifest file.
type turnFile struct {
	Stamp library.Stamp
	// ID is the agent id, or "" when the file could not be used.
	ID string
	// Rows counts entities, sessions, workstreams and notes (the drift
	// watermark's measure).
	Rows int
	// Problem says why the file could not be used.
	Problem  string
	Entities []recognition.Entity
	Keys     []recognition.Keys // of Entities, by position
}

// OpenRecognizer reads the library at root for recognition. Problems with
// single manifests are handled as a Store handles them (a manifest that
// cannot be read contributes nothing and is reported as drifting); a
// cache that cannot be read or written only makes the next turn slower,
// and is reported in Stats. The error is for a library directory that
// cannot be listed.
func OpenRecognizer(root string, opts RecognizerOptions) (*Recognizer, error) {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	files, err := library.ListManifests(filepath.Join(abs, "agents"))
	if err != nil {
		return nil, err
	}
	r := &Recognizer{stats: TurnStats{Manifests: len(files)}}

	binary := executableStamp()
	var old turnCache
	if opts.CachePath != "" {
		old, err = readTurnCache(opts.CachePath, binary)
		if err != nil {
			r.stats.CacheError = err.Error()
		}
	}
	next := turnCache{Format: turnCacheFormat, Binary: binary, Files: make(map[string]turnFile, len(files))}
	changed := false
	read := now()
	entries := make([]turnFile, len(files))
	var toParse []int
	for i, f := range files {
		if c, ok := old.Files[f.Name]; ok && c.Stamp == f.Stamp {
			entries[i] = c
			next.Files[f.Name] = c
		} else {
			toParse = append(toParse, i)
		}
	}
	parseTurnFiles(files, toParse, entries)
	r.stats.Parsed = len(toParse)
	for _, i := range toParse {
		if f := files[i]; time.Unix(0, f.Stamp.MTime).Before(read.Add(-settleTime)) {
			next.Files[f.Name] = entries[i]
			changed = true
		}
	}
	changed = changed || len(next.Files) != len(old.Files)
	if opts.CachePath != "" && changed {
		if err := writeTurnCache(opts.CachePath, next); err != nil {
			r.stats.CacheError = err.Error()
		} else {
			r.stats.CacheWritten = true
		}
	}

	// The library's rules: files in name order, a later file claiming
	// the same agent id wins, a file that never loaded is broken.
	winners := map[string]int{}
	var broken []drift.Surface
	for i, e := range entries {
		if e.ID == "" {
			broken = append(broken, drift.Surface{Agent: strings.TrimSuffix(files[i].Name, library.ManifestSuffix), Problem: e.Problem})
			continue
		}
		winners[e.ID] = i
	}
	ids := make([]string, 0, len(winners))
	for id := range winners {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	surfaces := make([]drift.Surface, 0, len(ids)+len(broken))
	for _, id := range ids {
		e := entries[winners[id]]
		r.ids = append(r.ids, id)
		r.entities = append(r.entities, e.Entities)
		r.keys = append(r.keys, e.Keys)
		surfaces = append(surfaces, drift.Surface{Agent: id, Rows: e.Rows})
	}
	r.drift = drift.Open(store.NewDirDocuments(abs, 0o644), drift.LibraryName)
	r.drift.Now = now
	_ = r.drift.Observe(append(surfaces, broken...)) // unreadable watermarks only mean no verdicts
	return r, nil
}

// RecognitionContext answers prepare_recognition_context, as
// Store.RecognitionContext does.
func (r *Recognizer) RecognitionContext(req RecognitionRequest) RecognitionContext {
	return recognitionContext(r.prepare, func() ([]drift.Verdict, bool) {
		return r.drift.Drifting(func(agent string) bool { return req.Reader.may(agent) })
	}, req)
}

// prepare indexes the entities the prompt may name, and recognises.
func (r *Recognizer) prepare(prompt string, level visibility.Level) recognition.Result {
	sel := recognition.NewPromptPhrases(prompt).Select(r.entities, r.keys)
	x := recognition.NewIndex()
	for i, id := range r.ids {
		if len(sel[i]) > 0 {
			x.Update(id, sel[i])
		}
	}
	return x.Prepare(prompt, level)
}

// parseTurnFiles parses files[i] into entries[i] for every i of which,
// one worker per CPU.
func parseTurnFiles(files []library.ManifestFile, which []int, entries []turnFile) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(which)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1)) - 1
				if k >= len(which) {
					return
				}
				entries[which[k]] = loadTurnFile(files[which[k]])
			}
		}()
	}
	wg.Wait()
}

func loadTurnFile(f library.ManifestFile) turnFile {
	a, warnings := library.LoadManifest(f.Path)
	if a == nil {
		msg := "cannot be read"
		if len(warnings) > 0 {
			msg = warnings[0].Message
		}
		return turnFile{Stamp: f.Stamp, Problem: msg}
	}
	m := a.Manifest
	tf := turnFile{
		Stamp: f.Stamp, ID: a.ID,
		Rows:     len(m.Entities) + len(m.Sessions) + len(m.Workstreams) + len(m.Notes),
		Entities: recognitionEntities(m),
	}
	tf.Keys = make([]recognition.Keys, len(tf.Entities))
	for i := range tf.Entities {
		tf.Keys[i] = recognition.KeysOf(&tf.Entities[i])
	}
	return tf
}

func readTurnCache(path, binary string) (turnCache, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return turnCache{}, nil
	}
	if err != nil {
		return turnCache{}, fmt.Errorf("turn cache: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return turnCache{}, fmt.Errorf("turn cache: %w", err)
	}
	if fi.Size() > maxTurnCacheBytes {
		return turnCache{}, fmt.Errorf("turn cache %s: larger than %d MiB, ignored", path, maxTurnCacheBytes>>20)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return turnCache{}, fmt.Errorf("turn cache %s: %v; rebuilt", path, err)
	}
	// The decoded strings point into data, which nothing writes to again.
	c, err := decodeTurnCache(unsafe.String(unsafe.SliceData(data), len(data)))
	if err != nil {
		return turnCache{}, fmt.Errorf("turn cache %s: %v; rebuilt", path, err)
	}
	if c.Format != turnCacheFormat || c.Binary != binary {
		return turnCache{}, nil // another build's: rebuilt, not an error
	}
	return c, nil
}

func writeTurnCache(path string, c turnCache) error {
	if err := fsutil.WriteCache(path, encodeTurnCache(c), 0o644); err != nil {
		return fmt.Errorf("turn cache: %w", err)
	}
	return nil
}

// executableStamp identifies the running executable; "" when unknown.
func executableStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
}
