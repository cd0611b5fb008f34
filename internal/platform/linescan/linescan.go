// Package linescan reads a stream one line at a time with a bound on the
// length of a line, so that input of any size, or one endless line, is
// read in constant memory: JSON Lines stores, MCP stdio frames.
package linescan

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Scan calls fn for every line of r with its number (from 1) and its bytes
// without the trailing line break characters; the bytes are valid only
// during the call. A line longer than max bytes is not held: fn gets it as
// nil with tooLong set, once the whole line has been passed over. The empty
// remainder after a final line break is not a line. An error from fn stops
// the scan and is returned, as is a read error.
func Scan(r io.Reader, max int, fn func(n int, line []byte, tooLong bool) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for n := 1; ; n++ {
		buf = buf[:0]
		tooLong := false
		var err error
		for {
			var chunk []byte
			chunk, err = br.ReadSlice('\n')
			if !tooLong {
				// The line's bytes, without its '\n' (which ends the
				// last chunk, when there is one: a final line without a
				// line break has none).
				size := len(buf) + len(chunk)
				if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
					size--
				}
				if size > max {
					tooLong, buf = true, buf[:0]
				} else {
					buf = append(buf, chunk...)
				}
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		eof := err != nil
		switch line := bytes.TrimRight(buf, "\r\n"); {
		case tooLong:
			if err := fn(n, nil, true); err != nil {
				return err
			}
		case len(line) > 0 || !eof:
			if err := fn(n, line, false); err != nil {
				return err
			}
		}
		if eof {
			return nil
		}
	}
}
