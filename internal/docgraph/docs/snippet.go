package docs

import (
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// regionMarker is a line holding only a comment marker (//, # or --) and
// <id> or </id>.
var regionMarker = regexp.MustCompile(`^\s*(?://|#|--)\s*<(/?)([A-Za-z0-9_.-]+)>\s*$`)

// snippetRegion returns the lines of the named region of a registry
// file, without the marker lines of any region, dedented.
func snippetRegion(text, id string) (string, error) {
	lines := strings.Split(text, "\n")
	start := -1
	for i, line := range lines {
		m := regionMarker.FindStringSubmatch(line)
		if m == nil || m[2] != id {
			continue
		}
		switch {
		case m[1] == "" && start < 0:
			start = i + 1
		case m[1] == "/" && start >= 0:
			var keep []string
			for _, l := range lines[start:i] {
				if !regionMarker.MatchString(l) {
					keep = append(keep, l)
				}
			}
			return dedent(keep), nil
		}
	}
	if start >= 0 {
		return "", fmt.Errorf("region %q is not closed (want a </%s> marker)", id, id)
	}
	return "", fmt.Errorf("no region %q", id)
}

// snippetRange returns the lines a range selects: comma-separated 1-based
// line numbers and inclusive spans, as in "1,3-5".
func snippetRange(text, rng string) (string, error) {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	var keep []string
	for _, part := range strings.Split(rng, ",") {
		lo, hi, isSpan := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := a, error(nil)
		if isSpan {
			b, err2 = strconv.Atoi(strings.TrimSpace(hi))
		}
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return "", fmt.Errorf("range %q: %q is not a line or an ascending span of lines", rng, part)
		}
		if b > len(lines) {
			return "", fmt.Errorf("range %q: line %d is past the end of the file (%d lines)", rng, b, len(lines))
		}
		keep = append(keep, lines[a-1:b]...)
	}
	return dedent(keep), nil
}

// dedent removes the indentation common to the non-blank lines.
func dedent(lines []string) string {
	common := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if common < 0 || n < common {
			common = n
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		if len(l) >= common && common > 0 {
			l = l[common:]
		}
		out[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(out, "\n")
}

// codeSampleUID names the CodeSample of a region or range of a source:
// "<source>#<region>", or "<source>#L<range>" with commas as "_L", and
// every character but letters, digits and ._/- replaced by "-".
func codeSampleUID(source, id, rng string) string {
	frag := id
	if rng != "" {
		frag = "L" + strings.ReplaceAll(strings.ReplaceAll(rng, " ", ""), ",", "_L")
	}
	return sanitize(source) + "#" + sanitize(frag)
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '/', r == '-':
			return r
		}
		return '-'
	}, s)
}

// languages maps file extensions to a :::code language for references
// that name none.
var languages = map[string]string{
	".ts": "typescript", ".tsx": "typescript", ".js": "javascript", ".mjs": "javascript",
	".rs": "rust", ".go": "go", ".py": "python", ".sh": "bash", ".bash": "bash",
	".sql": "sql", ".json": "json", ".yml": "yaml", ".yaml": "yaml", ".toml": "toml",
}

func languageOf(source string) string { return languages[path.Ext(source)] }
