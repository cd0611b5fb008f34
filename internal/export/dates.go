package export

import "time"

// Keeps reports whether a session passes the --since filter: always when
// Since is zero; otherwise when its instant at is not before Since, or,
// when only its day is known (at is zero), when day is not before Since's
// UTC day. A session with neither is kept, as the reference keeps undated
// sessions.
func (o Options) Keeps(at time.Time, day string) bool {
	switch {
	case o.Since.IsZero():
		return true
	case !at.IsZero():
		return !at.Before(o.Since)
	case day != "":
		return day >= o.Since.UTC().Format(time.DateOnly)
	}
	return true
}

// Day returns the date an ISO 8601 text starts with ("2026-11-02" for
// "2026-11-02T09:00:00.000Z", the day as written, offset kept, as the
// reference takes it), or "" when it does not start with a real date.
func Day(s string) string {
	if len(s) < 10 {
		return ""
	}
	if _, err := time.Parse(time.DateOnly, s[:10]); err != nil {
		return ""
	}
	return s[:10]
}

// timeLayouts are the timestamp forms the native stores write.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999",
	time.DateOnly,
}

// Instant parses an ISO 8601 timestamp (RFC 3339, with or without a zone,
// with a space or a T, or a bare date); one without a zone is UTC. It
// returns the zero time when s is none of these.
func Instant(s string) time.Time {
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
