package authserver

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/testkit/pgtest"
)

// TestStateInPostgresLosesNoChange: four processes' stores (a pool each,
// so only the advisory lock keeps them apart) change the one state at the
// same time, and each sees the others' changes on its next read.
func TestStateInPostgresLosesNoChange(t *testing.T) {
	url := pgtest.Migrated(t)
	const procs, each = 4, 10
	stores := make([]*Store, procs)
	for i := range stores {
		stores[i] = NewStore(pgtest.Open(t, url).Documents(), StateFile)
	}
	now := time.Now()
	var wg sync.WaitGroup
	for p, s := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				err := s.update(now, func(st *state) error {
					st.Clients[fmt.Sprintf("c%d-%d", p, i)] = &client{Created: now}
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for p, s := range stores {
		st, err := s.read()
		if err != nil || len(st.Clients) != procs*each {
			t.Errorf("store %d reads %d clients, %v", p, len(st.Clients), err)
		}
	}
	if got := stores[0].Path(); got != pgtest.Open(t, url).Documents().Where(StateFile) {
		t.Errorf("Path %q", got)
	}
}
