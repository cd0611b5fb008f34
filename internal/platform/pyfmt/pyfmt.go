// Package pyfmt formats values the way Python does. The reference server
// embeds repr() output in its error messages and denial details
// ("namespace 'codex' not granted", "entity missing non-empty 'name':
// {'type': 'concept'}"), and clients match on those strings; its command
// line prints json.dumps documents that programs (the tray) read.
package pyfmt

import (
	"fmt"
	"math/big"
	"sort"
	"strings"
	"unicode"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// Quote returns repr(s) for a Python str: single quotes unless s holds a
// single quote and no double quote; backslash escapes for quotes,
// backslashes and non-printable characters.
func Quote(s string) string {
	q := '\''
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteRune(q)
	for _, r := range s {
		switch {
		case r == '\\' || r == q:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == ' ' || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteRune(q)
	return b.String()
}

// Repr returns repr(v) for a value decoded from JSON or YAML: None, True,
// False, numbers, quoted strings, [lists] and {dicts}. Maps without an
// order (map[string]any) are written with sorted keys.
func Repr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case string:
		return Quote(x)
	case bool, int, int64, float64, *big.Int, yaml11.Date, yaml11.Timestamp:
		return yaml11.Str(x)
	case []any:
		parts := make([]string, len(x))
		for i, item := range x {
			parts[i] = Repr(item)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *yaml11.Map:
		parts := make([]string, 0, x.Len())
		for _, e := range x.Entries() {
			parts = append(parts, Quote(e.Key)+": "+Repr(e.Value))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = Quote(k) + ": " + Repr(x[k])
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// IsSpace reports whether r is whitespace for Python's str.isspace (and
// re's \s): Go's unicode.IsSpace plus the ASCII information separators
// U+001C..U+001F. str.strip() trims exactly these.
func IsSpace(r rune) bool {
	switch {
	case r == ' ', r >= '\t' && r <= '\r', r >= 0x1c && r <= 0x1f:
		return true
	case r < 0x85:
		return false
	case r == 0x85, r == 0xa0, r == 0x1680,
		r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
