package codex

import (
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/export"
)

// norm collapses white space and trims (the reference's _normalize_text).
func norm(s string) string { return export.CollapseSpace(s) }

// safe is battery A with a limit.
func safe(s string, limit int) string { return export.NativeText(s, limit) }

// isWord is a character of Python's Unicode \w.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsNumber(r)
}

// boundary reports whether a \b holds between before and after (utf8.RuneError
// with size 0 stands for the edge of the text).
func boundaryAt(s string, i int) bool {
	var before, after rune = -1, -1
	if i > 0 {
		before, _ = utf8.DecodeLastRuneInString(s[:i])
	}
	if i < len(s) {
		after, _ = utf8.DecodeRuneInString(s[i:])
	}
	return (before >= 0 && isWord(before)) != (after >= 0 && isWord(after))
}

// wordMatches returns every non-overlapping case-insensitive occurrence of
// word in s between word boundaries, as written in s: Python's
// re.finditer(r"\b" + re.escape(word) + r"\b", s, re.I).
func wordMatches(s, word string) []string {
	if word == "" {
		return nil
	}
	n := utf8.RuneCountInString(word)
	var out []string
	for i := 0; i < len(s); {
		j, k := i, 0
		for k < n && j < len(s) {
			_, size := utf8.DecodeRuneInString(s[j:])
			j += size
			k++
		}
		if k == n && boundaryAt(s, i) && boundaryAt(s, j) && strings.EqualFold(s[i:j], word) {
			out = append(out, s[i:j])
			i = j
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return out
}

// hasWord reports whether word occurs in s between word boundaries.
func hasWord(s, word string) bool {
	if word == "" {
		return false
	}
	n := utf8.RuneCountInString(word)
	for i := 0; i < len(s); {
		j, k := i, 0
		for k < n && j < len(s) {
			_, size := utf8.DecodeRuneInString(s[j:])
			j += size
			k++
		}
		if k == n && boundaryAt(s, i) && boundaryAt(s, j) && strings.EqualFold(s[i:j], word) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return false
}

// isLower is Python's str.islower: at least one cased character and no
// upper-case or title-case one.
func isLower(s string) bool {
	cased := false
	for _, r := range s {
		if unicode.IsUpper(r) || unicode.IsTitle(r) {
			return false
		}
		if unicode.IsLower(r) {
			cased = true
		}
	}
	return cased
}

// title is Python's str.title for the labels made of a project key.
func title(s string) string {
	var b strings.Builder
	prevCased := false
	for _, r := range s {
		if prevCased {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToTitle(r))
		}
		prevCased = unicode.IsLetter(r)
	}
	return b.String()
}

// friendlyLabel turns a project key into a label: _ and - become spaces,
// and an all-lower-case result is title-cased.
func friendlyLabel(key string) string {
	label := strings.TrimSpace(strings.NewReplacer("_", " ", "-", " ").Replace(key))
	if isLower(label) {
		return title(label)
	}
	return label
}

// dedupeFold keeps the first spelling of each case-insensitively equal
// item, dropping empty ones.
func dedupeFold(items []string) []string {
	seen := make(map[string]bool, len(items))
	out := items[:0:0]
	for _, it := range items {
		k := strings.ToLower(it)
		if it == "" || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, it)
	}
	return out
}

// validDay reports whether s is a YYYY-MM-DD calendar date.
func validDay(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// isoDay returns the day an ISO 8601 timestamp is written for (its offset
// kept, not converted to UTC), or "" when s has no readable date: the
// reference's _timestamp_to_iso_date, restricted to real calendar dates
// (⚠ #9: dates written are valid).
func isoDay(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 10 && validDay(s[:10]) {
		return s[:10]
	}
	// The ISO basic form (20261112 or 20261112T...).
	if len(s) >= 8 && (len(s) == 8 || s[8] == 'T') {
		if d := s[:4] + "-" + s[4:6] + "-" + s[6:8]; isDigits(s[:8]) && validDay(d) {
			return d
		}
	}
	return ""
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// epochDay reads s as an epoch in seconds (milliseconds above 10^10) and
// returns its UTC day.
func epochDay(s string) string {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || !(f > 0) || f > 1e15 {
		return ""
	}
	if f > 1e10 {
		f /= 1000
	}
	sec := int64(f)
	d := time.Unix(sec, 0).UTC()
	if d.Year() > 9999 {
		return ""
	}
	return d.Format("2006-01-02")
}

// instant is the reference's numeric sort key of an updated_at value:
// the number (seconds; milliseconds above 10^10), or the ISO timestamp's
// instant (UTC when it has no offset), or 0.
func instant(s string) float64 {
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		if f > 1e10 {
			f /= 1000
		}
		return f
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return float64(t.UnixNano()) / 1e9
		}
	}
	return 0
}
