package redact

import (
	"bytes"
	"encoding/json"
	"unsafe"
)

// JSON applies Secret to every string value of a JSON document (object
// keys are left alone) and returns the document: JSONAs(data, Field, nil).
func JSON(data []byte) []byte { return JSONAs(data, Field, nil) }

// JSONAs redacts every string value of a JSON document (object keys are
// left alone) as a value of a surface of the given kind, and returns the
// document. echo holds the caller's own string arguments by name: a
// value of the top-level object whose key names an argument and that
// equals it is the caller's text sent back, and is redacted as Prose
// whatever the kind (a lookup of "../../etc/passwd" is answered with its
// name, a lookup of a token is not).
//
// Strings that need no change keep their exact bytes; a document without
// credential-like text comes back unchanged (the same slice). data must be
// valid JSON, as encoding/json produces it.
func JSONAs(data []byte, kind Kind, echo map[string]string) []byte {
	var out []byte // nil until the first change
	last := 0      // data[last:] is not yet copied to out
	depth := 0     // nesting of objects and arrays at data[i]
	key := ""      // the last key read at depth 1
	echo = topLevel(data, echo)
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '{', '[':
			depth++
			continue
		case '}', ']':
			depth--
			continue
		case '"':
		default:
			continue
		}
		end, escaped := stringEnd(data, i)
		if end < 0 {
			return data // not valid JSON; leave it to the caller's encoder
		}
		if isKey(data, end) {
			if depth == 1 && echo != nil {
				key, _ = text(data[i:end], escaped)
			}
			i = end - 1
			continue
		}
		if s, ok := text(data[i:end], escaped); ok {
			k := kind
			if depth == 1 && echo != nil {
				if a, ok := echo[key]; ok && a == s {
					k = Prose
				}
			}
			if r := k.Apply(s); r != s {
				enc, _ := json.Marshal(r)
				out = append(append(out, data[last:i]...), enc...)
				last = end
			}
		}
		i = end - 1
	}
	if out == nil {
		return data
	}
	return append(out, data[last:]...)
}

// text returns the text of a JSON string literal; escaped says whether it
// holds a backslash. Without escapes it shares the literal's bytes instead
// of copying them (a payload holds hundreds of strings, and nearly all of
// them come back unchanged): the string is only used while JSONAs reads
// data, which nothing writes meanwhile, and is never kept.
func text(lit []byte, escaped bool) (string, bool) {
	if !escaped {
		if len(lit) == 2 {
			return "", true
		}
		return unsafe.String(&lit[1], len(lit)-2), true
	}
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err == nil
}

// topLevel returns echo when data is an object, whose top-level values
// can echo arguments, and nil otherwise.
func topLevel(data []byte, echo map[string]string) map[string]string {
	if len(echo) == 0 || len(data) == 0 || data[0] != '{' {
		return nil
	}
	return echo
}

// stringEnd returns the index just past the string literal that starts at
// data[i] (a quote), or -1 if it never closes, and whether the literal
// holds a backslash. A literal without one ends at the next quote, which
// bytes.IndexByte finds faster than a loop; the few others are read byte
// by byte.
func stringEnd(data []byte, i int) (int, bool) {
	q := bytes.IndexByte(data[i+1:], '"')
	if q < 0 {
		return -1, false
	}
	if bytes.IndexByte(data[i+1:i+1+q], '\\') < 0 {
		return i + q + 2, false
	}
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return -1, true
}

// isKey reports whether the string literal ending at end is an object key:
// the next non-space byte is a colon.
func isKey(data []byte, end int) bool {
	for ; end < len(data); end++ {
		switch data[end] {
		case ' ', '\t', '\r', '\n':
		case ':':
			return true
		default:
			return false
		}
	}
	return false
}
