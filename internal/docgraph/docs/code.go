package docs

import (
	"cmp"
	"slices"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// codeSamples resolves every :::code directive (code-snippet-resolves)
// into a CodeSample node with an xref edge from the citing node. The
// source is a path from the corpus root of the citing file (the snippet
// registry, snippets/, sits there); id selects a named region and range
// a set of lines, and the two are mutually exclusive. Without either the
// sample is the whole file. A sample's products are those of every node
// citing it.
func (l *loader) codeSamples(by map[string]*record) {
	for _, r := range slices.Clone(l.records) {
		for _, c := range r.codes {
			s := l.codeSample(by, c)
			if s == nil {
				continue
			}
			for _, p := range asList(r.node.Props["products"]) {
				if !slices.Contains(asList(s.node.Props["products"]), p) {
					s.node.Props["products"] = append(asList(s.node.Props["products"]), p)
				}
			}
			r.refs = append(r.refs, ref{to: s.node.UID, typ: graph.Xref, rule: RuleCodeSnippet, what: ":::code", at: c.at})
		}
	}
}

// codeSample returns the CodeSample record a directive names, creating
// it on first use, or nil with a problem.
func (l *loader) codeSample(by map[string]*record, c codeUse) *record {
	src, id, rng := c.attrs["source"], c.attrs["id"], c.attrs["range"]
	bad := func(format string, args ...any) *record {
		l.bad(c.at, RuleCodeSnippet, format, args...)
		return nil
	}
	if src == "" {
		return bad(":::code has no source")
	}
	if id != "" && rng != "" {
		return bad(":::code names both id and range; they are mutually exclusive")
	}
	rel, ok := resolveRel("", src)
	if !ok {
		return bad("source %q is not a relative path inside the corpus root", src)
	}
	uid := codeSampleUID(rel, id, rng)
	if s := by[uid]; s != nil {
		if s.node.Label != graph.CodeSample || s.at.root != c.at.root {
			l.bad(c.at, RuleDuplicateUID, "code sample uid %s is already defined at %s:%d", uid, s.at.file, s.at.line)
			return nil
		}
		return s
	}
	f, err := l.read(c.at.root, rel)
	if err != nil {
		return bad("source %q: %v", src, err)
	}
	code, region := f.text, ""
	switch {
	case id != "":
		code, err = snippetRegion(f.text, id)
		region = id
	case rng != "":
		code, err = snippetRange(f.text, rng)
		region = rng
	}
	if err != nil {
		return bad("source %q: %v", src, err)
	}
	lang := cmp.Or(c.attrs["language"], languageOf(rel))
	s := l.newRecord(place{c.at.root, rel, 1}, graph.CodeSample, uid, false, f.mod)
	s.node.Content = code
	s.node.Props = map[string]any{
		"title": cmp.Or(region, rel) + " (" + rel + ")", "language": lang, "source": rel,
		"region": region, "code": code, "products": []any{},
	}
	by[uid] = s
	return s
}
