//go:build unix

package exporttest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// FIFO makes path a named pipe that no one writes to, creating its
// directories (replacing a file there): opening it for reading the plain
// way blocks forever, so an exporter that meets one in a store must
// refuse it instead (fsutil.OpenRegular). It skips the test where named
// pipes do not exist.
func FIFO(t testing.TB, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
}
