package linescan

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestScanBoundsLinesAndKeepsNumbers(t *testing.T) {
	in := "a\n" + strings.Repeat("x", 300_000) + "\n\nb\r\nlast"
	var got []string
	err := Scan(strings.NewReader(in), 1000, func(n int, line []byte, tooLong bool) error {
		got = append(got, fmt.Sprintf("%d=%s/%v", n, line, tooLong))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"1=a/false", "2=/true", "3=/false", "4=b/false", "5=last/false"}; !slices.Equal(got, want) {
		t.Errorf("lines = %q, want %q", got, want)
	}
}

func TestScanStopsOnTheCallbacksError(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Scan(strings.NewReader("a\nb\nc\n"), 10, func(int, []byte, bool) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("err %v after %d calls", err, calls)
	}
	// A final line break ends the last line; it does not start an empty one.
	calls = 0
	_ = Scan(strings.NewReader("a\n"), 10, func(int, []byte, bool) error { calls++; return nil })
	if calls != 1 {
		t.Errorf("%d lines in %q", calls, "a\n")
	}
}
