//go:build linux

package library

import (
	"errors"
	"syscall"
)

// statFile returns the stamp of a regular file (symbolic links followed).
func statFile(path string) (Stamp, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return Stamp{}, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return Stamp{}, errors.New("not a regular file")
	}
	return Stamp{
		Size:  st.Size,
		MTime: st.Mtim.Nano(),
		Ino:   st.Ino,
		CTime: st.Ctim.Nano(),
	}, nil
}
