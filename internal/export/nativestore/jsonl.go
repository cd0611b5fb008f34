package nativestore

import (
	"io"

	"github.com/getbourdon/bourdon-go/internal/platform/fsutil"
	"github.com/getbourdon/bourdon-go/internal/platform/linescan"
)

// MaxLine is the default bound on one JSON Lines record: longer lines are
// skipped (and reported), never held in memory whole.
const MaxLine = 8 << 20

// Lines streams r one line at a time, calling fn with the line's number
// (from 1) and its bytes without the line break; the bytes are valid only
// during the call. Lines longer than maxLine bytes (0 means MaxLine) are
// not passed to fn: their numbers are returned in long. An error from fn
// stops the scan and is returned.
func Lines(r io.Reader, maxLine int, fn func(n int, line []byte) error) (long []int, err error) {
	if maxLine <= 0 {
		maxLine = MaxLine
	}
	err = linescan.Scan(r, maxLine, func(n int, line []byte, tooLong bool) error {
		if tooLong {
			long = append(long, n)
			return nil
		}
		return fn(n, line)
	})
	return long, err
}

// FileLines is Lines over the regular file at path (a FIFO or a device in
// a store is refused, never waited on).
func FileLines(path string, maxLine int, fn func(n int, line []byte) error) (long []int, err error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Lines(f, maxLine, fn)
}
