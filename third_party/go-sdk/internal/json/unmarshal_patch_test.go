// Copyright 2025 The Go MCP SDK Authors. All rights reserved.
// Use of this source code is governed by the license
// that can be found in the LICENSE file.

// This file belongs to bourdon patch 1 (see PATCHES.md).

package json

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"runtime"
	"testing"
)

// TestUnmarshalAgreesWithDecoder checks that Unmarshal, which parses its
// input in place, decodes what a Decoder over the same bytes decodes, and
// fails where it fails.
func TestUnmarshalAgreesWithDecoder(t *testing.T) {
	type params struct {
		Name string         `json:"name"`
		Args map[string]any `json:"arguments"`
		Meta map[string]any `json:"_meta,omitempty"`
	}
	inputs := []string{
		`{"name":"find_entity","arguments":{"name":"Bourdon","access_level":"team"}}`,
		`  {"name":"x"}  `,
		`{"name":"x"} trailing`,
		`{"name":"x"}{"name":"y"}`,
		`{"NAME":"case differs"}`,
		`{"name":"esc\u00e9\n\"q\""}`,
		`{"name":1}`,
		`{"name":"x","arguments":[1,2]}`,
		`{"name":`,
		`{"name":"x"`,
		`nul`,
		`[]`,
		`null`,
		`"just a string"`,
		"{\"name\":\"a\x00b\"}",
		"",
		"   \n\t",
	}
	for _, in := range inputs {
		var got, want params
		gotErr := Unmarshal([]byte(in), &got)
		wantErr := NewDecoder(bytes.NewReader([]byte(in))).Decode(&want)
		if (gotErr == nil) != (wantErr == nil) {
			t.Errorf("%q: Unmarshal error %v, Decoder error %v", in, gotErr, wantErr)
			continue
		}
		if errors.Is(wantErr, io.EOF) != errors.Is(gotErr, io.EOF) {
			t.Errorf("%q: Unmarshal error %v, Decoder error %v", in, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Unmarshal gave %+v, Decoder %+v", in, got, want)
		}
	}
}

// TestUnmarshalAllocatesLittle checks the point of the patch: a small
// message costs a few small allocations, not a 32 KiB buffer.
func TestUnmarshalAllocatesLittle(t *testing.T) {
	data := []byte(`{"name":"find_entity","arguments":{"name":"Bourdon"}}`)
	var v struct {
		Name string            `json:"name"`
		Args map[string]string `json:"arguments"`
	}
	const runs = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if err := Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if perCall := (after.TotalAlloc - before.TotalAlloc) / runs; perCall > 4096 {
		t.Errorf("Unmarshal of %d bytes allocates %d bytes per call, want at most 4096", len(data), perCall)
	}
}
