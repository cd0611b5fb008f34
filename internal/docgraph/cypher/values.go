package cypher

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strings"

	"github.com/getbourdon/bourdon-go/internal/docgraph/graph"
)

// Values while a query runs are nil, bool, int64, float64, string, []any,
// map[string]any, nodeVal and edgeRef. Properties and parameters are
// normalised into these (normalize); results are turned into JSON values
// (toJSON).

// nodeVal is a node as a value.
type nodeVal graph.NodeID

// edgeRef is a relationship as a value: its ends as stored, and its type.
// A (from, to, type) triple is unique in a graph, so it is also the
// relationship's identity.
type edgeRef struct {
	from, to graph.NodeID
	typ      graph.EdgeType
}

// normalize converts a property or parameter value to a query value. It
// reports false for a type a query cannot hold.
func normalize(v any) (any, bool) {
	switch v := v.(type) {
	case nil, bool, string, int64, float64:
		return v, true
	case int:
		return int64(v), true
	case int32:
		return int64(v), true
	case int16:
		return int64(v), true
	case int8:
		return int64(v), true
	case uint8:
		return int64(v), true
	case uint16:
		return int64(v), true
	case uint32:
		return int64(v), true
	case uint:
		return normalize(uint64(v))
	case uint64:
		if v <= math.MaxInt64 {
			return int64(v), true
		}
		return float64(v), true
	case float32:
		return float64(v), true
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i, true
		}
		f, err := v.Float64()
		return f, err == nil
	case []string:
		out := make([]any, len(v))
		for i, s := range v {
			out[i] = s
		}
		return out, true
	case []any:
		if canonical(v) {
			return v, true
		}
		out := make([]any, len(v))
		for i, e := range v {
			n, ok := normalize(e)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	case map[string]any:
		if canonical(v) {
			return v, true
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, ok := normalize(e)
			if !ok {
				return nil, false
			}
			out[k] = n
		}
		return out, true
	}
	return nil, false
}

// canonical reports whether v is a query value already, so that
// normalize need not copy it.
func canonical(v any) bool {
	switch v := v.(type) {
	case nil, bool, string, int64, float64:
		return true
	case []any:
		for _, e := range v {
			if !canonical(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range v {
			if !canonical(e) {
				return false
			}
		}
		return true
	}
	return false
}

// asFloat returns a number as a float64.
func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case int64:
		return float64(v), true
	case float64:
		return v, true
	}
	return 0, false
}

// equal is Cypher's =: known is false when the answer is null (an operand
// is null, or a list holds a null where the rest is equal).
func equal(a, b any) (eq, known bool) {
	if a == nil || b == nil {
		return false, false
	}
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return a == b, true
		}
		f, ok := asFloat(b)
		return ok && float64(a) == f, true
	case float64:
		f, ok := asFloat(b)
		return ok && a == f, true
	case string:
		b, ok := b.(string)
		return ok && a == b, true
	case bool:
		b, ok := b.(bool)
		return ok && a == b, true
	case nodeVal:
		b, ok := b.(nodeVal)
		return ok && a == b, true
	case edgeRef:
		b, ok := b.(edgeRef)
		return ok && a == b, true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false, true
		}
		known = true
		for i := range a {
			e, k := equal(a[i], b[i])
			if k && !e {
				return false, true
			}
			known = known && k
		}
		return known, known
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false, true
		}
		known = true
		for k, av := range a {
			bv, ok := b[k]
			if !ok {
				return false, true
			}
			e, kn := equal(av, bv)
			if kn && !e {
				return false, true
			}
			known = known && kn
		}
		return known, known
	}
	return false, true
}

// compare orders two numbers, two strings or two booleans for <, <=, >
// and >=; known is false (the answer is null) for anything else.
func compare(a, b any) (c int, known bool) {
	switch a := a.(type) {
	case int64:
		if b, ok := b.(int64); ok {
			return cmp.Compare(a, b), true
		}
		if f, ok := b.(float64); ok && !math.IsNaN(f) {
			return cmp.Compare(float64(a), f), true
		}
	case float64:
		if f, ok := asFloat(b); ok && !math.IsNaN(a) && !math.IsNaN(f) {
			return cmp.Compare(a, f), true
		}
	case string:
		if b, ok := b.(string); ok {
			return strings.Compare(a, b), true
		}
	case bool:
		if b, ok := b.(bool); ok {
			switch {
			case a == b:
				return 0, true
			case b:
				return -1, true
			}
			return 1, true
		}
	}
	return 0, false
}

// orderRank places the kinds of value in Cypher's ORDER BY order: maps,
// nodes, relationships, lists, strings, booleans, numbers, then null.
func orderRank(v any) int {
	switch v.(type) {
	case map[string]any:
		return 0
	case nodeVal:
		return 1
	case edgeRef:
		return 2
	case []any:
		return 3
	case string:
		return 4
	case bool:
		return 5
	case int64, float64:
		return 6
	}
	return 7
}

// orderCompare is the total order of ORDER BY (ascending; null last).
func orderCompare(a, b any) int {
	ra, rb := orderRank(a), orderRank(b)
	if ra != rb {
		return cmp.Compare(ra, rb)
	}
	switch a := a.(type) {
	case int64, float64, string, bool:
		if c, ok := compare(a, b); ok {
			return c
		}
		// NaN sorts before every other number, as in cmp.Compare.
		fa, _ := asFloat(a)
		fb, _ := asFloat(b)
		return cmp.Compare(fa, fb)
	case nodeVal:
		return cmp.Compare(a, b.(nodeVal))
	case edgeRef:
		b := b.(edgeRef)
		return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(a.to, b.to), strings.Compare(string(a.typ), string(b.typ)))
	case []any:
		b := b.([]any)
		for i := range min(len(a), len(b)) {
			if c := orderCompare(a[i], b[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a), len(b))
	case map[string]any:
		return strings.Compare(string(appendKey(nil, a)), string(appendKey(nil, b)))
	}
	return 0
}

// appendKey appends an encoding of v to buf such that two values have the
// same encoding exactly when DISTINCT and grouping treat them as one
// (numbers by value, so 1 and 1.0 are one key).
func appendKey(buf []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(buf, 'z')
	case bool:
		if v {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case int64:
		return binary.AppendVarint(append(buf, 'i'), v)
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
			return binary.AppendVarint(append(buf, 'i'), int64(v))
		}
		return binary.BigEndian.AppendUint64(append(buf, 'd'), math.Float64bits(v))
	case string:
		return append(binary.AppendUvarint(append(buf, 's'), uint64(len(v))), v...)
	case nodeVal:
		return binary.AppendVarint(append(buf, 'n'), int64(v))
	case edgeRef:
		buf = binary.AppendVarint(append(buf, 'r'), int64(v.from))
		buf = binary.AppendVarint(buf, int64(v.to))
		return appendKey(buf, string(v.typ))
	case []any:
		buf = binary.AppendUvarint(append(buf, 'l'), uint64(len(v)))
		for _, e := range v {
			buf = appendKey(buf, e)
		}
		return buf
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		buf = binary.AppendUvarint(append(buf, 'm'), uint64(len(v)))
		for _, k := range keys {
			buf = appendKey(appendKey(buf, k), v[k])
		}
		return buf
	}
	return buf
}

// propValue normalises a stored property value; one no query can hold
// (a graph's properties are JSON values, so none should be) reads as null.
func propValue(v any) any {
	n, _ := normalize(v)
	return n
}
