package export

import (
	"slices"
	"time"
)

// Visibility levels as rows carry them.
const (
	Public  = "public"
	Team    = "team"
	Private = "private"
)

// Resolve returns the visibility of a row whose own visibility is own ("" for
// none) and whose tags are tags, with the reference's precedence: a tag in
// PrivateTags makes it private whatever it says, then its own visibility,
// then a tag in TeamTags makes it team, then the policy's default (public
// when the policy has none). Tags match exactly, as in the reference.
func (p *Policy) Resolve(own string, tags []string) string {
	if p == nil {
		if own != "" {
			return own
		}
		return Public
	}
	for _, t := range tags {
		if slices.Contains(p.PrivateTags, t) {
			return Private
		}
	}
	if own != "" {
		return own
	}
	for _, t := range tags {
		if slices.Contains(p.TeamTags, t) {
			return Team
		}
	}
	if p.Default != "" {
		return p.Default
	}
	return Public
}

// ApplyPolicy stamps every row with the level Resolve gives it under the
// output's policy, and drops the entities that resolve to private, as the
// reference's federation filter does. (The reference only drops; it never
// writes the level into the rows, so a row without one reads as public.)
// Sessions have no tags: theirs is their own visibility or the default.
func (o *Output) ApplyPolicy() {
	kept := o.Entities[:0]
	for _, e := range o.Entities {
		e.Visibility = o.Policy.Resolve(e.Visibility, e.Tags)
		if e.Visibility != Private {
			kept = append(kept, e)
		}
	}
	clear(o.Entities[len(kept):])
	o.Entities = kept
	for i := range o.Sessions {
		o.Sessions[i].Visibility = o.Policy.Resolve(o.Sessions[i].Visibility, nil)
	}
}

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
