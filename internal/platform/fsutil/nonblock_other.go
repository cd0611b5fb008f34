//go:build !unix

package fsutil

// nonBlock is zero where opens of special files do not block.
const nonBlock = 0
