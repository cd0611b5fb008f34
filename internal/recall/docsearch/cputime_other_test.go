//go:build !unix

package docsearch

import "time"

// cpuTime is 0 where the process's CPU clock is not read.
func cpuTime() time.Duration { return 0 }
