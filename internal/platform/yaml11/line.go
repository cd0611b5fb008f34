package yaml11

import (
	"bytes"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Line returns the 1-based line, in the YAML document data, of the value a
// JSON pointer (RFC 6901: "/agent/id", "/recent_sessions/0/date") names:
// the line of its key in a mapping, of the item in a sequence. When the
// pointer leads nowhere, the line of the closest existing parent; the
// document's first line for "". 0 when data is not a YAML document.
func Line(data []byte, pointer string) int {
	var doc yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return 0
	}
	n := &doc
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	if n.Kind == 0 {
		return 0
	}
	line := n.Line
	if pointer == "" {
		return line
	}
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == tok {
					next = n.Content[i+1]
					line = n.Content[i].Line
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
				line = next.Line
			}
		}
		if next == nil {
			return line
		}
		n = next
	}
	return line
}
