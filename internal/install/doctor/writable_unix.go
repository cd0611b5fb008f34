//go:build unix

package doctor

import "golang.org/x/sys/unix"

// dirWritable reports whether this process may create files in dir.
func dirWritable(dir string) error { return unix.Access(dir, unix.W_OK|unix.X_OK) }
