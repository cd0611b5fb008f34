package codex

import (
	"regexp"
	"strings"
)

// sections are the five buckets the memory grammar fills (§3.3 of the
// behaviour spec), each deduplicated case-insensitively, first spelling
// kept.
type sections struct {
	TaskGroups   []string `json:"g,omitempty"`
	TaskTitles   []string `json:"t,omitempty"`
	Preferences  []string `json:"p,omitempty"`
	Keywords     []string `json:"k,omitempty"`
	Descriptions []string `json:"d,omitempty"`
}

func (s *sections) count() int {
	return len(s.TaskGroups) + len(s.TaskTitles) + len(s.Preferences) + len(s.Keywords) + len(s.Descriptions)
}

// extend appends o's items to s's, deduplicating each bucket.
func (s *sections) extend(o *sections) {
	s.TaskGroups = dedupeFold(append(s.TaskGroups, o.TaskGroups...))
	s.TaskTitles = dedupeFold(append(s.TaskTitles, o.TaskTitles...))
	s.Preferences = dedupeFold(append(s.Preferences, o.Preferences...))
	s.Keywords = dedupeFold(append(s.Keywords, o.Keywords...))
	s.Descriptions = dedupeFold(append(s.Descriptions, o.Descriptions...))
}

var (
	taskHeadingRE = regexp.MustCompile(`^#{1,3}\s*Task\b`)
	hashesRE      = regexp.MustCompile(`^#{1,3}\s*`)
	labelLineRE   = regexp.MustCompile("^[a-z][a-z0-9 /()'`-]*:$")
	threadHeadRE  = regexp.MustCompile("^##\\s+Thread\\s+`([^`]+)`")
)

var resetLabels = setOf("key steps:", "failures and how to do differently:", "references:", "rollout context:")

// splitCSV splits on commas, trimming spaces and backticks.
func splitCSV(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if p := strings.Trim(strings.TrimSpace(part), "`"); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func afterColon(line string) string {
	_, rest, _ := strings.Cut(line, ":")
	return rest
}

// parseMemory reads Codex memory Markdown with the reference's grammar.
func parseMemory(text string) sections {
	var r sections
	const (
		none = iota
		prefs
		keywords
		descs
	)
	section := none
	for _, raw := range splitLines(text) {
		line := norm(raw)
		if line == "" {
			continue
		}
		lower := strings.ToLower(line)
		switch {
		case strings.HasPrefix(line, "# Task Group:"):
			r.TaskGroups = append(r.TaskGroups, norm(afterColon(line)))
			section = none
		case taskHeadingRE.MatchString(line):
			t := hashesRE.ReplaceAllString(line, "")
			if strings.Contains(line, ":") {
				t = afterColon(line)
			}
			r.TaskTitles = append(r.TaskTitles, norm(t))
			section = none
		case strings.HasPrefix(line, "# ") && !strings.HasPrefix(lower, "# raw memories"):
			r.TaskGroups = append(r.TaskGroups, norm(line[2:]))
			section = none
		case strings.HasPrefix(lower, "task_group:"):
			r.TaskGroups = append(r.TaskGroups, strings.ReplaceAll(norm(afterColon(line)), "-", " "))
			section = none
		case strings.HasPrefix(lower, "task:"):
			r.TaskTitles = append(r.TaskTitles, strings.ReplaceAll(norm(afterColon(line)), "-", " "))
			section = none
		case strings.HasPrefix(lower, "description:"):
			r.Descriptions = append(r.Descriptions, norm(afterColon(line)))
		case strings.HasPrefix(lower, "keywords:"):
			r.Keywords = append(r.Keywords, splitCSV(afterColon(line))...)
			section = none
		case lower == "## user preferences" || lower == "### user preferences" || lower == "## preference signals" ||
			lower == "### preference signals" || lower == "preference signals:":
			section = prefs
		case lower == "## keywords" || lower == "### keywords":
			section = keywords
		case lower == "## reusable knowledge" || lower == "### reusable knowledge" || lower == "reusable knowledge:":
			section = descs
		case resetLabels[lower] || labelLineRE.MatchString(lower):
			section = none
		case strings.HasPrefix(line, "- "):
			bullet := norm(line[2:])
			switch section {
			case prefs:
				r.Preferences = append(r.Preferences, bullet)
			case keywords:
				r.Keywords = append(r.Keywords, splitCSV(bullet)...)
			case descs:
				r.Descriptions = append(r.Descriptions, bullet)
			}
		}
	}
	var out sections
	out.extend(&r)
	return out
}

// splitLines is Python's str.splitlines for the line breaks Markdown
// files use.
func splitLines(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// parseRawMemoryThreads reads the per-thread blocks of raw_memories.md
// (introduced by "## Thread `<id>`"), each parsed with the grammar.
func parseRawMemoryThreads(text string) map[string]*sections {
	out := map[string]*sections{}
	id := ""
	var lines []string
	flush := func() {
		if id == "" {
			return
		}
		p := parseMemory(strings.Join(lines, "\n"))
		if p.count() == 0 {
			return
		}
		if out[id] == nil {
			out[id] = &sections{}
		}
		out[id].extend(&p)
	}
	for _, raw := range splitLines(text) {
		if m := threadHeadRE.FindStringSubmatch(strings.TrimSpace(raw)); m != nil {
			flush()
			id, lines = norm(m[1]), nil
			continue
		}
		if id != "" {
			lines = append(lines, raw)
		}
	}
	flush()
	return out
}

// The block `bourdon codex sync-native --memory-md` writes into MEMORY.md.
const (
	bourdonBegin = "<!-- BEGIN BOURDON FALLBACK MEMORY -->"
	bourdonEnd   = "<!-- END BOURDON FALLBACK MEMORY -->"
)

// stripBourdonBlock removes every Bourdon-managed block from MEMORY.md, so
// the export does not read back what Bourdon wrote; an unterminated block
// drops everything after its start.
func stripBourdonBlock(text string) string {
	for {
		start := strings.Index(text, bourdonBegin)
		if start < 0 {
			return text
		}
		end := strings.Index(text[start:], bourdonEnd)
		if end < 0 {
			return strings.TrimRight(text[:start], " \t\r\n\v\f")
		}
		end += start + len(bourdonEnd)
		prefix := strings.TrimRight(text[:start], " \t\r\n\v\f")
		suffix := strings.TrimLeft(text[end:], " \t\r\n\v\f")
		switch {
		case prefix != "" && suffix != "":
			text = prefix + "\n\n" + suffix
		case prefix != "":
			text = prefix
		default:
			text = suffix
		}
	}
}
