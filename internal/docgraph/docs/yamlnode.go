package docs

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parseYAML parses a YAML document into its root node. Anchors and
// aliases are refused (no corpus file needs them, and refusing them rules
// out alias bombs); yaml.v3 itself caps nesting depth.
//
// A plain scalar holding ": " (key: a: b) is invalid YAML that lenient
// parsers accept; parseYAML reads such a value as a quoted string and
// returns the lines it repaired, for the caller to report.
func parseYAML(text string) (doc *yaml.Node, repaired []int, errLine int, err error) {
	var root yaml.Node
	for {
		root = yaml.Node{}
		err = yaml.Unmarshal([]byte(text), &root)
		if err == nil {
			break
		}
		line, msg := yamlError(err)
		fixed, ok := quotePlainScalar(text, line)
		if !ok || len(repaired) >= maxRepairs {
			return nil, repaired, line, errors.New(msg)
		}
		text, repaired = fixed, append(repaired, line)
	}
	if len(root.Content) == 0 {
		return nil, repaired, 1, errors.New("the document is empty")
	}
	n := root.Content[0]
	if line, ok := findAlias(n); ok {
		return nil, repaired, line, errors.New("YAML anchors and aliases are not supported")
	}
	return n, repaired, 0, nil
}

// maxRepairs bounds the plain scalars parseYAML quotes in one file (each
// costs a parse of the whole file).
const maxRepairs = 8

var plainPair = regexp.MustCompile(`^(\s*(?:-\s+)?[A-Za-z0-9_.$-]+:\s+)([^\s'"|>\[{&*!#%@` + "`" + `].*)$`)

// quotePlainScalar rewrites line n of text, key: value with a plain value
// holding ": ", as key: 'value'. It reports false when the line is not
// of that form.
func quotePlainScalar(text string, n int) (string, bool) {
	lines := strings.Split(text, "\n")
	if n < 1 || n > len(lines) {
		return "", false
	}
	m := plainPair.FindStringSubmatch(lines[n-1])
	if m == nil || !strings.Contains(m[2], ": ") {
		return "", false
	}
	v, _, _ := strings.Cut(m[2], " #")
	lines[n-1] = m[1] + "'" + strings.ReplaceAll(strings.TrimSpace(v), "'", "''") + "'"
	return strings.Join(lines, "\n"), true
}

var (
	yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)
	// parserError matches the messages of yaml.v3's parser (as opposed to
	// its scanner), whose line numbers are 0-based.
	parserError = regexp.MustCompile(`did not find expected (key|node content|'-' indicator|',' or|<)|found undefined tag handle`)
)

// yamlError returns the 1-based line and the message of a yaml.v3 error.
func yamlError(err error) (int, string) {
	msg := err.Error()
	m := yamlLine.FindStringSubmatch(msg)
	if m == nil {
		return 1, strings.TrimPrefix(msg, "yaml: ")
	}
	line, _ := strconv.Atoi(m[1])
	msg = msg[len(m[0]):]
	if parserError.MatchString(msg) {
		line++
	}
	return max(line, 1), msg
}

func findAlias(n *yaml.Node) (int, bool) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n.Line, true
	}
	for _, c := range n.Content {
		if line, ok := findAlias(c); ok {
			return line, true
		}
	}
	return 0, false
}

// kind is the expected type of a YAML value.
type kind int

const (
	kString  kind = iota // any non-null scalar, read as its text
	kStrings             // a sequence of scalars
	kMap                 // a mapping
	kList                // a sequence of anything
	kNumber              // an int or float scalar
	kBool                // a bool scalar
)

func (k kind) String() string {
	return [...]string{"a string", "a list of strings", "a mapping", "a list", "a number", "true or false"}[k]
}

// fields is the shape of a mapping: its known keys and their kinds.
type fields map[string]kind

