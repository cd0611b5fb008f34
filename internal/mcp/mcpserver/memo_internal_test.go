package mcpserver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/visibility"
)

// TestMemoIsBoundedAndHoldsOneVersion puts entries of random sizes, keys
// and versions into a small memo and checks after each put that it holds
// no more than its bound, counts its bytes right, answers only for its
// version, and answers the payload last put under a key.
func TestMemoIsBoundedAndHoldsOneVersion(t *testing.T) {
	const maxBytes = 4096
	m := newMemo(maxBytes)
	rng := rand.New(rand.NewPCG(1, 2))
	// The model: the newest version put, and what the memo may hold of it.
	var held uint64
	last := map[string][]byte{}
	var version uint64 = 1
	for i := range 5000 {
		if rng.IntN(200) == 0 {
			version++
		}
		put := version
		if rng.IntN(50) == 0 && version > 1 {
			put = version - 1 // a call that read an older view
		}
		key := memoKey(nil, "find_entity", visibility.Team, fmt.Appendf(nil, `{"name":"n%d"}`, rng.IntN(60)))
		payload := make([]byte, rng.IntN(600))
		if rng.IntN(100) == 0 {
			payload = make([]byte, maxBytes) // larger than the memo: not kept
		}
		payload = fmt.Appendf(nil, "%d:%s", i, payload)
		m.put(put, key, memoEntry{payload: payload})
		kept := len(key)+len(payload)+memoOverhead <= maxBytes && put >= held
		if kept {
			if put > held {
				held = put
				clear(last)
			}
			last[string(key)] = payload
		}

		size := 0
		for k, e := range m.entries {
			size += len(k) + len(e.payload) + memoOverhead
			if want, ok := last[k]; !ok || string(want) != string(e.payload) {
				t.Fatalf("put %d: %q holds %.20q, last put %.20q", i, k, e.payload, want)
			}
		}
		if size != m.size || size > maxBytes {
			t.Fatalf("put %d: holds %d bytes, counts %d, bound %d", i, size, m.size, maxBytes)
		}
		e, ok := m.get(held, key)
		if kept && (!ok || string(e.payload) != string(payload)) || ok && string(e.payload) != string(last[string(key)]) {
			t.Fatalf("put %d (kept %v): get after put answers %v, %.20q", i, kept, ok, e.payload)
		}
		if _, ok := m.get(held+1, key); ok {
			t.Fatalf("put %d: answered for a version it does not hold", i)
		}
	}
}
