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

// TestScanBoundIsTheSameForTheLastLine: a line of max bytes is a line and
// one of max+1 is too long, whether a line break ends it or the input
// does (the last line without a break was allowed one byte more). A
// carriage return before the '\n' counts.
func TestScanBoundIsTheSameForTheLastLine(t *testing.T) {
	for _, c := range []struct {
		in   string
		long bool
	}{
		{"abcd", false}, {"abcd\n", false}, {"abcde", true}, {"abcde\n", true},
		{"abc\r\n", false}, {"abcd\r\n", true}, {"abcd\r", true},
	} {
		var long []bool
		err := Scan(strings.NewReader(c.in), 4, func(_ int, _ []byte, tooLong bool) error {
			long = append(long, tooLong)
			return nil
		})
		if err != nil || len(long) != 1 || long[0] != c.long {
			t.Errorf("%q: tooLong %v, want [%v] (%v)", c.in, long, c.long, err)
		}
	}
}
