package demo

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
)

// corpus is the demo documentation corpus: the training, docs, decisions
// and skills of the same fictional payments team whose agents Write
// describes. Its "Payments API" and "Checkout page" docs and its "Ledger
// migration" decision carry the names of demo library entities, so the
// memory federation links the two.
//
//go:embed corpus
var corpus embed.FS

// WriteDocs writes the demo documentation corpus under dir, creating dir
// and its subdirectories (0o755) as needed, with files of mode 0o644.
// Existing files of the same names are overwritten; nothing else in dir is
// touched. Every write goes through an os.Root opened on dir, so no path
// leaves it, even through a symbolic link already in dir. The result
// loads with docs.Load(dir) without problems; modification times are
// those of the writes and mean nothing.
func WriteDocs(dir string) error {
	src, err := fs.Sub(corpus, "corpus")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p == ".":
			return nil
		case d.IsDir():
			return root.MkdirAll(filepath.FromSlash(p), 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return root.WriteFile(filepath.FromSlash(p), data, 0o644)
	})
}
