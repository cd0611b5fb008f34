//go:build unix

package trust

import (
	"os"
	"syscall"
)

// stampOf returns the change-detection key of a file: modification time in
// nanoseconds and size, as the reference keys it, plus the inode, which an
// atomic replace always changes.
func stampOf(fi os.FileInfo) stamp {
	s := stamp{present: true, mtime: fi.ModTime().UnixNano(), size: fi.Size()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.ino = uint64(st.Ino)
	}
	return s
}
