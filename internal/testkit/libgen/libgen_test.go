package libgen

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestGeneratedManifestsAreValid(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Agents: 3, Entities: 20, Sessions: 10, Workstreams: 3, Notes: 4, Seed: 7, Today: time.Date(2026, 6, 30, 0, 0, 0, 0, time.UTC)}
	ids, err := Write(dir, spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 3 {
		t.Fatalf("ids %v", ids)
	}
	for _, id := range ids {
		data, err := os.ReadFile(filepath.Join(dir, "agents", id+".l5.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := yaml11.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if v := l5.Validate(doc); len(v) != 0 {
			t.Errorf("%s: %v", id, v)
		}
		m, _ := l5.FromValue(doc, id)
		if len(m.Entities) != 20 || len(m.Sessions) != 10 || len(m.Workstreams) != 3 || len(m.Notes) != 4 {
			t.Errorf("%s: wrong sizes", id)
		}
	}
	// Deterministic for a seed.
	again := t.TempDir()
	if _, err := Write(again, spec); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "agents", ids[0]+".l5.yaml"))
	b, _ := os.ReadFile(filepath.Join(again, "agents", ids[0]+".l5.yaml"))
	if string(a) != string(b) {
		t.Error("the same spec must write the same bytes")
	}
}
