package demo

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/getbourdon/bourdon-go/internal/memory/l5"
	"github.com/getbourdon/bourdon-go/internal/platform/yaml11"
)

func TestDemoManifestsAreValid(t *testing.T) {
	dir := t.TempDir()
	if err := Write(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "agents", "*.l5.yaml"))
	if len(files) != 3 {
		t.Fatalf("demo wrote %d manifests, want 3", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := yaml11.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		if v := l5.Validate(doc); len(v) != 0 {
			t.Errorf("%s: %v", filepath.Base(f), v)
		}
	}
}
