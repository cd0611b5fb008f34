package commit

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

// TestConcurrentWritersLoseNothing has several writers (separate Writer
// values, as separate processes would be) commit to overlapping agents at
// once; every entity must end up in its manifest and every write in the
// history.
func TestConcurrentWritersLoseNothing(t *testing.T) {
	root := t.TempDir()
	const writers, commits = 6, 25
	agents := []string{"a", "b"}
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wr := New(root)
			for i := range commits {
				id := agents[i%len(agents)]
				_, err := wr.Commit(context.Background(), Request{
					AgentID: id, AgentType: str("other"),
					Entities: []any{map[string]any{"name": fmt.Sprintf("w%d-c%d", w, i)}},
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	wr := New(root)
	total := 0
	for _, id := range agents {
		m, _, err := readManifest(wr.ManifestPath(id))
		if err != nil {
			t.Fatal(err)
		}
		n := len(listOf(m, "known_entities"))
		total += n
		changes, _ := wr.Changes(id)
		versions, _ := wr.Versions(id, 0)
		if len(changes) != n || len(versions) != n-1 {
			t.Errorf("%s: %d entities, %d changes, %d versions; want n, n, n-1", id, n, len(changes), len(versions))
		}
	}
	if total != writers*commits {
		t.Errorf("%d entities survived, want %d", total, writers*commits)
	}
}
