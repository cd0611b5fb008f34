package docs

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlMime is the prefix of the first line of every corpus YAML file.
const yamlMime = "### YamlMime:"

// yamlFile is a parsed corpus YAML file.
type yamlFile struct {
	rt   *root
	file string
	f    textFile
	doc  *yaml.Node // the root mapping
	bad  func(line int, rule, format string, args ...any)
}

// place returns a place in the file.
func (y *yamlFile) place(line int) place { return place{y.rt, y.file, line} }

// loadYAML loads a YAML file whose first line is a YamlMime discriminator;
// other YAML files are not corpus files and are ignored.
func (l *loader) loadYAML(rt *root, file string) {
	f, ok := l.readWalked(rt, file)
	if !ok {
		return
	}
	first, _, _ := strings.Cut(f.text, "\n")
	mime, ok := strings.CutPrefix(strings.TrimSpace(first), yamlMime)
	if !ok {
		return
	}
	y := &yamlFile{rt: rt, file: file, f: f, bad: l.reporter(rt, file)}
	doc, ok := y.parse(f.text)
	if !ok {
		return
	}
	if doc.Kind != yaml.MappingNode {
		y.bad(doc.Line, RuleSchema, "want a mapping at the top level, got %s", describe(doc))
		return
	}
	y.doc = doc
	switch mime = strings.TrimSpace(mime); mime {
	case "LearningPath":
		l.loadPath(y)
	case "Module":
		l.loadModule(y)
	case "ModuleUnit":
		l.loadUnit(y)
	case "Achievements":
		l.loadAchievements(y)
	case "Nodes":
		l.loadNodes(y)
	case "Relations":
		l.loadRelations(y)
	default:
		y.bad(1, RuleSchema, "unknown YamlMime type %q (want LearningPath, Module, ModuleUnit, Achievements, Nodes or Relations)", mime)
	}
}

// parse parses YAML text of the file, reporting a failure and every
// repaired plain scalar as schema problems.
func (y *yamlFile) parse(text string) (*yaml.Node, bool) {
	doc, repaired, line, err := parseYAML(text)
	for _, n := range repaired {
		y.bad(n, RuleSchema, "a plain value holds \": \", which YAML does not allow; read as a quoted string (quote the value)")
	}
	if err != nil {
		y.bad(line, RuleSchema, "%v", err)
		return nil, false
	}
	return doc, true
}

// missing reports whether the value at the dotted key path is absent,
// null, an empty string or an empty list.
func missing(m *yaml.Node, keyPath string) bool {
	v := m
	for _, k := range strings.Split(keyPath, ".") {
		if v = value(v, k); v == nil {
			return true
		}
	}
	switch {
	case v.Kind == yaml.ScalarNode:
		return v.Tag == "!!null" || strings.TrimSpace(v.Value) == ""
	case v.Kind == yaml.SequenceNode || v.Kind == yaml.MappingNode:
		return len(v.Content) == 0
	}
	return false
}

// require reports every missing key of m as metadata-required, at the
// line of the deepest part of the key path that is present.
func (y *yamlFile) require(m *yaml.Node, keys ...string) {
	for _, k := range keys {
		if !missing(m, k) {
			continue
		}
		line, v := m.Line, m
		for _, part := range strings.Split(k, ".") {
			kn, vn := get(v, part)
			if kn == nil {
				break
			}
			line, v = kn.Line, vn
		}
		y.bad(line, RuleMetadataRequired, "missing required key %s", k)
	}
}

// checkDescription applies the 75-300 character rule to the description
// at key of m (m itself may be nil; the line falls back to fallback).
func checkDescription(m *yaml.Node, key, name string, fallback int, bad func(line int, rule, format string, args ...any)) {
	k, v := get(m, key)
	if k == nil || missing(m, key) {
		line := fallback
		if k != nil {
			line = k.Line
		}
		bad(line, RuleMetadataRequired, "missing required key %s", name)
		return
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(v.Value)); n < 75 || n > 300 {
		bad(v.Line, RuleMetadataRequired, "%s is %d characters; want 75-300", name, n)
	}
}

// proseBase is the line before the first line of a scalar's text: block
// scalars (| and >) start on the line after their key.
func proseBase(v *yaml.Node) int {
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return v.Line
	}
	return v.Line - 1
}
