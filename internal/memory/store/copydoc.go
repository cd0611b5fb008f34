package store

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
)

// CopyDocument copies the document srcName of src to dstName of dst, byte
// for byte, holding dst's lock dstName + ".lock" (the lock its writers
// take) from the read of what dst holds to the write. check is given the
// source's bytes and dst's current ones (nil when it has none) and
// returns why the copy must not be made, or nil to go on; it is not
// called when dst holds the same bytes already, which copies nothing. A
// missing source copies nothing either: copied is false.
func CopyDocument(ctx context.Context, src Documents, srcName string, dst Documents, dstName string, limit int64, check func(data, current []byte) error) (copied bool, err error) {
	data, _, err := src.Read(ctx, srcName, limit)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	unlock, err := dst.Lock(ctx, dstName+".lock")
	if err != nil {
		return false, err
	}
	defer unlock()
	current, _, err := dst.Read(ctx, dstName, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		current = nil
	case err != nil:
		return false, err
	}
	if current != nil && bytes.Equal(current, data) {
		return false, nil
	}
	if err := check(data, current); err != nil {
		return false, err
	}
	if _, err := dst.Write(ctx, dstName, data); err != nil {
		return false, err
	}
	return true, nil
}
