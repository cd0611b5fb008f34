package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/getbourdon/bourdon-go/internal/memory/store"
	"github.com/getbourdon/bourdon-go/internal/memory/store/storetest"
)

func TestDirDocuments(t *testing.T) {
	dir := t.TempDir()
	open := func() store.Documents { return store.NewDirDocuments(dir, 0o600) }
	storetest.Documents(t, open(), open)
}

// TestDirDocumentsMakePrivateDirectories: the root and the directories a
// write or a lock creates get the x bits of the files' r bits, so private
// documents (0600) live in private directories (0700).
func TestDirDocumentsMakePrivateDirectories(t *testing.T) {
	for _, op := range []string{"write", "lock"} {
		root := filepath.Join(t.TempDir(), "home", ".bourdon")
		d := store.NewDirDocuments(root, 0o600)
		switch op {
		case "write":
			if _, err := d.Write(context.Background(), "sub/doc", []byte("x")); err != nil {
				t.Fatal(err)
			}
		case "lock":
			unlock, err := d.Lock(context.Background(), "sub/doc.lock")
			if err != nil {
				t.Fatal(err)
			}
			unlock()
		}
		for _, dir := range []string{root, filepath.Join(root, "sub")} {
			if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
				t.Errorf("%s: %s: %v %v, want 0700", op, dir, fi.Mode(), err)
			}
		}
	}
}
