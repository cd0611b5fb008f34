package export

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The bounds are the schema's own: a change to one side fails here.
func TestLimitsAreTheSchemas(t *testing.T) {
	// The schema the write path validates against (l5.Validate embeds it).
	data, err := os.ReadFile("../memory/l5/l5_schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	lookup := func(path string) int {
		v := schema
		for _, k := range strings.Split(path, "/") {
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("%s: no %q", path, k)
			}
			v = m[k]
		}
		n, ok := v.(float64)
		if !ok {
			t.Fatalf("%s: not a number: %v", path, v)
		}
		return int(n)
	}
	for path, got := range map[string]int{
		"properties/recent_sessions/maxItems":                  MaxSessions,
		"properties/known_entities/maxItems":                   MaxEntities,
		"properties/capabilities/maxItems":                     MaxCapabilities,
		"properties/capabilities/items/maxLength":              MaxCapability,
		"$defs/Session/properties/cwd/maxLength":               MaxCwd,
		"$defs/Session/properties/key_actions/maxItems":        MaxKeyActions,
		"$defs/Session/properties/key_actions/items/maxLength": MaxKeyAction,
		"$defs/Session/properties/files_touched/maxItems":      MaxFiles,
		"$defs/Entity/properties/name/maxLength":               MaxEntityName,
		"$defs/Entity/properties/type/maxLength":               MaxEntityType,
		"$defs/Entity/properties/aliases/maxItems":             MaxAliases,
		"$defs/Entity/properties/summary/maxLength":            MaxSummary,
	} {
		if want := lookup(path); got != want {
			t.Errorf("%s: the constant is %d, the schema says %d", path, got, want)
		}
	}
}
