package trust

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// RateLimit bounds how often one HTTP caller may call tools and read
// resources: PerSecond calls a second on average, in bursts of up to
// Burst. PerSecond 0 means no limit. Limits are kept in memory, so they
// hold per server process (per replica).
type RateLimit struct {
	PerSecond float64
	Burst     int
}

// Unlimited reports whether the limit lets every call through.
func (l RateLimit) Unlimited() bool { return l.PerSecond <= 0 }

// RateOverride is a member's own limit from the registry: either part may
// be unset (nil, 0), and the server's default then applies to it.
type RateOverride struct {
	// PerSecond is the registry's rate_limit; nil when the row has none.
	PerSecond *float64
	// Burst is the registry's rate_burst; 0 when the row has none.
	Burst int
}

// Over returns the limit that applies to a caller with override o when
// the server's default is def.
func (o RateOverride) Over(def RateLimit) RateLimit {
	if o.PerSecond != nil {
		def.PerSecond = *o.PerSecond
	}
	if o.Burst > 0 {
		def.Burst = o.Burst
	}
	return def
}

// rateUnits are the spellings of a rate's period.
var rateUnits = map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour}

// MaxBurst bounds a burst, so that a typing slip cannot switch a limit off.
const MaxBurst = 100000

// ParseRate reads a rate as the command line and the registry spell it:
// N/s, N/m or N/h (N calls a second, minute or hour, N a positive
// number), or "off" (and "0") for no limit. It returns calls a second.
func ParseRate(s string) (float64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "off" || t == "0" {
		return 0, nil
	}
	n, unit, ok := strings.Cut(t, "/")
	period, known := rateUnits[strings.TrimSpace(unit)]
	count, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
	if !ok || !known || err != nil || !(count > 0) || count > 1e9 {
		return 0, fmt.Errorf("rate %q: use N/s, N/m or N/h (such as 120/m), or off", s)
	}
	return count / period.Seconds(), nil
}

// FormatRate writes calls a second back the way ParseRate reads it, in
// the largest unit that keeps the count whole when there is one.
func FormatRate(perSecond float64) string {
	if perSecond <= 0 {
		return "off"
	}
	for _, u := range []string{"s", "m", "h"} {
		n := perSecond * rateUnits[u].Seconds()
		if n == float64(int64(n)) {
			return strconv.FormatInt(int64(n), 10) + "/" + u
		}
	}
	return strconv.FormatFloat(perSecond*3600, 'g', 6, 64) + "/h"
}

// CheckBurst checks a burst given on a command line or in the registry.
func CheckBurst(n int) error {
	if n < 1 || n > MaxBurst {
		return fmt.Errorf("burst %d: use 1 to %d", n, MaxBurst)
	}
	return nil
}
