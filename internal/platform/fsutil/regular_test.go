//go:build unix

package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadRegularRefusesFIFOsWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "REQ-2026-0001.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Without a writer, a plain open of this FIFO would block forever.
	if _, err := ReadRegular(fifo, 1<<20); !IsNotRegular(err) {
		t.Fatalf("FIFO: err = %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := OpenRegularIn(root, "REQ-2026-0001.yaml"); !IsNotRegular(err) {
		t.Fatalf("FIFO in a root: err = %v", err)
	}
	if _, err := ReadRegular(dir, 0); !IsNotRegular(err) {
		t.Errorf("directory: err = %v", err)
	}
	file := filepath.Join(dir, "ok.yaml")
	if err := os.WriteFile(file, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadRegular(file, 10); err != nil || string(data) != "0123456789" {
		t.Errorf("regular file: %q %v", data, err)
	}
	var tl *TooLargeError
	if _, err := ReadRegular(file, 9); !errors.As(err, &tl) {
		t.Errorf("over the limit: err = %v", err)
	}
}
