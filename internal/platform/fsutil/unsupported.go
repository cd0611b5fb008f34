package fsutil

import (
	"errors"
	"syscall"
)

// isUnsupported reports errors of file systems and platforms that cannot
// sync a directory.
func isUnsupported(err error) bool {
	return errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, errors.ErrUnsupported)
}
