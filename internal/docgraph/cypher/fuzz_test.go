package cypher

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzQuery parses and runs arbitrary text on the small test graph with a
// small budget. It must never panic, and a run gives either rows or an
// *Error, never both; rows must stay within the limit and encode as JSON.
func FuzzQuery(f *testing.F) {
	for _, src := range accepted {
		f.Add(src)
	}
	for _, tc := range refusedQueries {
		f.Add(tc.src)
	}
	for _, tc := range execCases {
		f.Add(tc.src)
	}
	g := testGraph(f)
	params := map[string]any{
		"target": "m1", "affected": []any{"a", "m2"}, "uid": "m1", "uids": []any{"a", "b"},
		"s": 1, "l": 2, "n": 3, "m": "m1", "o": 2.0, "titles": []any{"Edges"}, "part": "a", "levels": nil, "start": "a",
	}
	const limit = 20
	f.Fuzz(func(t *testing.T, src string) {
		res, err := Run(t.Context(), g, src, params, Options{Limit: limit, ExpansionBudget: 5_000, Timeout: 5 * time.Second})
		if err != nil {
			if res != nil {
				t.Fatalf("%q: both a result and %v", src, err)
			}
			if kindOf(err) == "" {
				t.Fatalf("%q: %T %v is not an *Error", src, err, err)
			}
			return
		}
		if res.Rows == nil || len(res.Rows) > limit {
			t.Fatalf("%q: %d rows (nil %v)", src, len(res.Rows), res.Rows == nil)
		}
		for _, r := range res.Rows {
			if len(r) != len(res.Columns) {
				t.Fatalf("%q: row of %d for %d columns", src, len(r), len(res.Columns))
			}
		}
		if _, err := json.Marshal(res); err != nil {
			t.Fatalf("%q: %v", src, err)
		}
	})
}
