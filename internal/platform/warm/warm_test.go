package warm

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestRunRunsEveryCallOnce checks that concurrent calls each run once and
// that Run returns only after its call has.
func TestRunRunsEveryCallOnce(t *testing.T) {
	const calls = 2000
	var ran atomic.Int64
	var wg sync.WaitGroup
	for range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done := false
			Run(func() {
				ran.Add(1)
				done = true
			})
			if !done {
				t.Error("Run returned before its call")
			}
		}()
	}
	wg.Wait()
	if got := ran.Load(); got != calls {
		t.Errorf("%d calls ran, want %d", got, calls)
	}
}

// TestRunDoesNotWaitForABusyGoroutine checks that a call starts while
// another one is still running (a new goroutine is started rather than
// waiting for the busy one).
func TestRunDoesNotWaitForABusyGoroutine(t *testing.T) {
	release := make(chan struct{})
	running := make(chan struct{})
	go Run(func() {
		close(running)
		<-release
	})
	<-running
	Run(func() {}) // would deadlock if it waited for the first
	close(release)
}

// TestRunKeepsItsGoroutine checks the point of the package: calls one
// after the other run on one kept goroutine.
func TestRunKeepsItsGoroutine(t *testing.T) {
	before := started.Load()
	for range 100 {
		Run(func() {})
	}
	if n := started.Load() - before; n > 1 {
		t.Errorf("100 calls one after the other started %d goroutines, want at most 1", n)
	}
}
