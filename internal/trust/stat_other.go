//go:build !unix

package trust

import "os"

// stampOf returns the change-detection key of a file: modification time in
// nanoseconds and size, as the reference keys it.
func stampOf(fi os.FileInfo) stamp {
	return stamp{present: true, mtime: fi.ModTime().UnixNano(), size: fi.Size()}
}
