package yaml11

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// SyntaxError is a document that is not valid YAML, or that uses a feature
// a safe YAML 1.1 reader refuses. Line is 1-based; 0 means unknown.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Decode parses one YAML document and returns its value (see the package
// documentation for the Go types used). An empty document decodes to nil.
// A stream of several documents is an error, as with safe_load.
func Decode(data []byte) (any, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, syntaxError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &SyntaxError{Line: extra.Line, Msg: "expected a single document, found another"}
	} else if !errors.Is(err, io.EOF) {
		return nil, syntaxError(err)
	}
	c := converter{budget: 4*len(data) + 10000}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return c.value(doc.Content[0])
}

// syntaxError turns a yaml.v3 error ("yaml: line 3: ...") into a SyntaxError.
func syntaxError(err error) error {
	msg := err.Error()
	var line int
	if n, _ := fmt.Sscanf(msg, "yaml: line %d:", &line); n == 1 {
		if i := bytes.IndexByte([]byte(msg), ':'); i >= 0 {
			rest := msg[i+1:]
			if j := bytes.IndexByte([]byte(rest), ':'); j >= 0 {
				msg = rest[j+1:]
			}
		}
		msg = trimSpace(msg)
		if strings.HasPrefix(msg, "did not find expected") {
			// yaml.v3 reports these parser errors with a 0-based line.
			line++
		}
		return &SyntaxError{Line: line, Msg: msg}
	}
	return &SyntaxError{Msg: trimSpace(stripPrefix(msg, "yaml: "))}
}

func stripPrefix(s, p string) string {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

func trimSpace(s string) string { return string(bytes.TrimSpace([]byte(s))) }

// converter turns a yaml.v3 node tree into values. budget bounds the number
// of values produced, so that aliases cannot expand a small document into
// an enormous one.
type converter struct {
	budget int
}

func (c *converter) value(n *yaml.Node) (any, error) {
	c.budget--
	if c.budget < 0 {
		return nil, &SyntaxError{Line: n.Line, Msg: "document expands to too many values (alias bomb?)"}
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.value(n.Alias)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		if err := checkCollectionTag(n, "!!seq"); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		if err := checkCollectionTag(n, "!!map"); err != nil {
			return nil, err
		}
		return c.mapping(n)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return c.value(n.Content[0])
	}
	return nil, &SyntaxError{Line: n.Line, Msg: "unsupported YAML node"}
}

func checkCollectionTag(n *yaml.Node, want string) error {
	if n.Style&yaml.TaggedStyle != 0 && n.ShortTag() != want {
		return &SyntaxError{Line: n.Line, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
	}
	return nil
}

// mapping converts a mapping node. Merge keys (<<) insert the keys of the
// merged mappings first; the mapping's own keys then override them.
//
// A key written twice in one mapping is a *SyntaxError naming the line of
// the second: YAML says keys are unique, and a reader that kept the last
// value (as PyYAML does) would let a file say two things at once, the
// later silently winning. Keys are compared as they are stored (their str()
// form), so 1 and '1' collide too.
func (c *converter) mapping(n *yaml.Node) (*Map, error) {
	m := NewMap(len(n.Content) / 2)
	var own []Entry
	seen := make(map[string]int, len(n.Content)/2) // key -> line of its first occurrence
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, vn := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.TaggedStyle) == 0 && k.Value == "<<" {
			if err := c.merge(m, vn); err != nil {
				return nil, err
			}
			continue
		}
		kv, err := c.value(k)
		if err != nil {
			return nil, err
		}
		switch kv.(type) {
		case *Map, []any:
			return nil, &SyntaxError{Line: k.Line, Msg: "a mapping key must be a scalar"}
		}
		key := Str(kv)
		if first, dup := seen[key]; dup {
			return nil, &SyntaxError{Line: k.Line, Msg: fmt.Sprintf("duplicate key %s (first written on line %d): a mapping holds each key once", strconv.Quote(key), first)}
		}
		seen[key] = k.Line
		v, err := c.value(vn)
		if err != nil {
			return nil, err
		}
		own = append(own, Entry{Key: key, Value: v})
	}
	for _, e := range own {
		m.Set(e.Key, e.Value)
	}
	return m, nil
}

func (c *converter) merge(into *Map, n *yaml.Node) error {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	var sources []*yaml.Node
	switch n.Kind {
	case yaml.MappingNode:
		sources = []*yaml.Node{n}
	case yaml.SequenceNode:
		sources = n.Content
	default:
		return &SyntaxError{Line: n.Line, Msg: "a merge key (<<) needs a mapping or a list of mappings"}
	}
	for _, s := range sources {
		v, err := c.value(s)
		if err != nil {
			return err
		}
		sm, ok := v.(*Map)
		if !ok {
			return &SyntaxError{Line: s.Line, Msg: "a merge key (<<) needs a mapping or a list of mappings"}
		}
		for _, e := range sm.Entries() {
			if _, exists := into.Get(e.Key); !exists {
				into.Set(e.Key, e.Value)
			}
		}
	}
	return nil
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	if n.Style&yaml.TaggedStyle != 0 {
		return explicitScalar(n)
	}
	if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, nil
	}
	return Resolve(n.Value), nil
}

// explicitScalar handles scalars with an explicit tag such as !!str 123.
func explicitScalar(n *yaml.Node) (any, error) {
	bad := func() error {
		return &SyntaxError{Line: n.Line, Msg: fmt.Sprintf("cannot read %q as %s", n.Value, n.Tag)}
	}
	switch n.ShortTag() {
	case "!!str":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		if !boolRE.MatchString(n.Value) {
			return nil, bad()
		}
		return boolValue(n.Value), nil
	case "!!int":
		if !intRE.MatchString(n.Value) {
			return nil, bad()
		}
		return parseInt(n.Value), nil
	case "!!float":
		if floatRE.MatchString(n.Value) {
			return parseFloat(n.Value), nil
		}
		if intRE.MatchString(n.Value) {
			return toFloat(parseInt(n.Value)), nil
		}
		return nil, bad()
	case "!!timestamp":
		if v, ok := resolveTime(n.Value); ok {
			return v, nil
		}
		return nil, bad()
	}
	return nil, &SyntaxError{Line: n.Line, Msg: fmt.Sprintf("unsupported tag %s", n.Tag)}
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int64:
		return float64(x)
	case *big.Int:
		f, _ := strconv.ParseFloat(x.String(), 64)
		return f
	}
	return 0
}
