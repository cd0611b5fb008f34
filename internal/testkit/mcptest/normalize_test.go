package mcptest

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// LoadNormalizer reads the fixture normalizer and checks it against its own
// cases.
func TestNormalizerMatchesItsFixture(t *testing.T) {
	var fx struct {
		Normalizer
		Cases []struct {
			Doc        string `json:"_doc"`
			Raw        any    `json:"raw"`
			Normalized any    `json:"normalized"`
		} `json:"cases"`
	}
	b, err := os.ReadFile("../../../testdata/conformance/mcp_snapshots/_normalizer.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fx); err != nil {
		t.Fatal(err)
	}
	if len(fx.Cases) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range fx.Cases {
		if diff := cmp.Diff(c.Normalized, fx.Normalize(c.Raw)); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", c.Doc, diff)
		}
	}
}
