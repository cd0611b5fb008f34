package federation

import (
	"regexp"
	"strconv"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

// sinceRE is the calendar-filter grammar: a date, optionally followed by
// "T" or a space, HH:MM, optional :SS and fraction, and an optional zone
// Z, +HH:MM, -HH:MM, +HHMM or -HHMM.
var sinceRE = regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-](\d{2}):?(\d{2}))?)?$`)

// ParseSince reads a since filter and returns the calendar day it names.
// The day is the one written: an offset never moves it to another UTC day.
// Impossible dates, times and offsets are rejected.
func ParseSince(s string) (l5.Day, bool) {
	m := sinceRE.FindStringSubmatch(s)
	if m == nil {
		return l5.Day{}, false
	}
	day, ok := parseDayText(m[1])
	if !ok {
		return l5.Day{}, false
	}
	if m[2] != "" {
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		sec := 0
		if m[4] != "" {
			sec, _ = strconv.Atoi(m[4])
		}
		if h > 23 || mi > 59 || sec > 59 {
			return l5.Day{}, false
		}
	} else if len(s) > 10 {
		return l5.Day{}, false
	}
	if m[6] != "" {
		oh, _ := strconv.Atoi(m[6])
		om, _ := strconv.Atoi(m[7])
		if oh > 23 || om > 59 {
			return l5.Day{}, false
		}
	}
	return day, true
}

// parseDayText reads exactly YYYY-MM-DD.
func parseDayText(s string) (l5.Day, bool) {
	if len(s) != 10 {
		return l5.Day{}, false
	}
	return l5.ParseDay(s)
}

// dayOf returns the calendar day of t in its own zone.
func dayOf(t time.Time) l5.Day { return l5.Day{Year: t.Year(), Month: t.Month(), Dom: t.Day()} }
