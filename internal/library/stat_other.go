//go:build !linux

package library

import (
	"errors"
	"os"
)

// statFile returns the stamp of a regular file (symbolic links followed).
func statFile(path string) (stamp, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return stamp{}, err
	}
	if !fi.Mode().IsRegular() {
		return stamp{}, errors.New("not a regular file")
	}
	return stamp{size: fi.Size(), mtime: fi.ModTime().UnixNano()}, nil
}
