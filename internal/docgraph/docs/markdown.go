package docs

import (
	"fmt"
	"regexp"
	"strings"
)

// mdScan is what one markdown text cites and declares. Lines are 1-based
// within the text. Fenced code blocks are skipped entirely, and inline
// code spans are skipped when looking for includes and xrefs, so
// examples of the syntax (as in an authoring guide) are not references.
type mdScan struct {
	headings []string
	xrefs    []mdXref
	codes    []mdCode
	includes []mdInclude
	monikers []mdMoniker
	problems []mdProblem
}

// mdXref is a uid cited by @uid, <xref:uid> or [text](xref:uid).
type mdXref struct {
	uid  string
	line int
}

// mdCode is a :::code directive with its attributes.
type mdCode struct {
	attrs map[string]string
	line  int
}

// mdInclude is an [!include[](path)] directive at text[start:end].
type mdInclude struct {
	path       string
	line       int
	start, end int
}

// mdMoniker is a ::: moniker range="…" block.
type mdMoniker struct {
	rng  string
	line int
}

type mdProblem struct {
	line      int
	rule, msg string
}

var (
	fenceOpen    = regexp.MustCompile("^\\s*(`{3,}|~{3,})(.*)$")
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	closingHash  = regexp.MustCompile(`(?:^|[ \t]+)#+$`)
	codeDirect   = regexp.MustCompile(`^:::\s*code\s+(.*?)\s*:::$`)
	attribute    = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_-]*)\s*=\s*"([^"]*)"`)
	monikerOpen  = regexp.MustCompile(`^:::\s*moniker\s+range\s*=\s*"([^"]*)"\s*(?::::)?$`)
	monikerClose = regexp.MustCompile(`^:::\s*(?:moniker-end\s*(?::::)?)?$`)
	includeRef   = regexp.MustCompile(`(?i)\[!include\[[^\]]*\]\(\s*([^)\s]*)\s*\)\]`)
	atXref       = regexp.MustCompile(`@([a-z][a-z0-9]*(?:[.\-][a-z0-9-]+){2,})`)
	tagXref      = regexp.MustCompile(`<xref:([^>\s]+)>`)
	linkXref     = regexp.MustCompile(`\]\(\s*xref:([^)\s]+)[^)]*\)`)
)

// scanMarkdown scans a markdown text.
func scanMarkdown(text string) *mdScan {
	s := &mdScan{}
	var fenceChar byte
	fenceLen, inMoniker, off := 0, 0, 0
	for i, line := range strings.Split(text, "\n") {
		n, start := i+1, off
		off += len(line) + 1
		if fenceLen > 0 {
			if m := fenceOpen.FindStringSubmatch(line); m != nil && m[1][0] == fenceChar && len(m[1]) >= fenceLen && strings.TrimSpace(m[2]) == "" {
				fenceLen = 0
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(line); m != nil && !(m[1][0] == '`' && strings.Contains(m[2], "`")) {
			fenceChar, fenceLen = m[1][0], len(m[1])
			continue
		}
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, ":::"):
			s.directive(trimmed, n, &inMoniker)
			continue
		case strings.HasPrefix(trimmed, "#"):
			if m := atxHeading.FindStringSubmatch(line); m != nil {
				if h := strings.TrimSpace(closingHash.ReplaceAllString(m[2], "")); h != "" {
					s.headings = append(s.headings, h)
				}
			}
		}
		s.inline(line, n, start)
	}
	if inMoniker > 0 {
		s.problems = append(s.problems, mdProblem{inMoniker, RuleSchema, "moniker block is not closed (want ::: or :::moniker-end)"})
	}
	return s
}

