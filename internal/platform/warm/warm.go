// Package warm runs calls on goroutines that are kept between calls, so
// that a call which needs a deep stack finds one already grown.
//
// Every MCP request is handled on a goroutine of its own, started by the
// go-sdk for it, whose stack begins small: a tool call that validates its
// arguments against a JSON schema (a deep recursion) and encodes its
// result grows that stack by copying it, several times, on every call
// (about 5 % of a find_entity's CPU over HTTP, bench/README.md). A kept
// goroutine keeps its grown stack until the collector shrinks it.
package warm

import (
	"sync/atomic"
	"time"
)

// idleFor is how long a kept goroutine waits for another call before it
// ends.
const idleFor = 10 * time.Second

// handoff takes a call to an idle kept goroutine. It is unbuffered: a
// send succeeds only when one is waiting, so a call never waits for a
// goroutine to come free; a new one starts instead.
var handoff = make(chan func())

// started counts the goroutines Run started, for the tests.
var started atomic.Int64

// Run calls f on a kept goroutine and returns when f has returned. A
// panic in f is not recovered: it ends the program as it would have.
func Run(f func()) {
	done := make(chan struct{})
	call := func() {
		defer close(done)
		f()
	}
	select {
	case handoff <- call:
	default:
		started.Add(1)
		go loop(call)
	}
	<-done
}

// loop runs call, then the calls handed to it within idleFor of each
// other.
func loop(call func()) {
	idle := time.NewTimer(idleFor)
	defer idle.Stop()
	for {
		call()
		call = nil // not kept alive while waiting
		idle.Reset(idleFor)
		select {
		case call = <-handoff:
		case <-idle.C:
			return
		}
	}
}
