//go:build unix

package store_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
)

// TestDirDocumentsListsWhatItCannotRead: a link and a named pipe among
// the files are listed, so that a reader reports them, and Read refuses
// both; subdirectories and dot files are not listed.
func TestDirDocumentsListsWhatItCannotRead(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	docs := store.NewDirDocuments(dir, 0o644)
	if _, err := docs.Write(ctx, "d/a.yaml", []byte("a")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "x.yaml")
	os.WriteFile(outside, []byte("x"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "d", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "d", "pipe.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	os.Mkdir(filepath.Join(dir, "d", "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "d", ".tmp"), nil, 0o644)
	list, err := docs.List(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range list {
		names = append(names, d.Name)
	}
	if want := []string{"d/a.yaml", "d/link.yaml", "d/pipe.yaml"}; !slices.Equal(names, want) {
		t.Errorf("listed %v, want %v", names, want)
	}
	for _, name := range []string{"d/link.yaml", "d/pipe.yaml"} {
		if _, _, err := docs.Read(ctx, name, 100); err == nil {
			t.Errorf("read %s", name)
		}
	}
}
