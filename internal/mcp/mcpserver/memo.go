package mcpserver

import (
	"encoding/json"
	"sync"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// memo keeps the answers of recent calls of the memoized tools (a tool's
// memoized field) for one version of the library, encoded and redacted:
// a call asked again while the library is unchanged (an agent looking up
// the project it works on, turn after turn; a dashboard refreshing) is
// answered with the same bytes, without reading the library, encoding or
// redacting again. It still goes through the access step: decided and
// audited like any call, and answered from the memo only when allowed
// and unfiltered.
//
// An entry is keyed by the tool, the caller's access ceiling and the
// arguments' JSON as sent: those decide the decoded arguments and the
// echoes redaction spares, so equal keys get equal answers. The memo
// holds one library version at a time: the first entry of a newer
// version empties it. It is bounded in bytes; when full, entries are
// dropped in map order, which is random enough for a cache whose misses
// only cost the work it saves.
type memo struct {
	maxBytes int

	mu      sync.RWMutex
	version uint64
	entries map[string]memoEntry
	size    int // bytes held: keys, payloads and memoOverhead per entry
}

// memoEntry is one kept answer: the arguments decoded (the tool's In),
// for the access step, and the payload as answered.
type memoEntry struct {
	args    any
	payload []byte
}

// cost is what e kept under a key of keyLen bytes counts for in the
// memo's bound.
func (e memoEntry) cost(keyLen int) int {
	return keyLen + len(e.payload) + memoOverhead
}

const (
	// memoMaxBytes bounds what one server keeps in its memo.
	memoMaxBytes = 16 << 20
	// memoMaxArgs is the longest arguments' JSON a call may have to be
	// kept: a lookup is short, and its key is built on the stack.
	memoMaxArgs = 512
	// memoOverhead is what an entry is counted for besides its bytes
	// (the map slot, the string and slice headers, the boxed arguments).
	memoOverhead = 128
)

func newMemo(maxBytes int) *memo {
	return &memo{maxBytes: maxBytes, entries: map[string]memoEntry{}}
}

// memoKey appends to dst the key of a call of tool by a caller whose
// access ceiling is ceiling, with the raw arguments.
func memoKey(dst []byte, tool string, ceiling visibility.Level, raw json.RawMessage) []byte {
	dst = append(dst, tool...)
	dst = append(dst, 0, byte(ceiling))
	return append(dst, raw...)
}

// get returns the entry kept under key for version.
func (m *memo) get(version uint64, key []byte) (memoEntry, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.version != version {
		return memoEntry{}, false
	}
	e, ok := m.entries[string(key)]
	return e, ok
}

// put keeps e under key for version. An entry of an older version than the
// memo's is not kept; one of a newer version replaces every entry. An
// entry larger than the whole memo is not kept either.
func (m *memo) put(version uint64, key []byte, e memoEntry) {
	cost := e.cost(len(key))
	if cost > m.maxBytes {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case version < m.version:
		return
	case version > m.version:
		clear(m.entries)
		m.version, m.size = version, 0
	}
	if old, ok := m.entries[string(key)]; ok {
		delete(m.entries, string(key))
		m.size -= old.cost(len(key))
	}
	for k, old := range m.entries {
		if m.size+cost <= m.maxBytes {
			break
		}
		delete(m.entries, k)
		m.size -= old.cost(len(k))
	}
	m.entries[string(key)] = e
	m.size += cost
}
