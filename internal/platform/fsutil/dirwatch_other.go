//go:build !linux

package fsutil

import (
	"os"
	"time"
)

// dirWatch keeps nothing where the kernel tells nothing: every Stat of a
// KeptTree stats.
type dirWatch struct{}

func watchDir(string, *os.Root) *dirWatch { return nil }

func (*dirWatch) lookup(string, time.Time) (statResult, bool, uint64) {
	return statResult{}, false, 0
}

func (*dirWatch) remember(string, uint64, statResult, time.Time) {}

func (*dirWatch) release() {}

func (*dirWatch) lost() bool { return true }
