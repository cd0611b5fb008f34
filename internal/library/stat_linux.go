//go:build linux

package library

import (
	"errors"
	"syscall"
)

// statFile returns the stamp of a regular file (symbolic links followed).
func statFile(path string) (stamp, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return stamp{}, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return stamp{}, errors.New("not a regular file")
	}
	return stamp{
		size:  st.Size,
		mtime: st.Mtim.Nano(),
		ino:   st.Ino,
		ctime: st.Ctim.Nano(),
	}, nil
}
