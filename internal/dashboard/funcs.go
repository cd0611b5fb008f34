package dashboard

import (
	"encoding/json"
	"html/template"
	"maps"
	"slices"
	"strings"
	"time"
)

// funcs are the template helpers over decoded JSON payloads.
var funcs = template.FuncMap{
	"str":   str,
	"strs":  strs,
	"list":  list,
	"obj":   mapOf,
	"join":  func(v any) string { return strings.Join(strs(v), ", ") },
	"short": func(s string) string { return s[:min(len(s), 12)] },
	"dur":   func(d time.Duration) string { return d.Round(100 * time.Microsecond).String() },
	"pretty": func(v any) string {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err.Error()
		}
		return string(b)
	},
	"count": func(counts map[string]int, key string) int { return counts[key] },
	"keys": func(v any) []string {
		return slices.Sorted(maps.Keys(mapOf(v)))
	},
}
