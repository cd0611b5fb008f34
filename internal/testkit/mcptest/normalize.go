package mcptest

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
)

// Normalizer is the snapshot normalizer of the Bourdon conformance
// fixtures (mcp_snapshots/_normalizer.json): it makes a payload comparable
// across implementations and runs.
type Normalizer struct {
	FloatPrecision int      `json:"float_precision"`
	FreezeFields   []string `json:"freeze_fields"`
	FrozenSentinel string   `json:"frozen_sentinel"`
	DropLatency    []string `json:"drop_latency_fields"`
	CursorFields   []string `json:"cursor_fields"`
}

// Normalize returns a copy of v (decoded JSON) with object fields that are
// null or empty lists dropped, floats rounded, volatile fields frozen or
// dropped, and cursors decoded to their JSON payload.
func (n Normalizer) Normalize(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			switch {
			case contains(n.DropLatency, k):
				continue
			case val == nil:
				continue
			case isEmptyList(val):
				continue
			case contains(n.FreezeFields, k):
				out[k] = n.FrozenSentinel
			case contains(n.CursorFields, k):
				out[k] = decodeCursor(val)
			default:
				out[k] = n.Normalize(val)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = n.Normalize(item)
		}
		return out
	case float64:
		p := math.Pow(10, float64(n.FloatPrecision))
		return math.Round(x*p) / p
	}
	return v
}

func decodeCursor(v any) any {
	s, ok := v.(string)
	if !ok {
		return v
	}
	raw, err := base64.URLEncoding.DecodeString(s)
	if err != nil {
		raw, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			return v
		}
	}
	var out any
	if json.Unmarshal(raw, &out) != nil {
		return v
	}
	return out
}

func isEmptyList(v any) bool {
	l, ok := v.([]any)
	return ok && len(l) == 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
