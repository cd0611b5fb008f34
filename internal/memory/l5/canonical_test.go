package l5

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

// TestCanonicalMatchesToDict runs the reference's L5Manifest.to_dict parity
// cases: the input decoded from JSON, Canonical applied, compared with the
// expected document key by key and in key order.
func TestCanonicalMatchesToDict(t *testing.T) {
	b, err := os.ReadFile("../../../testdata/conformance/l5_todict.json")
	if err != nil {
		t.Fatal(err)
	}
	var fx struct {
		Cases []struct {
			Name     string          `json:"name"`
			Input    json.RawMessage `json:"input"`
			Expected json.RawMessage `json:"expected"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range fx.Cases {
		in := decodeOrdered(t, c.Input)
		got, err := json.Marshal(Canonical(in))
		if err != nil {
			t.Fatal(err)
		}
		// JSON documents compared as text keep key order significant.
		want, err := json.Marshal(decodeOrdered(t, c.Expected))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.Name, diff)
		}
	}
}

// decodeOrdered reads JSON keeping object key order (JSON is YAML).
func decodeOrdered(t *testing.T, raw json.RawMessage) *yaml11.Map {
	t.Helper()
	v, err := yaml11.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v.(*yaml11.Map)
}
