package requests

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestConcurrentTransitionsOneWinsPerStage races proposers and approvers
// on one request: at every stage exactly one transition is accepted, no
// history entry is lost or doubled, and the file always reads.
func TestConcurrentTransitionsOneWinsPerStage(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		const racers = 8
		s := newStore(t)
		id := accepted(t, s).ID
		stop := make(chan struct{})
		var readers sync.WaitGroup
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Get(id); err != nil {
					t.Errorf("reading during the race: %v", err)
					return
				}
			}
		}()
		var winners []string
		for _, tr := range steps() {
			var wins atomic.Int32
			var wg sync.WaitGroup
			start := make(chan struct{})
			won := make(chan string, racers)
			for i := range racers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					p, err := s.ProposeTransition(context.Background(), id, tr, fmt.Sprintf("agent:%d", i))
					var ge *GateError
					if errors.As(err, &ge) {
						return // the request moved on before the proposal was made
					}
					if err != nil {
						t.Error(err)
						return
					}
					_, _, err = s.Approve(context.Background(), p.ID, operator)
					switch {
					case err == nil:
						wins.Add(1)
						won <- p.ID
					case !errors.Is(err, ErrStale):
						t.Errorf("approval: %v", err)
					}
				}()
			}
			close(start)
			wg.Wait()
			close(won)
			if n := wins.Load(); n != 1 {
				t.Fatalf("to %s: %d approvals won, want 1", tr.To, n)
			}
			winners = append(winners, <-won)
		}
		close(stop)
		readers.Wait()

		r, err := s.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if r.Stage != StageDone || len(r.History) != len(steps())+1 {
			t.Fatalf("stage %s with %d history entries", r.Stage, len(r.History))
		}
		for i, h := range r.History[1:] {
			if h.Proposal != winners[i] || h.To != steps()[i].To {
				t.Errorf("history %d: %+v, want the winner %s to %s", i+1, h, winners[i], steps()[i].To)
			}
		}
		approved, problems, err := s.Proposals(ProposalFilter{Status: StatusApproved, RequestID: id})
		if err != nil || len(problems) > 0 || len(approved) != len(steps())+1 {
			t.Errorf("%d approved proposals, %v, %v", len(approved), problems, err)
		}
	})
}

// TestConcurrentIntakesGetSequentialIDs approves intakes in parallel.
func TestConcurrentIntakesGetSequentialIDs(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		const n = 12
		s := newStore(t)
		ids := make([]string, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
				if err != nil {
					t.Error(err)
					return
				}
				_, r, err := s.Approve(context.Background(), p.ID, operator)
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = r.ID
			}()
		}
		wg.Wait()
		sort.Strings(ids)
		for i, id := range ids {
			if want := fmt.Sprintf("REQ-2026-%04d", i+1); id != want {
				t.Fatalf("ids %v", ids)
			}
		}
		if all, problems, _ := s.All(); len(all) != n || len(problems) > 0 {
			t.Errorf("%d requests, %v", len(all), problems)
		}
	})
}

// TestReplicasAllocateDistinctIDs: stores opened apart on the same
// documents (two processes on one folder, two replicas on one database)
// approve intakes at the same time, and every request gets an id of its
// own, in sequence.
func TestReplicasAllocateDistinctIDs(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			const replicas, each = 2, 6
			open := b.fresh(t)
			var stores []*Store
			for range replicas {
				s := OpenDocuments(open())
				s.now = func() time.Time { return clock }
				stores = append(stores, s)
			}
			var (
				mu  sync.Mutex
				ids []string
				wg  sync.WaitGroup
			)
			for i := range replicas * each {
				wg.Add(1)
				go func() {
					defer wg.Done()
					s := stores[i%replicas]
					p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
					if err != nil {
						t.Error(err)
						return
					}
					_, r, err := stores[(i+1)%replicas].Approve(context.Background(), p.ID, operator)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					ids = append(ids, r.ID)
					mu.Unlock()
				}()
			}
			wg.Wait()
			slices.SortFunc(ids, compareIDs)
			for i, id := range ids {
				if want := fmt.Sprintf("REQ-2026-%04d", i+1); id != want {
					t.Fatalf("ids %v", ids)
				}
			}
			for _, s := range stores {
				if all, problems, _ := s.All(); len(all) != replicas*each || len(problems) > 0 {
					t.Errorf("%d requests, %v", len(all), problems)
				}
			}
		})
	}
}

// TestConcurrentDecisionsOnOneProposal races approvals and rejections of
// the same proposal: exactly one decides it.
func TestConcurrentDecisionsOnOneProposal(t *testing.T) {
	onBothBackends(t, func(t *testing.T, newStore func(*testing.T) *Store) {
		s := newStore(t)
		p, err := s.ProposeIntake(context.Background(), formJSON(t, nil), agent)
		if err != nil {
			t.Fatal(err)
		}
		var decided atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i%2 == 0 {
					_, _, err = s.Approve(context.Background(), p.ID, operator)
				} else {
					_, err = s.Reject(context.Background(), p.ID, operator, "duplicate")
				}
				switch {
				case err == nil:
					decided.Add(1)
				case !errors.Is(err, ErrDecided):
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if decided.Load() != 1 {
			t.Fatalf("%d decisions", decided.Load())
		}
		if all, _, _ := s.All(); len(all) > 1 {
			t.Errorf("%d requests", len(all))
		}
	})
}
