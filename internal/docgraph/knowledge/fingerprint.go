package knowledge

import (
	"encoding/binary"
	"hash/fnv"
	"io/fs"
	"path/filepath"
	"strings"
)

// skipDirs are directories the corpus loader never reads from.
var skipDirs = map[string]bool{"media": true, "node_modules": true}

// fingerprint sums what the corpus roots hold without reading a file: the
// path, size, mode and modification time of every file, and every error
// met on the way (a root that cannot be read has a fingerprint too).
// Hidden entries and directories the loader never reads are skipped. A
// file added, removed, renamed, resized or touched changes the sum; one
// rewritten with the same size within the file system's clock tick does
// not.
func fingerprint(dirs []string) uint64 {
	h := fnv.New64a()
	var num [8]byte
	write := func(parts ...string) {
		for _, p := range parts {
			h.Write([]byte(p))
			h.Write([]byte{0})
		}
	}
	for _, dir := range dirs {
		write("root", dir)
		_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				write("error", p, err.Error())
				return nil
			}
			name := d.Name()
			if p != dir && (strings.HasPrefix(name, ".") || d.IsDir() && skipDirs[name]) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				write("error", p, err.Error())
				return nil
			}
			write("file", p, info.Mode().String())
			binary.LittleEndian.PutUint64(num[:], uint64(info.Size()))
			h.Write(num[:])
			binary.LittleEndian.PutUint64(num[:], uint64(info.ModTime().UnixNano()))
			h.Write(num[:])
			return nil
		})
	}
	return h.Sum64()
}