// matches reports whether n is of kind k. A null value matches any kind
// (it reads as absent).
func (k kind) matches(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return true
	}
	switch k {
	case kString:
		return n.Kind == yaml.ScalarNode
	case kStrings:
		if n.Kind != yaml.SequenceNode {
			return false
		}
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return false
			}
		}
		return true
	case kMap:
		return n.Kind == yaml.MappingNode
	case kList:
		return n.Kind == yaml.SequenceNode
	case kNumber:
		return n.Kind == yaml.ScalarNode && (n.Tag == "!!int" || n.Tag == "!!float")
	case kBool:
		return n.Kind == yaml.ScalarNode && n.Tag == "!!bool"
	}
	return false
}

// describe names what a node is, for messages: its kind, or its value
// (cut to 40 characters).
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	if r := []rune(n.Value); len(r) > 40 {
		return fmt.Sprintf("%q", string(r[:40])+"…")
	}
	return fmt.Sprintf("%q", n.Value)
}

// checkShape reports (through bad, rule schema) every key of the mapping
// m that spec does not know, unless open, every repeated key, and every
// value of the wrong kind. where prefixes key names in messages ("metadata.").
func checkShape(m *yaml.Node, spec fields, open bool, where string, bad func(line int, rule, format string, args ...any)) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		want, known := spec[k.Value]
		switch {
		case seen[k.Value]:
			bad(k.Line, RuleSchema, "duplicate key %s%s (the first is used)", where, k.Value)
		case !known && !open:
			bad(k.Line, RuleSchema, "unknown key %s%s", where, k.Value)
		case known && !want.matches(v):
			bad(v.Line, RuleSchema, "%s%s: want %s, got %s", where, k.Value, want, describe(v))
		}
		seen[k.Value] = true
	}
}

// get returns the key and value nodes of key in mapping m, or nils.
func get(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

// value returns the value node of key in m, or nil.
func value(m *yaml.Node, key string) *yaml.Node {
	_, v := get(m, key)
	return v
}

// keyLine returns the line of key in m, or the line of m itself.
func keyLine(m *yaml.Node, key string) int {
	if k, _ := get(m, key); k != nil {
		return k.Line
	}
	if m == nil {
		return 1
	}
	return m.Line
}

// str returns the text of the scalar at key, or "".
func str(m *yaml.Node, key string) string {
	v := value(m, key)
	if v == nil || v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

// list returns the scalar items of the sequence at key with their nodes.
func list(m *yaml.Node, key string) []*yaml.Node {
	v := value(m, key)
	if v == nil || v.Kind != yaml.SequenceNode {
		return nil
	}
	var out []*yaml.Node
	for _, c := range v.Content {
		if c.Kind == yaml.ScalarNode && c.Tag != "!!null" && c.Value != "" {
			out = append(out, c)
		}
	}
	return out
}

// strs returns the scalar items of the sequence at key as a JSON list.
func strs(m *yaml.Node, key string) []any {
	out := []any{}
	for _, c := range list(m, key) {
		out = append(out, c.Value)
	}
	return out
}

// number returns the number at key, or 0.
func number(m *yaml.Node, key string) (float64, bool) {
	v := value(m, key)
	if v == nil || !kNumber.matches(v) || v.Tag == "!!null" {
		return 0, false
	}
	f, ok := toJSON(v).(float64)
	return f, ok
}

// toJSON converts a YAML node into a JSON value: maps with string keys,
// lists, strings, float64, bool and nil. Timestamps stay strings, and so
// do numbers JSON cannot hold (infinities, NaN).
func toJSON(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) > 0 {
			return toJSON(n.Content[0])
		}
		return nil
	case yaml.MappingNode:
		out := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			out[n.Content[i].Value] = toJSON(n.Content[i+1])
		}
		return out
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, toJSON(c))
		}
		return out
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b
			}
		case "!!int", "!!float":
			var f float64
			if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f
			}
		}
		return n.Value
	}
	return nil
}
