package commit

import (
	"crypto/sha256"
	"errors"
	"os"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Parsing the manifest is most of the cost of a commit. A commit always
// reads the file again under the lock, but when its bytes are exactly the
// ones this Writer wrote last (the usual case for a server committing on
// its own), the manifest it wrote is reused instead of parsing them again.
// The bytes decide, not a time stamp: a file another process rewrote,
// even with the same length and time, is parsed.

// cacheSize bounds how many manifests a Writer remembers.
const cacheSize = 8

// parsed is a manifest a Writer wrote, with the SHA-256 of its bytes.
type parsed struct {
	sum    [32]byte
	m      *yaml11.Map // never modified: callers get a deep copy
	digest string
	seq    uint64 // for eviction: the oldest goes first
}

// readCurrent reads agent id's manifest with read (under its lock): the
// manifest (a copy the caller may modify), its bytes and its digest. A
// missing one is all zero; an unparseable one a *CorruptError.
func (w *Writer) readCurrent(read func() ([]byte, error), id string) (*yaml11.Map, []byte, string, error) {
	data, err := read()
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, "", nil
	}
	if err != nil {
		return nil, nil, "", err
	}
	sum := sha256.Sum256(data)
	w.cacheMu.Lock()
	p := w.cache[id]
	w.cacheMu.Unlock()
	if p != nil && p.sum == sum {
		return deepCopy(p.m).(*yaml11.Map), data, p.digest, nil
	}
	m, err := decodeManifest(w.ManifestPath(id), data)
	if err != nil {
		return nil, nil, "", err
	}
	return m, data, Digest(m), nil
}

// remember records the manifest m just written as data. m must not be
// modified afterwards.
func (w *Writer) remember(id string, data []byte, m *yaml11.Map, digest string) {
	w.cacheMu.Lock()
	defer w.cacheMu.Unlock()
	var seq uint64
	var oldest string
	for k, p := range w.cache {
		seq = max(seq, p.seq)
		if oldest == "" || p.seq < w.cache[oldest].seq {
			oldest = k
		}
	}
	if _, ok := w.cache[id]; !ok && len(w.cache) >= cacheSize {
		delete(w.cache, oldest)
	}
	w.cache[id] = &parsed{sum: sha256.Sum256(data), m: m, digest: digest, seq: seq + 1}
}

// forget drops what the Writer remembers of agent id's manifest.
func (w *Writer) forget(id string) {
	w.cacheMu.Lock()
	delete(w.cache, id)
	w.cacheMu.Unlock()
}

// deepCopy copies mappings and lists all the way down; scalars are
// immutable and shared.
func deepCopy(v any) any {
	switch x := v.(type) {
	case *yaml11.Map:
		c := yaml11.NewMap(x.Len())
		for _, e := range x.Entries() {
			c.Set(e.Key, deepCopy(e.Value))
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, item := range x {
			c[i] = deepCopy(item)
		}
		return c
	}
	return v
}
