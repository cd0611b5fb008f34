// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// Package json provides internal JSON utilities.

package json

import (
	"bytes"
	"fmt"
	"io"

	"github.com/segmentio/encoding/json"
)

// defaultMaxDepth is the maximum JSON nesting depth accepted by [Unmarshal].
// Realistic MCP payloads nest only a handful of levels, so 1000 is far more
// than any legitimate message requires while keeping worst-case parse cost
// bounded.
const defaultMaxDepth = 1000

// errMaxDepthExceeded is returned by [Unmarshal] when the input nests deeper than [defaultMaxDepth].
var errMaxDepthExceeded = fmt.Errorf("json: exceeded maximum nesting depth of %d", defaultMaxDepth)

type Decoder struct {
	dec *json.Decoder
}

func NewDecoder(r io.Reader) *Decoder {
	dec := json.NewDecoder(r)
	dec.DontMatchCaseInsensitiveStructFields()
	return &Decoder{dec: dec}
}

func (d *Decoder) Decode(v any) error {
	return d.dec.Decode(v)
}

func Unmarshal(data []byte, v any) error {
	if err := checkMaxDepth(data, defaultMaxDepth); err != nil {
		return err
	}
	// Parse the bytes in place: a Decoder over a bytes.Reader would copy
	// them into a fresh buffer of at least 32 KiB first, whatever their
	// size (bourdon patch 1, see PATCHES.md). Like the Decoder, this
	// reads the first value and ignores what follows it, and an input of
	// nothing but white space is io.EOF.
	if len(bytes.TrimLeft(data, " \t\r\n")) == 0 {
		return io.EOF
	}
	_, err := json.Parse(data, v, json.DontMatchCaseInsensitiveStructFields)
	return err
}

// IsCompact reports whether data is one valid JSON value without white
// space outside its strings, nested at most as deep as encoding/json
// accepts: what compacting it without HTML escaping (as encoding/json does
// to a json.Marshaler's output) would leave unchanged. The check is
// segmentio's validator, about four times faster than encoding/json's
// scanner, and one pass over the bytes (bourdon patch 9, see PATCHES.md).
func IsCompact(data []byte) bool {
	if !json.Valid(data) {
		return false
	}
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case escaped:
			escaped = false
		case inString:
			escaped = b == '\\'
			inString = b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > stdMaxDepth {
				return false
			}
		case b == '}' || b == ']':
			depth--
		case b == ' ' || b == '\t' || b == '\n' || b == '\r':
			return false
		}
	}
	return true
}

// AppendHTMLEscaped appends compact JSON to dst as encoding/json's
// compaction with HTML escaping writes it (json.Marshal does that to a
// json.Marshaler's output): '<', '>' and '&' become \u003c, \u003e and
// \u0026, and U+2028 and U+2029 become \u2028 and \u2029; every other
// byte is copied (bourdon patch 10, see PATCHES.md). In valid JSON those
// characters occur only inside strings.
func AppendHTMLEscaped(dst, compact []byte) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, compact[start:i]...)
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		case c == 0xE2 && i+2 < len(compact) && compact[i+1] == 0x80 && compact[i+2]&^1 == 0xA8:
			dst = append(dst, compact[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[compact[i+2]&0xF])
			i += 2
			start = i + 1
		}
	}
	return append(dst, compact[start:]...)
}

// stdMaxDepth is the deepest nesting encoding/json's scanner accepts.
const stdMaxDepth = 10000

// checkMaxDepth scans data once and reports [errMaxDepthExceeded] if the
// nesting of JSON objects and arrays exceeds maxDepth. It is a lightweight pass which
// tracks '{' and '[' against '}' and ']' while skipping over the contents of strings.
func checkMaxDepth(data []byte, maxDepth int) error {
	var (
		depth    int
		inString bool
		escaped  bool
	)
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}

		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return errMaxDepthExceeded
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
