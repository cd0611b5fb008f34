// Copyright 2026 The bourdon-go Authors. All rights reserved.
// Use of this source code is governed by an MIT-style
// license that can be found in the LICENSE file.

package jsonrpc2

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// encodeByWire is EncodeMessage as upstream wrote it: every message
// through the encoder of wireCombined. It is the oracle of bourdon
// patch 9.
func encodeByWire(t *testing.T, msg Message) []byte {
	t.Helper()
	wire := wireCombined{VersionTag: wireVersion}
	msg.marshal(&wire)
	data, err := jsonMarshal(&wire)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestEncodeCompactResultMatchesEncoder(t *testing.T) {
	results := []any{
		map[string]any{"a": 1, "b": []any{"x", nil, true}},
		"<html> & </html>",
		"line\u2028separator\u2029",
		"invalid \xff utf-8",
		json.RawMessage(`{"nested":{"k":"v"},"n":-1.5e3}`),
		CompactJSON(`{"content":[{"type":"text","text":"{\"a\":1}"}],"structuredContent":{"a":1}}`),
		[]int{},
		0,
		false,
	}
	ids := []ID{{}, Int64ID(0), Int64ID(-7), Int64ID(1 << 53), StringID(""), StringID("a<b>&\"q\"\u2028")}
	for _, id := range ids {
		for _, result := range results {
			resp, err := NewResponse(id, result, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := EncodeMessage(resp)
			if err != nil {
				t.Fatal(err)
			}
			if want := encodeByWire(t, resp); !bytes.Equal(got, want) {
				t.Errorf("id %v, result %v:\n got  %s\n want %s", id.value, result, got, want)
			}
		}
	}
}

// TestEncodeMessageCompactsOtherResults checks that a result that is not
// compact, one that is not valid JSON, and every error response still go
// through the encoder.
func TestEncodeMessageCompactsOtherResults(t *testing.T) {
	spaced := &Response{ID: Int64ID(1), Result: json.RawMessage("{ \"a\" : [ 1 , 2 ] }")}
	got, err := EncodeMessage(spaced)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if _, err := EncodeMessage(&Response{ID: Int64ID(1), Result: json.RawMessage(`{"a":}`)}); err == nil {
		t.Error("a response whose result is not JSON was encoded")
	}
	failed, err := NewResponse(Int64ID(2), map[string]int{"a": 1}, errors.New("boom"))
	if err != nil {
		t.Fatal(err)
	}
	got, err = EncodeMessage(failed)
	if err != nil {
		t.Fatal(err)
	}
	if want := encodeByWire(t, failed); !bytes.Equal(got, want) {
		t.Errorf("got %s, want %s", got, want)
	}
}
