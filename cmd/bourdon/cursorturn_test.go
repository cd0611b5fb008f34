package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCursorCompileTurn runs the command in-process over the seed library.
func TestCursorCompileTurn(t *testing.T) {
	lib := seedLibrary(t)
	root := newRootCommand()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs([]string{"cursor", "compile-turn", "what about Bourdon", "--library", lib, "--cwd", filepath.Join("/home/dev", "bourdon"), "--json"})
	if err := root.Execute(); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	var got map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %s", out.String())
	}
	if got["schema_version"] != "cursor-turn-brief/v1" || got["cwd_project"] != "bourdon" {
		t.Errorf("brief: %v", got)
	}
	if matched, _ := got["matched_entities"].([]any); len(matched) == 0 {
		t.Errorf("no entity matched: %v", got)
	}
	if text, _ := got["text"].(string); !strings.Contains(text, "Project: bourdon") {
		t.Errorf("text: %q", got["text"])
	}
}
