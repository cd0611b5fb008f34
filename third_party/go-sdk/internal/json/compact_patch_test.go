// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// This file belongs to bourdon patch 9 (see PATCHES.md).

package json

import (
	"bytes"
	stdjson "encoding/json"
	"strings"
	"testing"
)

// compactByStd is the oracle: data is compact when encoding/json finds it
// valid and compacting it changes nothing.
func compactByStd(data []byte) bool {
	if !stdjson.Valid(data) {
		return false
	}
	var buf bytes.Buffer
	if err := stdjson.Compact(&buf, data); err != nil {
		return false
	}
	return bytes.Equal(buf.Bytes(), data)
}

var compactSeeds = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e-3`, `true`, `null`,
	`{"a":1,"b":[true,false,null],"c":{"d":"e"}}`,
	`{"a": 1}`, "{\"a\":1}\n", " 1", `[1, 2]`, "\t[]",
	`"with space and \" quote"`, `"a\\"`, `"\\\" "`, `"\u2028\u2029"`, "\"\u2028\"",
	`"<>&"`, "\"\xff\xfe\"", "\"\x01\"", "\"\t\"", `"\q"`, `"\u12"`, `"\ud800"`, `"\ud800\udc00"`,
	`01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`, `0x10`, `1e999`, `123456789012345678901234567890`,
	`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":1}{"b":2}`, `[1] `, `{"a":1}x`, ``, ` `, `nul`, `truex`,
	`{"a":{"b":{"c":[[[[]]]]}}}`,
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat("[", 9999) + strings.Repeat("]", 9999),
}

func TestIsCompactMatchesEncodingJSON(t *testing.T) {
	for _, s := range compactSeeds {
		got, want := IsCompact([]byte(s)), compactByStd([]byte(s))
		if got && !want {
			t.Errorf("IsCompact(%.40q) = true, but encoding/json would change or refuse it", s)
		}
		if !got && want && len(s) < 1000 {
			// Slower, not wrong; the cases of this list should agree.
			t.Errorf("IsCompact(%.40q) = false, but it is compact", s)
		}
	}
}

// FuzzIsCompact checks the one direction that matters for correctness:
// IsCompact never accepts bytes that encoding/json would change or refuse.
func FuzzIsCompact(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if IsCompact(data) && !compactByStd(data) {
			t.Errorf("IsCompact(%q) = true, but encoding/json would change or refuse it", data)
		}
	})
}

// escapedByStd is the oracle of AppendHTMLEscaped: what json.Marshal
// makes of compact as a json.Marshaler's output.
func escapedByStd(t *testing.T, compact []byte) []byte {
	t.Helper()
	out, err := stdjson.Marshal(stdjson.RawMessage(compact))
	if err != nil {
		t.Fatalf("%q: %v", compact, err)
	}
	return out
}

func TestAppendHTMLEscapedMatchesEncodingJSON(t *testing.T) {
	for _, s := range append(compactSeeds, `"<a href=\"x&y\">"`, "\"\u2028\u2029\xe2\x80\xa8\xe2\x80\"", `{"k<":">v&"}`, "\"\xe2\x80\"", "\"\xe2\"") {
		if !compactByStd([]byte(s)) {
			continue
		}
		if got, want := AppendHTMLEscaped(nil, []byte(s)), escapedByStd(t, []byte(s)); !bytes.Equal(got, want) {
			t.Errorf("AppendHTMLEscaped(%.40q) = %.60q, encoding/json %.60q", s, got, want)
		}
	}
}

func FuzzAppendHTMLEscaped(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !IsCompact(data) {
			return
		}
		if got, want := AppendHTMLEscaped([]byte("prefix"), data), append([]byte("prefix"), escapedByStd(t, data)...); !bytes.Equal(got, want) {
			t.Errorf("AppendHTMLEscaped(%q) = %q, encoding/json %q", data, got, want)
		}
	})
}
