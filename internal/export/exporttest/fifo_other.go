//go:build !unix

package exporttest

import "testing"

// FIFO skips the test: named pipes are a Unix thing.
func FIFO(t testing.TB, path string) {
	t.Helper()
	t.Skip("no named pipes on this system")
}
