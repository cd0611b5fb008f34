package commit

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/platform/jsontext"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// canonicalJSON is the form digests are computed on: JSON with object keys
// sorted (by bytes), no insignificant space, UTF-8 text unescaped except
// where JSON requires it, dates and timestamps as their ISO text.
//
// The bytes are exactly what encoding/json's Encoder (with HTML escaping
// off) writes for the same value turned into Go maps, which is how digests
// were first defined (TestCanonicalJSONMatchesEncodingJSON pins it), but
// written directly, several times faster. Unlike encoding/json it never
// fails: a NaN or infinite float, which JSON cannot carry, is written as
// NaN, Infinity or -Infinity, so that such a manifest still has a digest
// of its own (encoding/json refuses it, which made every such manifest
// digest as the empty string, and a commit to it a no-op).
func canonicalJSON(v any) []byte {
	return appendCanonical(make([]byte, 0, 1024), v)
}

func appendCanonical(b []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case string:
		return appendJSONString(b, x)
	case bool:
		return strconv.AppendBool(b, x)
	case int64:
		return strconv.AppendInt(b, x, 10)
	case int:
		return strconv.AppendInt(b, int64(x), 10)
	case float64:
		switch {
		case math.IsNaN(x):
			return append(b, "NaN"...)
		case math.IsInf(x, 1):
			return append(b, "Infinity"...)
		case math.IsInf(x, -1):
			return append(b, "-Infinity"...)
		}
	case yaml11.Date:
		return appendJSONString(b, x.String())
	case yaml11.Timestamp:
		return appendJSONString(b, x.ISOFormat())
	case []any:
		b = append(b, '[')
		for i, item := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonical(b, item)
		}
		return append(b, ']')
	case *yaml11.Map:
		return appendObject(b, slices.Clone(x.Entries()))
	case map[string]any:
		entries := make([]yaml11.Entry, 0, len(x))
		for k, v := range x {
			entries = append(entries, yaml11.Entry{Key: k, Value: v})
		}
		return appendObject(b, entries)
	}
	// Finite floats, big integers and anything else: encoding/json's text.
	out, err := json.Marshal(v)
	if err != nil {
		return appendJSONString(b, yaml11.Str(v))
	}
	return append(b, out...)
}

// appendObject writes an object of the entries (which it sorts by key).
func appendObject(b []byte, entries []yaml11.Entry) []byte {
	slices.SortFunc(entries, func(x, y yaml11.Entry) int { return strings.Compare(x.Key, y.Key) })
	b = append(b, '{')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, e.Key)
		b = append(b, ':')
		b = appendCanonical(b, e.Value)
	}
	return append(b, '}')
}

// appendJSONString writes s as encoding/json does with HTML escaping off.
func appendJSONString(b []byte, s string) []byte { return jsontext.AppendString(b, s, jsontext.Plain) }
