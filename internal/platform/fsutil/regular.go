package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// NotRegularError is a path that names something other than a regular
// file: a FIFO, a socket, a device or a directory. Reading one could block
// forever or never end, so readers refuse it.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is not a regular file (%s)", e.Path, describeMode(e.Mode))
}

func describeMode(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return m.Type().String()
}

// TooLargeError is a file over the size a reader accepts.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %d bytes", e.Path, e.Limit)
}

// OpenRegular opens path for reading only if it is a regular file. The open
// itself never blocks (a FIFO without a writer would block a plain open):
// it is made non-blocking, and what it opened is checked before any read.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	return checkRegular(f, path)
}

// OpenRegularIn is OpenRegular for a path inside root.
func OpenRegularIn(root *os.Root, name string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|nonBlock, 0)
	if err != nil {
		return nil, err
	}
	return checkRegular(f, name)
}

func checkRegular(f *os.File, path string) (*os.File, error) {
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Path: path, Mode: st.Mode()}
	}
	return f, nil
}

// ReadRegular reads the regular file at path, refusing anything else and
// any file larger than limit bytes (limit <= 0 means no limit).
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

// ReadOpen reads the rest of an open file, refusing one larger than limit
// bytes (limit <= 0 means no limit), for readers that also need the
// file's Stat of exactly the bytes they read.
func ReadOpen(f *os.File, limit int64) ([]byte, error) { return readLimited(f, f.Name(), limit) }

func readLimited(f *os.File, path string, limit int64) ([]byte, error) {
	if limit <= 0 {
		return io.ReadAll(f)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
}

// IsNotRegular reports whether err is a NotRegularError.
func IsNotRegular(err error) bool {
	var e *NotRegularError
	return errors.As(err, &e)
}
