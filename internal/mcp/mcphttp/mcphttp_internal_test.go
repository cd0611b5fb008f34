package mcphttp

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAllReadsWhatArrives checks readAll against io.ReadAll whatever
// length the request declared: exact, short, long, none, and a failing
// reader.
func TestReadAllReadsWhatArrives(t *testing.T) {
	body := strings.Repeat(`{"jsonrpc":"2.0"}`, 50)
	for _, declared := range []int64{-1, 0, 1, int64(len(body)) - 1, int64(len(body)), int64(len(body)) + 1, 10 * int64(len(body))} {
		got, err := readAll(iotest.OneByteReader(strings.NewReader(body)), declared)
		if err != nil || string(got) != body {
			t.Errorf("declared %d: read %d bytes, %v; want %d bytes", declared, len(got), err, len(body))
		}
	}
	boom := errors.New("boom")
	if _, err := readAll(io.MultiReader(strings.NewReader("ab"), iotest.ErrReader(boom)), 10); !errors.Is(err, boom) {
		t.Errorf("a failing reader: %v, want %v", err, boom)
	}
}
