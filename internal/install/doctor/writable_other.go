//go:build !unix

package doctor

import "os"

// dirWritable reports whether this process may create files in dir, by
// creating and removing an empty file there (the only portable test).
func dirWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".bourdon-doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
