package l5

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixtures = "../../../testdata/conformance/l5_manifests"

func readJSON(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValidManifestsPass(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "valid", "*.json"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		if v := Validate(readJSON(t, f)); len(v) != 0 {
			t.Errorf("%s: unexpected violations %v", filepath.Base(f), v)
		}
	}
}

func TestInvalidManifestsFailForTheExpectedReason(t *testing.T) {
	var reasons struct {
		Reasons map[string]struct {
			Expected Violation   `json:"expected"`
			Errors   []Violation `json:"errors"`
		} `json:"reasons"`
	}
	b, err := os.ReadFile(filepath.Join(fixtures, "invalid", "reasons.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &reasons); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(fixtures, "invalid", "*.json"))
	seen := 0
	for _, f := range files {
		name := filepath.Base(f)
		if name == "reasons.json" {
			continue
		}
		seen++
		want, ok := reasons.Reasons[name]
		if !ok {
			t.Errorf("%s has no entry in reasons.json", name)
			continue
		}
		got := Validate(readJSON(t, f))
		if len(got) != len(want.Errors) {
			t.Errorf("%s: got %d violations %v, want %d %v", name, len(got), got, len(want.Errors), want.Errors)
		}
		found := false
		for _, v := range got {
			if v.Keyword == want.Expected.Keyword && v.InstancePath == want.Expected.InstancePath {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: violations %v do not include %s at %q", name, got, want.Expected.Keyword, want.Expected.InstancePath)
		}
	}
	if seen != len(reasons.Reasons) {
		t.Errorf("checked %d invalid manifests, reasons.json lists %d", seen, len(reasons.Reasons))
	}
}

func TestValidateReportsEveryViolation(t *testing.T) {
	doc := map[string]any{
		"spec_version": "1",
		"agent":        map[string]any{"id": "Bad Id", "type": "wizard"},
		"known_entities": []any{
			map[string]any{"visibility": "secret"},
		},
		"known_workstreams": []any{map[string]any{"name": "w", "status": "stalled"}},
		"notes":             []any{map[string]any{"date": "2026-02-30", "text": "x"}},
	}
	got := Validate(doc)
	paths := map[string]bool{}
	for _, v := range got {
		paths[v.Keyword+" "+v.InstancePath] = true
	}
	for _, want := range []string{
		"required ", "pattern /spec_version", "pattern /agent/id", "enum /agent/type",
		"required /known_entities/0", "enum /known_entities/0/visibility",
		"enum /known_workstreams/0/status", "format /notes/0/date",
	} {
		if !paths[want] {
			t.Errorf("missing violation %q in %v", want, got)
		}
	}
}
