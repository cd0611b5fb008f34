//go:build unix

package store

import (
	"os"
	"strconv"
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
	var b [64]byte // three numbers of at most 20 digits and two dots
	r := strconv.AppendInt(b[:0], fi.Size(), 10)
	r = append(r, '.')
	r = strconv.AppendInt(r, fi.ModTime().UnixNano(), 10)
	r = append(r, '.')
	r = strconv.AppendUint(r, ino, 10)
	return Revision(r)
}
