package export

import (
	"testing"
	"time"
)

func TestKeepsReadsSinceAsAnInstant(t *testing.T) {
	since := time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC)
	o := Options{Since: since}
	for _, c := range []struct {
		at   time.Time
		day  string
		want bool
	}{
		{since, "", true},
		{since.Add(-time.Second), "2026-11-10", false}, // the instant decides when known
		{time.Time{}, "2026-11-10", true},
		{time.Time{}, "2026-11-09", false},
		{time.Time{}, "", true},
	} {
		if got := o.Keeps(c.at, c.day); got != c.want {
			t.Errorf("Keeps(%v, %q) = %v", c.at, c.day, got)
		}
	}
	if !(Options{}).Keeps(time.Time{}, "1999-01-01") {
		t.Error("no since keeps everything")
	}
}

func TestDayAndInstant(t *testing.T) {
	for in, want := range map[string]string{
		"2026-11-02T09:00:00.000Z":  "2026-11-02",
		"2026-11-06T00:30:00+01:00": "2026-11-06",
		"2026-11-02 09:00:00":       "2026-11-02",
		"2026-13-02T09:00:00Z":      "",
		"yesterday":                 "",
		"":                          "",
	} {
		if got := Day(in); got != want {
			t.Errorf("Day(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]time.Time{
		"2026-11-02T09:00:00.000Z":  time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC),
		"2026-11-06T00:30:00+01:00": time.Date(2026, 11, 5, 23, 30, 0, 0, time.UTC),
		"2026-11-02 09:00:00":       time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC),
		"2026-11-02":                time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC),
		"soon":                      {},
	} {
		if got := Instant(in); !got.Equal(want) {
			t.Errorf("Instant(%q) = %v, want %v", in, got, want)
		}
	}
}
