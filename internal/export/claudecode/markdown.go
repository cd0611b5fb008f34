package claudecode

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
)

// The reference's Markdown rules for memory notes, brain overviews and log
// files.

var (
	h1RE        = regexp.MustCompile(`(?m)^#[ \t]+(.+?)[ \t]*$`)
	subtitleRE  = regexp.MustCompile(`\s*[-\x{2014}\x{2013}:]+\s+`)
	statusRE    = regexp.MustCompile(`(?mi)^##[ \t]+(?:Current[ \t]+)?Status[^\n]*$`)
	statusDayRE = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
)

// title returns the text of the first "# " heading of body, cut before a
// subtitle ("Payments API — refunds" is "Payments API"), or "".
func title(body string) string {
	m := h1RE.FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	t := strings.TrimSpace(m[1])
	if loc := subtitleRE.FindStringIndex(t); loc != nil {
		t = t[:loc[0]]
	}
	return strings.TrimSpace(t)
}

// firstParagraph returns the first paragraph of body that is not a
// heading, its lines trimmed and joined with spaces, cut to limit code
// points. Heading lines are skipped, also inside the paragraph.
func firstParagraph(body string, limit int) string {
	var para []string
	total := 0
	for _, line := range strings.Split(body, "\n") {
		s := strings.TrimSpace(line)
		if s == "" {
			if len(para) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(s, "#") {
			continue
		}
		para = append(para, s)
		total += utf8.RuneCountInString(s) + 1
		if total > limit {
			break
		}
	}
	return strings.TrimSpace(prefix(strings.TrimSpace(strings.Join(para, " ")), limit))
}

// statusTags returns the tags named in the "## Status" section of body (the
// 400 code points from its heading): archived, canceled (also spelled
// cancelled), active, shipped, blocked, in that order. They are found as
// substrings, as the reference does ("inactive" gives active).
func statusTags(body string) []string {
	region, ok := statusRegion(body)
	if !ok {
		return nil
	}
	region = strings.ToLower(region)
	var tags []string
	for _, k := range []string{"archived", "canceled", "cancelled", "active", "shipped", "blocked"} {
		if strings.Contains(region, k) {
			tags = appendNew(tags, strings.ReplaceAll(k, "cancelled", "canceled"))
		}
	}
	return tags
}

// statusDay returns the first valid YYYY-MM-DD date of the status section.
func statusDay(body string) string {
	region, ok := statusRegion(body)
	if !ok {
		return ""
	}
	for _, m := range statusDayRE.FindAllString(region, -1) {
		if d, ok := l5.ParseDay(m); ok {
			return d.String()
		}
	}
	return ""
}

func statusRegion(body string) (string, bool) {
	loc := statusRE.FindStringIndex(body)
	if loc == nil {
		return "", false
	}
	return prefix(body[loc[0]:], 400), true
}

// prefix returns the first n code points of s.
func prefix(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		dup := false
		for _, have := range list {
			if have == it {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, it)
		}
	}
	return list
}
