//go:build !unix

package store

import (
	"fmt"
	"os"
)

// revisionOf is a file's size and modification time.
func revisionOf(fi os.FileInfo) Revision {
	return Revision(fmt.Sprintf("%d.%d", fi.Size(), fi.ModTime().UnixNano()))
}
