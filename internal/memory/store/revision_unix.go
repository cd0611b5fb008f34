//go:build unix

package store

import (
	"fmt"
	"os"
	"syscall"
)

// revisionOf is a file's size, modification time and inode: a rename
// over it (every write) changes the inode even within the clock's
// resolution.
func revisionOf(fi os.FileInfo) Revision {
	var ino uint64
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ino = uint64(st.Ino)
	}
	return Revision(fmt.Sprintf("%d.%d.%d", fi.Size(), fi.ModTime().UnixNano(), ino))
}
