package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
)

// Cache makes exports incremental. It remembers, for each source unit an
// exporter reads (a file, a database with its WAL), the unit's fingerprint
// and what the exporter derived from it. A later export whose unit has the
// same fingerprint gets the remembered value back without reading the
// unit; only its metadata is looked at.
//
// The runner loads a Cache before an export and saves it afterwards when
// Changed reports true. Units not asked for in an export are forgotten. A
// Cache is safe for concurrent use.
type Cache struct {
	mu   sync.Mutex
	old  map[string]cacheEntry
	used map[string]cacheEntry
	hits int
	miss int
}

type cacheEntry struct {
	Fingerprint Fingerprint     `json:"fp"`
	Value       json.RawMessage `json:"v"`
}

// Fingerprint identifies the state of a unit's files: size and
// modification time of each, or "-" for a missing one.
type Fingerprint string

// Stat returns the fingerprint of the files of one unit (for example a
// database and its -wal file).
func Stat(paths ...string) (Fingerprint, error) {
	parts := make([]string, len(paths))
	for i, p := range paths {
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			parts[i] = "-"
		case err != nil:
			return "", err
		default:
			parts[i] = fmt.Sprintf("%d:%d", st.Size(), st.ModTime().UnixNano())
		}
	}
	return Fingerprint(strings.Join(parts, "|")), nil
}

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{old: map[string]cacheEntry{}, used: map[string]cacheEntry{}} }

// LoadCache reads a cache saved by Marshal. Data that does not parse gives
// an empty cache (everything is read again), never an error.
func LoadCache(data []byte) *Cache {
	c := NewCache()
	if len(data) > 0 && json.Unmarshal(data, &c.old) != nil {
		c.old = map[string]cacheEntry{}
	}
	return c
}

// Marshal returns the units used in this export, for LoadCache.
func (c *Cache) Marshal() ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return json.Marshal(c.used)
}

// Changed reports whether the export read any unit or dropped one, so the
// saved cache would differ from the loaded one.
func (c *Cache) Changed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.miss > 0 || len(c.used) != len(c.old) {
		return true
	}
	return !slices.Equal(slices.Sorted(maps.Keys(c.used)), slices.Sorted(maps.Keys(c.old)))
}

// Stats returns how many units were served from the cache and how many
// were read.
func (c *Cache) Stats() (hits, reads int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.miss
}

// Cached returns what read derives from the unit key, reading it only when
// the cache has no value for key with fingerprint fp. A nil cache always
// reads. Values are kept as JSON, so T must survive a JSON round trip.
func Cached[T any](c *Cache, key string, fp Fingerprint, read func() (T, error)) (T, error) {
	if c == nil {
		return read()
	}
	c.mu.Lock()
	e, ok := c.used[key] // read earlier in this export
	if !ok || e.Fingerprint != fp {
		e, ok = c.old[key]
	}
	c.mu.Unlock()
	if ok && e.Fingerprint == fp {
		var v T
		if json.Unmarshal(e.Value, &v) == nil {
			c.mu.Lock()
			c.used[key] = e
			c.hits++
			c.mu.Unlock()
			return v, nil
		}
	}
	v, err := read()
	if err != nil {
		return v, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return v, fmt.Errorf("cache %s: %w", key, err)
	}
	c.mu.Lock()
	c.used[key] = cacheEntry{Fingerprint: fp, Value: data}
	c.miss++
	c.mu.Unlock()
	return v, nil
}
