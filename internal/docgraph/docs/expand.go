package docs

import (
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// maxIncludeDepth bounds nested includes.
const maxIncludeDepth = 8

// includeBudget is how much text includes may add to one Load: four
// times the size of the files read, plus MaxFileSize. A corpus includes
// each file about once; a file included many times over (an include
// bomb) runs out of budget instead of exhausting memory.
func (l *loader) includeBudget() int { return MaxFileSize + 4*l.readBytes }

// expand scans text, markdown written from line lineBase+1 of file, adds
// what it cites to r, and returns it with every include directive
// replaced by the included file's expanded text. stack holds the files
// being expanded, to refuse cycles.
func (l *loader) expand(r *record, rt *root, file, text string, lineBase int, stack []string) string {
	s := scanMarkdown(text)
	at := func(line int) place { return place{rt, file, lineBase + line} }
	for _, p := range s.problems {
		l.bad(at(p.line), p.rule, "%s", p.msg)
	}
	for _, x := range s.xrefs {
		r.cite(x.uid, graph.Xref, at(x.line))
	}
	for _, c := range s.codes {
		r.codes = append(r.codes, codeUse{c.attrs, at(c.line)})
	}
	for _, m := range s.monikers {
		r.monikers = append(r.monikers, monikerUse{m.rng, at(m.line)})
		r.node.Props["monikerBlocks"] = append(asList(r.node.Props["monikerBlocks"]), m.rng)
	}
	for _, h := range s.headings {
		r.headings = append(r.headings, h)
	}
	if len(s.includes) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, inc := range s.includes {
		b.WriteString(text[last:inc.start])
		b.WriteString(l.include(r, rt, file, inc.path, at(inc.line), stack))
		last = inc.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// include returns the expanded text of the file an include directive
// names, or "" with a broken-link problem.
func (l *loader) include(r *record, rt *root, file, target string, at place, stack []string) string {
	rel, ok := resolveRel(file, target)
	switch {
	case !ok:
		l.bad(at, RuleBrokenLink, "include %q is not a relative path inside the corpus root", target)
		return ""
	case slices.Contains(stack, rel):
		l.bad(at, RuleBrokenLink, "include %q forms a cycle: %s", target, strings.Join(append(stack, rel), " -> "))
		return ""
	case len(stack) > maxIncludeDepth:
		l.bad(at, RuleBrokenLink, "include %q nests deeper than %d includes", target, maxIncludeDepth)
		return ""
	}
	f, err := l.read(rt, rel)
	if err != nil {
		l.bad(at, RuleBrokenLink, "include %q: %v", target, err)
		return ""
	}
	if l.included+len(f.text) > l.includeBudget() {
		if !l.overBudget {
			l.bad(at, RuleBrokenLink, "include %q: includes add more than four times the corpus's text; this and later includes are skipped", target)
		}
		l.overBudget = true
		return ""
	}
	l.included += len(f.text)
	r.touch(f.mod)
	return strings.TrimSuffix(l.expand(r, rt, rel, f.text, 0, append(slices.Clone(stack), rel)), "\n")
}
