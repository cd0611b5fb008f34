//go:build unix

package docsearch

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime is the CPU time the process has used (all its threads), which
// time taken by other processes on a shared machine does not inflate.
func cpuTime() time.Duration {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts) != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
