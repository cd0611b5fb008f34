//go:build !linux

package library

import (
	"errors"
	"os"
)

// statFile returns the stamp of a regular file (symbolic links followed).
func statFile(path string) (Stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Stamp{}, err
	}
	if !fi.Mode().IsRegular() {
		return Stamp{}, errors.New("not a regular file")
	}
	return Stamp{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}, nil
}
