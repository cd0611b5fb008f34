//go:build unix

package fsutil

import "syscall"

// nonBlock makes an open of a FIFO return at once instead of waiting for a
// writer; it changes nothing for regular files.
const nonBlock = syscall.O_NONBLOCK
