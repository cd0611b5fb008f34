package redact

import (
	"bytes"
	"encoding/json"
)

// Marshal returns the JSON encoding of v (encoding/json) with JSON
// applied: the bytes every tool result carries, so that a command-line
// twin of a tool prints exactly what the tool returns.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return JSON(b), nil
}

// JSON applies Secret to every string value of a JSON document (object
// keys are left alone) and returns the document. Strings that need no
// change keep their exact bytes; a document without credential-like text
// comes back unchanged (the same slice). data must be valid JSON, as
// encoding/json produces it.
func JSON(data []byte) []byte {
	var out []byte // nil until the first change
	last := 0      // data[last:] is not yet copied to out
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		end := stringEnd(data, i)
		if end < 0 {
			return data // not valid JSON; leave it to the caller's encoder
		}
		if isKey(data, end) {
			i = end - 1
			continue
		}
		lit := data[i:end]
		var s string
		var err error
		if bytes.IndexByte(lit, '\\') < 0 {
			s = string(lit[1 : len(lit)-1]) // no escapes: the bytes are the text
		} else {
			err = json.Unmarshal(lit, &s)
		}
		if err == nil {
			if r := Secret(s); r != s {
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

// stringEnd returns the index just past the string literal that starts at
// data[i] (a quote), or -1 if it never closes.
func stringEnd(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// isKey reports whether the string literal ending at end is an object key:
// the next non-space byte is a colon.
func isKey(data []byte, end int) bool {
	rest := bytes.TrimLeft(data[end:], " \t\r\n")
	return len(rest) > 0 && rest[0] == ':'
}