// directive handles a line that starts with ":::".
func (s *mdScan) directive(trimmed string, n int, inMoniker *int) {
	switch {
	case strings.HasPrefix(strings.TrimSpace(trimmed[3:]), "code"):
		m := codeDirect.FindStringSubmatch(trimmed)
		if m == nil {
			s.problems = append(s.problems, mdProblem{n, RuleCodeSnippet, "malformed :::code directive (want :::code source=\"…\" …:::)"})
			return
		}
		attrs := map[string]string{}
		for _, a := range attribute.FindAllStringSubmatch(m[1], -1) {
			attrs[a[1]] = a[2]
		}
		s.codes = append(s.codes, mdCode{attrs, n})
	case monikerOpen.MatchString(trimmed):
		if *inMoniker > 0 {
			s.problems = append(s.problems, mdProblem{n, RuleSchema, "moniker block opens inside another moniker block"})
		}
		*inMoniker = n
		s.monikers = append(s.monikers, mdMoniker{monikerOpen.FindStringSubmatch(trimmed)[1], n})
	case strings.HasPrefix(strings.TrimSpace(trimmed[3:]), "moniker") && !monikerClose.MatchString(trimmed):
		s.problems = append(s.problems, mdProblem{n, RuleSchema, "malformed moniker directive (want ::: moniker range=\"…\")"})
	case monikerClose.MatchString(trimmed):
		// A bare ::: also closes other blocks; only a moniker block cares.
		*inMoniker = 0
	}
}

// inline finds includes and xrefs in one line outside its code spans.
func (s *mdScan) inline(line string, n, start int) {
	if !strings.ContainsAny(line, "@<[") {
		return
	}
	spans := codeSpans(line)
	outside := func(i int) bool {
		for _, sp := range spans {
			if i >= sp[0] && i < sp[1] {
				return false
			}
		}
		return true
	}
	for _, m := range includeRef.FindAllStringSubmatchIndex(line, -1) {
		if outside(m[0]) {
			s.includes = append(s.includes, mdInclude{line[m[2]:m[3]], n, start + m[0], start + m[1]})
		}
	}
	for _, m := range atXref.FindAllStringSubmatchIndex(line, -1) {
		if outside(m[0]) && (m[0] == 0 || !isWordByte(line[m[0]-1])) {
			s.xrefs = append(s.xrefs, mdXref{line[m[2]:m[3]], n})
		}
	}
	for _, re := range []*regexp.Regexp{tagXref, linkXref} {
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			switch uid := cleanXref(line[m[2]:m[3]]); {
			case !outside(m[0]):
			case uid == "":
				s.problems = append(s.problems, mdProblem{n, RuleBrokenXref, fmt.Sprintf("xref %q names no uid", "xref:"+line[m[2]:m[3]])})
			default:
				s.xrefs = append(s.xrefs, mdXref{uid, n})
			}
		}
	}
}

// isWordByte reports bytes that may not precede an @uid: so an e-mail
// address (name@host.example.org) is not an xref.
func isWordByte(b byte) bool {
	return b == '_' || b == '.' || b == '-' || b == '@' || b == '/' || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// cleanXref drops the query (?displayProperty=…) and fragment of an xref.
func cleanXref(uid string) string {
	if i := strings.IndexAny(uid, "?#"); i >= 0 {
		uid = uid[:i]
	}
	return uid
}

// codeSpans returns the byte ranges of the inline code spans of one line:
// a run of n backticks up to the next run of exactly n. An unmatched run
// is literal text.
func codeSpans(line string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(line); {
		if line[i] != '`' {
			i++
			continue
		}
		n := runLen(line, i)
		j := i + n
		closed := false
		for j < len(line) {
			if line[j] != '`' {
				j++
				continue
			}
			m := runLen(line, j)
			if m == n {
				spans = append(spans, [2]int{i, j + m})
				closed = true
				j += m
				break
			}
			j += m
		}
		if closed {
			i = j
		} else {
			i += n
		}
	}
	return spans
}

func runLen(s string, i int) int {
	j := i
	for j < len(s) && s[j] == '`' {
		j++
	}
	return j - i
}
