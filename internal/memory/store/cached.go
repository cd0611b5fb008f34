package store

import (
	"context"
	"sync"
)

// Cached is the parsed form of one document, kept until the document's
// revision changes. Every Get asks the revision, outside the mutex (so
// that concurrent callers do not wait for each other's round trips to a
// database), and reads and parses the document again only when it
// changed: a process sees at once what another process or replica wrote.
// It is safe for concurrent use.
type Cached[T any] struct {
	docs       Documents
	name       string
	load       func(ctx context.Context) (T, Revision, error)
	unreadable func(error) error

	mu      sync.Mutex
	checked bool
	seen    Revision // of value
	value   T        // the zero T when err is set
	err     error
}

// NewCached returns the cache of the document name of docs. load reads
// and parses the document as it is now, returning the revision of exactly
// the bytes it parsed; unreadable wraps why it cannot be read or parsed
// into the error Get returns.
func NewCached[T any](docs Documents, name string, load func(ctx context.Context) (T, Revision, error), unreadable func(error) error) *Cached[T] {
	return &Cached[T]{docs: docs, name: name, load: load, unreadable: unreadable}
}

// Get returns the value as the document is now.
func (c *Cached[T]) Get(ctx context.Context) (T, error) {
	rev, err := c.docs.Revision(ctx, c.name)
	c.mu.Lock()
	defer c.mu.Unlock()
	var zero T
	if err != nil {
		c.checked, c.value, c.err = false, zero, c.unreadable(err)
		return zero, c.err
	}
	if c.checked && rev == c.seen {
		return c.value, c.err
	}
	v, seen, err := c.load(ctx)
	c.set(seen, v, err)
	return c.value, c.err
}

// Set records what a writer read (err: why it could not) or wrote at
// revision rev, so that the next Get need not read it again. The value
// must be one nobody changes afterwards.
func (c *Cached[T]) Set(rev Revision, v T, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(rev, v, err)
}

func (c *Cached[T]) set(rev Revision, v T, err error) {
	c.checked, c.seen, c.value, c.err = true, rev, v, nil
	if err != nil {
		var zero T
		c.value, c.err = zero, c.unreadable(err)
	}
}
