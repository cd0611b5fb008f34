package nativestore

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
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
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		tooLong := false
		for {
			chunk, err := br.ReadSlice('\n')
			if !tooLong {
				if len(buf)+len(chunk) > maxLine+1 {
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return long, err
			}
			eof := err != nil
			if tooLong {
				long = append(long, n)
			} else if line := bytes.TrimRight(buf, "\r\n"); len(line) > 0 || !eof {
				if err := fn(n, line); err != nil {
					return long, err
				}
			}
			if eof {
				return long, nil
			}
			break
		}
	}
}

// FileLines is Lines over the file at path.
func FileLines(path string, maxLine int, fn func(n int, line []byte) error) (long []int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Lines(f, maxLine, fn)
}
